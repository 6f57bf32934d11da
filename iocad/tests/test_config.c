// SPDX-License-Identifier: GPL-2.0
/* Config parsing: defaults, every error with file:line:key, no half updates. */
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "config/config.h"

static const char good[] = "[platform]\n"
			   "model = aggregation\n"
			   "llc_ways = 11\n"
			   "ddio_ways_max = 5\n"
			   "interval_ms = 500\n"
			   "\n"
			   "[tenant ovs]\n"
			   "cpus = 0-1\n"
			   "ways = 2\n"
			   "priority = PS\n"
			   "vswitch = yes\n"
			   "\n"
			   "[tenant web]\n"
			   "cpus = 2,3\n"
			   "ways = 2\n"
			   "priority = PS\n"
			   "networking = yes\n"
			   "\n"
			   "[tenant batch]\n"
			   "; a comment\n"
			   "cpus = 4-5,8\n"
			   "ways = 3\n";

static struct config *cfg_new(void)
{
	struct config *c = malloc(sizeof(*c));

	assert_non_null(c);
	config_defaults(c);
	return c;
}

static void test_config_parses_good_file_with_defaults(void **u)
{
	struct config *c = cfg_new();
	char err[256] = "";

	(void)u;
	assert_int_equal(config_parse_string(good, "good.ini", c, err, sizeof(err)), 0);
	assert_int_equal(c->model, CONFIG_MODEL_AGGREGATION);
	assert_int_equal(c->llc_ways, 11);
	assert_int_equal(c->ddio_ways_min, 2);
	assert_int_equal(c->ddio_ways_max, 5);
	assert_true(c->interval_ns == 500000000u);
	assert_true(c->threshold_stable > 0.09 && c->threshold_stable < 0.11);
	assert_int_equal(c->ntenants, 3);
	assert_string_equal(c->tenant[0].name, "ovs");
	assert_true(c->tenant[0].vswitch);
	assert_true(c->tenant[0].networking); /* implied by vswitch */
	assert_int_equal(c->tenant[1].prio, CONFIG_PRIO_PS);
	assert_int_equal(c->tenant[2].prio, CONFIG_PRIO_BE);
	assert_false(c->tenant[2].networking);
	assert_int_equal(c->tenant[2].ncpus, 3);
	assert_int_equal(c->tenant[2].cpus[2], 8);
	assert_int_equal(c->tenant[2].ways_line, 22);
	assert_int_equal(config_tenant_index(c, "web"), 1);
	assert_int_equal(config_tenant_index(c, "nope"), -1);
	free(c);
}

/* Replace the first occurrence of @from in good[] with @to and parse. */
static void expect_error(const char *from, const char *to, const char *want)
{
	struct config *c = cfg_new();
	char text[2048], err[256] = "";
	const char *p = strstr(good, from);
	int r;

	assert_non_null(p);
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(p - good), good, to, p + strlen(from));
	c->ntenants = 42; /* must survive a failed parse */
	r = config_parse_string(text, "t.ini", c, err, sizeof(err));
	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_int_equal(r, -22);
	assert_int_equal(c->ntenants, 42);
	free(c);
}

static void test_config_rejects_unknown_key(void **u)
{
	(void)u;
	expect_error("ways = 3", "wayz = 3", "t.ini:22: [tenant batch] wayz: unknown key");
	expect_error("interval_ms", "intervall_ms",
		     "t.ini:5: [platform] intervall_ms: unknown key");
}

static void test_config_rejects_bad_cpu_lists(void **u)
{
	(void)u;
	expect_error("cpus = 2,3", "cpus = 2,,3", "t.ini:14: [tenant web] cpus: bad value '2,,3'");
	expect_error("cpus = 2,3", "cpus = 3-2", "range 3-2 runs backwards");
	expect_error("cpus = 2,3", "cpus = 2-", "range needs an end");
	expect_error("cpus = 2,3", "cpus = 2,2", "CPU 2 listed twice");
	expect_error("cpus = 2,3", "cpus = 9999", "past the maximum 255");
	expect_error("cpus = 2,3", "cpus = x", "expected a CPU id");
	expect_error("cpus = 2,3", "cpus = -1", "expected a CPU id");
}

