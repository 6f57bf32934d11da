// SPDX-License-Identifier: GPL-2.0
/*
 * inclusive_ways (A4): none, a mask or a count of the lowest ways, in
 * [platform] and [socket N]; the default by way count; bad values and
 * ranges beyond the LLC name file:line, the key, the value and the fix.
 */
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "config/config_socket.h"

/* [platform] with @llc (a count or "detect") and @incl (NULL: no key), one PS tenant. */
static int parse(const char *llc, const char *incl, struct config *c, char *err, size_t len)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "[platform]\nllc_ways = %s\n%s%s%s[tenant db]\ncpus = 0-1\nways = 3\n"
		 "priority = PS\n",
		 llc, incl ? "inclusive_ways = " : "", incl ? incl : "", incl ? "\n" : "");
	return config_parse_string(text, "t.ini", c, err, len);
}

static uint32_t mask_of(const char *llc, const char *incl)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";
	uint32_t m;

	assert_non_null(c);
	assert_int_equal(parse(llc, incl, c, err, sizeof(err)), 0);
	m = c->inclusive_mask;
	free(c);
	return m;
}

static void expect_error(const char *llc, const char *incl, const char *want)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	assert_non_null(c);
	assert_int_equal(parse(llc, incl, c, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("got '%s', want '%s'", err, want);
	free(c);
}

static void test_config_inclusive_values(void **u)
{
	(void)u;
	assert_int_equal(mask_of("11", "none"), 0);
	assert_int_equal(mask_of("11", "0x00c"), 0x00c);
	assert_int_equal(mask_of("11", "0x600"), 0x600); /* DDIO's default ways too: allowed */
	assert_int_equal(mask_of("11", "3"), 0x007);
	assert_int_equal(mask_of("20", "2"), 0x003);
}

/* A4's two lowest ways on Skylake-SP's 11 ways; unknown elsewhere: none. */
static void test_config_inclusive_default_by_way_count(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct platform_info pi = {.ncpus = 4};
	char err[256] = "";

	(void)u;
	assert_non_null(c);
	assert_int_equal(mask_of("11", NULL), 0x003);
	assert_int_equal(mask_of("12", NULL), 0);
	assert_int_equal(mask_of("20", NULL), 0);
	/* detect: resolved against the socket's LLC */
	pi.socket[0] =
		(struct platform_socket_info){.present = true, .llc_ways = 11, .ddio_mask = 0x600};
	assert_int_equal(parse("detect", NULL, c, err, sizeof(err)), 0);
	assert_int_equal(c->inclusive_mask, 0);
	assert_int_equal(config_resolve(c, &pi, err, sizeof(err)), 0);
	assert_int_equal(c->inclusive_mask, 0x003);
	pi.socket[0].llc_ways = 15;
	assert_int_equal(parse("detect", NULL, c, err, sizeof(err)), 0);
	assert_int_equal(config_resolve(c, &pi, err, sizeof(err)), 0);
	assert_int_equal(c->inclusive_mask, 0);
	free(c);
}

static void test_config_inclusive_rejects_bad_ranges(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct platform_info pi = {.ncpus = 4};
	char err[256] = "";

	(void)u;
	assert_non_null(c);
	expect_error("11", "0x5",
		     "t.ini:3: [platform] inclusive_ways: bad value '0x5': not one contiguous "
		     "range of ways: the inclusive ways are one range, e.g. 0x003");
	expect_error("11", "0x0", "inclusive_ways: bad value '0x0': an empty mask: write none");
	expect_error("11", "0", "bad value '0': expected none, a mask like 0x003 or a number");
	expect_error("11", "two", "bad value 'two': expected none, a mask like 0x003");
	expect_error("11", "0x1800",
		     "t.ini:3: inclusive_ways: 0x1800 is beyond the LLC's 11 ways (0x7ff): give a "
		     "mask within them, a number of ways or none");
	expect_error("11", "11", "t.ini:3: inclusive_ways: 11 ways, but the LLC has 11");
	/* against a detected LLC: the error names the socket */
	pi.socket[0] =
		(struct platform_socket_info){.present = true, .llc_ways = 8, .ddio_mask = 0xc0};
	assert_int_equal(parse("detect", "0x300", c, err, sizeof(err)), 0);
	assert_int_equal(config_resolve(c, &pi, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.ini:3: inclusive_ways: 0x300 is beyond the LLC's 8 ways "
				    "(0xff): give a mask within them, a number of ways or none "
				    "(socket 0)"));
	assert_int_equal(c->llc_ways, 0); /* unchanged on error */
	free(c);
}

/* [socket N] inclusive_ways over [platform]'s; a changed value is a changed config. */
static void test_config_inclusive_per_socket(void **u)
{
	struct config *c = malloc(sizeof(*c)), *s0 = malloc(sizeof(*s0)), *s1 = malloc(sizeof(*s1));
	struct platform_info pi = {.ncpus = 4, .cpu_socket = {0, 0, 1, 1}};
	char err[256] = "";
	static const char text[] = "[platform]\ninclusive_ways = none\n[socket 1]\n"
				   "inclusive_ways = 0x00c\n"
				   "[tenant a]\ncpus = 0\nways = 2\npriority = PS\n"
				   "[tenant b]\ncpus = 2\nways = 2\npriority = PS\n";

	(void)u;
	assert_true(c && s0 && s1);
	pi.socket[0] =
		(struct platform_socket_info){.present = true, .llc_ways = 11, .ddio_mask = 0x600};
	pi.socket[1] = pi.socket[0];
	assert_int_equal(config_parse_string(text, "s.ini", c, err, sizeof(err)), 0);
	assert_true(c->sock[1].keys & CONFIG_SOCK_INCLUSIVE);
	assert_int_equal(c->sock[1].inclusive.line, 4);
	assert_int_equal(config_place(c, &pi, err, sizeof(err)), 0);
	assert_int_equal(config_for_socket(c, &pi, 0, s0, err, sizeof(err)), 0);
	assert_int_equal(config_for_socket(c, &pi, 1, s1, err, sizeof(err)), 0);
	assert_int_equal(s0->inclusive_mask, 0);
	assert_int_equal(s1->inclusive_mask, 0x00c);
	assert_int_equal(config_same(s0, s0), 1);
	assert_int_equal(config_same(s0, s1), 0);
	/* a bad one names its [socket N] line */
	assert_int_equal(config_parse_string("[socket 1]\ninclusive_ways = 0x6\n"
					     "inclusive_ways = 2\n[tenant a]\ncpus = 0\nways = 1\n",
					     "s.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "s.ini:3: inclusive_ways: given twice in this section"));
	assert_int_equal(config_parse_string("[socket 1]\ninclusive_ways = 0x9\n[tenant a]\n"
					     "cpus = 0\nways = 1\n",
					     "s.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "s.ini:2: [socket 1] inclusive_ways: bad value '0x9': not "
				    "one contiguous range"));
	free(c);
	free(s0);
	free(s1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_inclusive_values),
		cmocka_unit_test(test_config_inclusive_default_by_way_count),
		cmocka_unit_test(test_config_inclusive_rejects_bad_ranges),
		cmocka_unit_test(test_config_inclusive_per_socket),
	};

	return cmocka_run_group_tests_name("config_inclusive", tests, NULL, NULL);
}
