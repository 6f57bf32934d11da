// SPDX-License-Identifier: GPL-2.0
/* The [metrics] section: its keys, their defaults, and errors with file:line. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"

static const char tenants[] = "[platform]\nllc_ways = 11\n"
			      "[tenant a]\ncpus = 0\nways = 2\n";

static int parse(const char *metrics, struct config *c, char *err, size_t len)
{
	char text[1024];

	snprintf(text, sizeof(text), "%s%s", tenants, metrics);
	return config_parse_string(text, "m.ini", c, err, len);
}

static void test_config_metrics_none_by_default(void **u)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)u;
	assert_int_equal(parse("", c, err, sizeof(err)), 0);
	assert_string_equal(c->metrics.listen, "");
	assert_string_equal(c->metrics.textfile, "");
	assert_int_equal(c->metrics.line, 0);
	free(c);
}

static void test_config_metrics_parses_listen_and_textfile(void **u)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)u;
	assert_int_equal(parse("[metrics]\nlisten = 127.0.0.1:9465\n"
			       "textfile = /var/lib/node_exporter/ioca.prom\n",
			       c, err, sizeof(err)),
			 0);
	assert_string_equal(c->metrics.listen, "127.0.0.1:9465");
	assert_string_equal(c->metrics.textfile, "/var/lib/node_exporter/ioca.prom");
	assert_int_equal(c->metrics.line, 6);
	assert_int_equal(c->metrics.listen_line, 7);
	/* [metrics] may come before the others */
	assert_int_equal(config_parse_string("[metrics]\nlisten = 9465\n[platform]\nllc_ways = 11\n"
					     "[tenant a]\ncpus = 0\nways = 2\n",
					     "m.ini", c, err, sizeof(err)),
			 0);
	assert_string_equal(c->metrics.listen, "9465");
	free(c);
}

static void test_config_metrics_parses_web_config_and_healthz_intervals(void **u)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)u;
	assert_int_equal(parse("[metrics]\nlisten = 9465\nweb_config = /etc/iocad/web.yml\n"
			       "healthz_intervals = 3\n",
			       c, err, sizeof(err)),
			 0);
	assert_string_equal(c->metrics.web_config, "/etc/iocad/web.yml");
	assert_int_equal(c->metrics.web_config_line, 8);
	assert_int_equal(c->metrics.healthz_intervals, 3);
	assert_int_equal(parse("[metrics]\nlisten = 9465\n", c, err, sizeof(err)), 0);
	assert_string_equal(c->metrics.web_config, "");
	assert_int_equal(c->metrics.healthz_intervals, 0); /* the default */
	free(c);
}

static void expect_error(const char *metrics, const char *want)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";
	int r;

	c->ntenants = 42; /* must survive a failed parse */
	r = parse(metrics, c, err, sizeof(err));
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_int_equal(r, -22);
	assert_int_equal(c->ntenants, 42);
	free(c);
}

static void test_config_metrics_rejects_bad_values_with_file_and_line(void **u)
{
	(void)u;
	expect_error("[metrics]\nlisten = 127.0.0.1:99999\n",
		     "m.ini:7: [metrics] listen: bad value '127.0.0.1:99999'");
	expect_error("[metrics]\nlisten = localhost:9465\n",
		     "m.ini:7: [metrics] listen: bad value 'localhost:9465': 'localhost' is not a "
		     "numeric IPv4 address");
	expect_error("[metrics]\nlisten = [::1:9465\n", "expected [IPv6]:PORT");
	expect_error("[metrics]\nlisten = [::g]:9465\n", "'::g' is not a numeric IPv6 address");
	expect_error("[metrics]\ntextfile = /tmp/ioca.txt\n",
		     "m.ini:7: [metrics] textfile: bad value '/tmp/ioca.txt': expected a file name "
		     "ending in .prom");
	expect_error("[metrics]\ntextfile = /tmp/.prom\n", "ending in .prom");
	expect_error("[metrics]\nport = 9465\n", "m.ini:7: [metrics] port: unknown key");
	expect_error(
		"[metrics]\nweb_config = web.yml\n",
		"m.ini:7: [metrics] web_config: bad value 'web.yml': expected an absolute path");
	expect_error("[metrics]\nhealthz_intervals = 0\n",
		     "m.ini:7: [metrics] healthz_intervals: bad value '0'");
	expect_error("[metrics]\nlisten = 1\nlisten = 2\n", "m.ini:8: listen: given twice");
	expect_error("[metrics]\n[metrics]\n", "m.ini:7: [metrics] given twice (first at line 6)");
	expect_error("[metricz]\n", "m.ini:6: unknown section [metricz] (expected [platform], "
				    "[socket N], [tenant NAME], [device ADDR] or [metrics])");
}

static void test_config_metrics_addr_forms(void **u)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char why[128];

	(void)u;
	assert_int_equal(config_metrics_addr("9465", &ss, &len, why, sizeof(why)), 0);
	assert_int_equal(ss.ss_family, AF_INET);
	assert_int_equal(((struct sockaddr_in *)&ss)->sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	assert_int_equal(ntohs(((struct sockaddr_in *)&ss)->sin_port), 9465);
	assert_int_equal(config_metrics_addr("0.0.0.0:0", &ss, &len, why, sizeof(why)), 0);
	assert_int_equal(len, sizeof(struct sockaddr_in));
	assert_int_equal(config_metrics_addr("[::1]:80", &ss, &len, why, sizeof(why)), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(len, sizeof(struct sockaddr_in6));
	assert_int_equal(ntohs(((struct sockaddr_in6 *)&ss)->sin6_port), 80);
	assert_int_equal(config_metrics_addr("", &ss, &len, why, sizeof(why)), -22);
	assert_int_equal(config_metrics_addr("1.2.3.4:", &ss, &len, why, sizeof(why)), -22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_metrics_none_by_default),
		cmocka_unit_test(test_config_metrics_parses_listen_and_textfile),
		cmocka_unit_test(test_config_metrics_parses_web_config_and_healthz_intervals),
		cmocka_unit_test(test_config_metrics_rejects_bad_values_with_file_and_line),
		cmocka_unit_test(test_config_metrics_addr_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