static void test_config_rejects_overlapping_cpus(void **u)
{
	(void)u;
	expect_error("cpus = 4-5,8", "cpus = 3-5",
		     "t.ini:21: [tenant batch] cpus: CPU 3 is also in tenant web (line 14)");
}

static void test_config_rejects_too_many_initial_ways(void **u)
{
	(void)u;
	expect_error("ways = 3", "ways = 8",
		     "t.ini:22: [tenant batch] ways: too many initial ways: tenants so far need "
		     "12, the LLC has 11");
}

static void test_config_rejects_unisolatable_ps_tenant(void **u)
{
	(void)u;
	/* ovs 2 + web 8 + DDIO min 2 > 11 */
	expect_error("ways = 2\npriority = PS\nnet", "ways = 8\npriority = PS\nnet",
		     "t.ini:16: [tenant web] priority: PS tenant cannot be isolated from DDIO");
}

static void test_config_rejects_aggregation_without_vswitch(void **u)
{
	(void)u;
	expect_error("vswitch = yes", "vswitch = no",
		     "t.ini:2: model: aggregation needs one tenant with vswitch = yes");
}

static void test_config_rejects_vswitch_errors(void **u)
{
	(void)u;
	expect_error("model = aggregation", "model = slicing",
		     "t.ini:11: [tenant ovs] vswitch: a virtual switch needs model = aggregation");
	expect_error("networking = yes", "vswitch = yes",
		     "t.ini:17: [tenant web] vswitch: tenant ovs (line 11) is already");
}

static void test_config_rejects_bad_values(void **u)
{
	(void)u;
	expect_error("model = aggregation", "model = star", "t.ini:2: [platform] model: bad value");
	expect_error("llc_ways = 11", "llc_ways = 40", "llc_ways: bad value '40': out of range");
	expect_error("priority = PS\nv", "priority = gold\nv", "expected PS or BE");
	expect_error("networking = yes", "networking = maybe", "expected yes or no");
	expect_error("interval_ms = 500", "interval_ms = 5e2", "expected a whole number");
	expect_error("interval_ms = 500", "threshold_stable = -1", "threshold_stable: bad value");
	expect_error("ddio_ways_max = 5", "ddio_ways_max = 12", "ddio_ways_max: 12 is more than");
	expect_error("ddio_ways_max = 5", "ddio_ways_max = 1",
		     "t.ini:4: ddio_ways_min: 2 is above");
	expect_error("ddio_ways_max = 5", "ddio_ways = 7", "ddio_ways: 7 is outside");
}

static void test_config_rejects_structure_errors(void **u)
{
	(void)u;
	expect_error("[tenant web]", "[tenant ovs]",
		     "t.ini:13: [tenant ovs] given twice (first at line 7)");
	expect_error("[tenant web]", "[tennant web]", "t.ini:13: unknown section [tennant web]");
	expect_error("[tenant web]", "[tenant w*b]", "tenant name must be");
	expect_error("ways = 3", "ways 3", "t.ini:22: syntax error");
	expect_error("ways = 3", "ways = 3\nways = 4", "t.ini:23: ways: given twice");
	expect_error("cpus = 4-5,8\n", "", "t.ini:19: [tenant batch] cpus: missing (required)");
	expect_error("[platform]\n", "", "t.ini:1: model: key outside of a known section");
}

static void expect_text_error(const char *text, const char *want)
{
	struct config *c = cfg_new();
	char err[256] = "";
	int r = config_parse_string(text, "g.ini", c, err, sizeof(err));

	if (!strstr(err, want))
		fail_msg("error '%s' lacks '%s'", err, want);
	assert_int_equal(r, -22);
	free(c);
}

static void test_config_groups_share_ways(void **u)
{
	static const char text[] = "[platform]\nllc_ways = 11\n"
				   "[tenant a]\ncpus = 0\nways = 6\ngroup = pair\n"
				   "[tenant b]\ncpus = 1\nways = 6\ngroup = pair\npriority = PS\n"
				   "[tenant c]\ncpus = 2\nways = 3\n";
	struct config *c = cfg_new();
	char err[256] = "";

	(void)u;
	/* 6 + 3 ways: the group's six count once */
	assert_int_equal(config_parse_string(text, "g.ini", c, err, sizeof(err)), 0);
	assert_int_equal(config_leader(c, 0), 0);
	assert_int_equal(config_leader(c, 1), 0);
	assert_int_equal(config_leader(c, 2), 2);
	assert_string_equal(c->tenant[1].group, "pair");
	free(c);
}

static void test_config_rejects_bad_groups(void **u)
{
	(void)u;
	expect_text_error("[platform]\nllc_ways = 11\n"
			  "[tenant a]\ncpus = 0\nways = 6\ngroup = pair\n"
			  "[tenant b]\ncpus = 1\nways = 5\ngroup = pair\n",
			  "g.ini:9: [tenant b] ways: 5, but group pair has 6 (tenant a, line 5): "
			  "a group shares one mask");
	/* a PS member makes the whole group PS: 6 + DDIO 2 + ... */
	expect_text_error("[platform]\nllc_ways = 11\nddio_ways = 6\n"
			  "[tenant a]\ncpus = 0\nways = 6\ngroup = pair\n"
			  "[tenant b]\ncpus = 1\nways = 6\ngroup = pair\npriority = PS\n",
			  "g.ini:12: [tenant b] priority: PS tenant cannot be isolated from DDIO: "
			  "PS and vswitch ways 6 + DDIO ways 6 > LLC ways 11");
	expect_error("vswitch = yes", "vswitch = yes\ngroup = g",
		     "t.ini:12: [tenant ovs] group: the virtual switch cannot share a group");
	expect_error("networking = yes", "group = a b", "group: bad value 'a b': a group name");
}

static void test_config_rejects_empty_and_long_input(void **u)
{
	struct config *c = cfg_new();
	char err[256] = "", text[600];

	(void)u;
	assert_int_equal(config_parse_string("[platform]\n", "e.ini", c, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "e.ini: no [tenant NAME] section"));
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';
	assert_int_equal(config_parse_string(text, "l.ini", c, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "l.ini:1: line longer than"));
	free(c);
}

static void test_config_file_errors_name_the_file(void **u)
{
	struct config *c = cfg_new();
	char path[] = "/tmp/iocad-cfg-XXXXXX", err[256] = "";
	int fd;

	(void)u;
	assert_int_equal(config_parse_file("/nonexistent/x.ini", c, err, sizeof(err)), -2);
	assert_non_null(strstr(err, "/nonexistent/x.ini: No such file"));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, good, strlen(good)) == (ssize_t)strlen(good));
	assert_int_equal(write(fd, "bogus = 1\n", 10), 10);
	close(fd);
	assert_int_equal(config_parse_file(path, c, err, sizeof(err)), -22);
	assert_non_null(strstr(err, ":23: [tenant batch] bogus: unknown key"));
	assert_non_null(strstr(err, path));
	unlink(path);
	free(c);
}

static void test_config_resolve_checks_platform(void **u)
{
	struct config *c = cfg_new(), *d = cfg_new();
	struct platform_info pi = {.ncpus = 16};
	char err[256] = "";

	(void)u;
	pi.socket[0] =
		(struct platform_socket_info){.present = true, .llc_ways = 11, .ddio_mask = 0x600};
	assert_int_equal(config_parse_string(good, "g.ini", c, err, sizeof(err)), 0);
	memcpy(d, c, sizeof(*c));
	assert_int_equal(config_resolve(d, &pi, err, sizeof(err)), 0);
	assert_int_equal(d->ddio_ways, 2); /* from the platform's mask */

	pi.ncpus = 8;
	memcpy(d, c, sizeof(*c));
	assert_int_equal(config_resolve(d, &pi, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "g.ini:21: [tenant batch] cpus: CPU 8 does not exist"));

	pi.ncpus = 16;
	pi.socket[0].llc_ways = 20;
	assert_int_equal(config_resolve(d, &pi, err, sizeof(err)), -22);
	assert_non_null(strstr(
		err, "g.ini:3: llc_ways: 11, but the platform's LLC has 20 ways (socket 0)"));

	/* "detect": the way checks run against the platform's count */
	assert_int_equal(config_parse_string("[platform]\nllc_ways = detect\n[tenant a]\ncpus=0\n"
					     "ways = 7\npriority = PS\n",
					     "d.ini", c, err, sizeof(err)),
			 0);
	assert_int_equal(c->llc_ways, 0);
	pi.socket[0].llc_ways = 8;
	assert_int_equal(config_resolve(c, &pi, err, sizeof(err)), -22);
	assert_non_null(strstr(err, "d.ini:6: [tenant a] priority: PS tenant cannot be isolated"));
	assert_int_equal(c->llc_ways, 0); /* unchanged on error */
	pi.socket[0].llc_ways = 11;
	assert_int_equal(config_resolve(c, &pi, err, sizeof(err)), 0);
	assert_int_equal(c->llc_ways, 11);
	free(c);
	free(d);
}

/* [socket N]: a socket's own settings; bad ones name file:line and the key. */
static void test_config_socket_sections(void **u)
{
	struct config *c = cfg_new();
	char err[256] = "";

	(void)u;
	assert_int_equal(config_parse_string("[platform]\nddio_ways_max = 5\n[socket 1]\n"
					     "llc_ways = 20\nddio = observe\n[tenant a]\ncpus = 0\n"
					     "ways = 1\n",
					     "s.ini", c, err, sizeof(err)),
			 0);
	assert_int_equal(c->sock[1].line, 3);
	assert_int_equal(c->sock[1].llc_ways, 20);
	assert_true(c->sock[1].ddio_observe);
	assert_int_equal(c->sock[1].keys, CONFIG_SOCK_LLC | CONFIG_SOCK_DDIO_MODE);
	assert_false(c->socket_set);
	assert_int_equal(config_parse_string("[socket 9]\n", "s.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "s.ini:1: [socket 9]: bad socket id"));
	assert_int_equal(
		config_parse_string("[socket 1]\nways = 3\n", "s.ini", c, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "s.ini:2: [socket 1] ways: unknown key"));
	assert_int_equal(
		config_parse_string("[socket 1]\n[socket 1]\n", "s.ini", c, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "s.ini:2: [socket 1] given twice (first at line 1)"));
	assert_int_equal(config_parse_string("[platform]\nsocket = 1\n[tenant a]\ncpus = 0\n"
					     "ways = 1\n",
					     "s.ini", c, err, sizeof(err)),
			 0);
	assert_true(c->socket_set);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_parses_good_file_with_defaults),
		cmocka_unit_test(test_config_rejects_unknown_key),
		cmocka_unit_test(test_config_rejects_bad_cpu_lists),
		cmocka_unit_test(test_config_rejects_overlapping_cpus),
		cmocka_unit_test(test_config_rejects_too_many_initial_ways),
		cmocka_unit_test(test_config_rejects_unisolatable_ps_tenant),
		cmocka_unit_test(test_config_rejects_aggregation_without_vswitch),
		cmocka_unit_test(test_config_rejects_vswitch_errors),
		cmocka_unit_test(test_config_rejects_bad_values),
		cmocka_unit_test(test_config_rejects_structure_errors),
		cmocka_unit_test(test_config_groups_share_ways),
		cmocka_unit_test(test_config_rejects_bad_groups),
		cmocka_unit_test(test_config_rejects_empty_and_long_input),
		cmocka_unit_test(test_config_file_errors_name_the_file),
		cmocka_unit_test(test_config_resolve_checks_platform),
		cmocka_unit_test(test_config_socket_sections),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
