// SPDX-License-Identifier: GPL-2.0
/*
 * iocactl's argument parsers: what an operator types reaches the kernel as
 * meant, and every malformed value is refused with a reason. The parsers
 * live in the iocactl binary, not in libiocad.a, so the source is built in.
 */
/* Before cmocka.h, whose fail() macro would rewrite the file's own fail(). */
#include "../ctl/ctl_args.c"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

static void test_ctl_args_interval_units(void **state)
{
	static const struct {
		const char *in;
		uint32_t us;
	} ok[] = {{"10ms", 10000}, {"500us", 500}, {"2s", 2000000}, {"1.5ms", 1500}, {"0", 0}};
	char why[128];
	uint32_t us;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		us = 12345;
		assert_int_equal(ctl_args_interval(ok[i].in, &us, why, sizeof(why)), 0);
		assert_int_equal(us, ok[i].us);
	}
}

static void test_ctl_args_interval_rejects(void **state)
{
	static const struct {
		const char *in;
		const char *why;
	} bad[] = {
		{"", "expected a duration"},
		{"ms", "expected a duration"},
		{"-1s", "expected a duration"},
		{"10h", "unknown unit"},
		{"10 ms", "unknown unit"},
		{"5000s", "duration out of range"},
		{"99999999999999999999s", "duration out of range"},
		{"1500", "a bare number has no unit"},
		{"1500ns", "whole microseconds"},
	};
	char why[128];
	uint32_t us = 7;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		assert_int_equal(ctl_args_interval(bad[i].in, &us, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, bad[i].why));
		assert_int_equal(us, 7);
	}
}

static void test_config_value_u64_bounds_and_bases(void **state)
{
	char why[128];
	uint64_t v;

	(void)state;
	assert_int_equal(config_value_u64("0x600", 0xffffffff, &v, why, sizeof(why)), 0);
	assert_int_equal(v, 0x600);
	assert_int_equal(config_value_u64("3", 32, &v, why, sizeof(why)), 0);
	assert_int_equal(v, 3);
	assert_int_equal(config_value_u64("33", 32, &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "out of range"));
	assert_int_equal(config_value_u64("3x", 32, &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "trailing"));
	assert_int_equal(config_value_u64("3:4", 32, &v, why, sizeof(why)), -EINVAL);
	assert_int_equal(config_value_u64("", 32, &v, why, sizeof(why)), -EINVAL);
}

static void test_ctl_args_event_names_and_raw(void **state)
{
	struct ioca_event e;
	char why[256];

	(void)state;
	assert_int_equal(ctl_args_event("llc-misses", &e, why, sizeof(why)), 0);
	assert_int_equal(e.kind, IOCA_EVENT_KIND_LLC_MISSES);
	assert_false(e.has_type);
	assert_int_equal(ctl_args_event("instructions", &e, why, sizeof(why)), 0);
	assert_int_equal(e.kind, IOCA_EVENT_KIND_INSTRUCTIONS);

	assert_int_equal(ctl_args_event("raw:4:0x1c0", &e, why, sizeof(why)), 0);
	assert_int_equal(e.kind, IOCA_EVENT_KIND_RAW);
	assert_true(e.has_type);
	assert_int_equal(e.type, 4);
	assert_int_equal(e.config, 0x1c0);
	assert_int_equal(e.config1, 0);

	/* Skylake-SP CHA TOR_INSERTS.IO_MISS with the ItoM opcode filter. */
	assert_int_equal(ctl_args_uncore("23:0x2435:0x49033", &e, why, sizeof(why)), 0);
	assert_int_equal(e.kind, IOCA_EVENT_KIND_RAW);
	assert_int_equal(e.type, 23);
	assert_int_equal(e.config, 0x2435);
	assert_int_equal(e.config1, 0x49033);
}

static void test_ctl_args_event_rejects(void **state)
{
	static const struct {
		const char *in;
		const char *why;
	} bad[] = {
		{"llc-miss", "unknown event"},		 {"raw:", "expected a number"},
		{"raw:4", "expected TYPE:CONFIG"},	 {"raw:4:", "expected a number"},
		{"raw:4:1:2:3", "expected TYPE:CONFIG"}, {"raw:4294967296:1", "out of range"},
		{"raw:x:1", "expected a number"},
	};
	struct ioca_event e;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		assert_int_equal(ctl_args_event(bad[i].in, &e, why, sizeof(why)), -EINVAL);
		assert_non_null(strstr(why, bad[i].why));
	}
	assert_int_equal(ctl_args_uncore("23", &e, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "expected TYPE:CONFIG"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctl_args_interval_units),
		cmocka_unit_test(test_ctl_args_interval_rejects),
		cmocka_unit_test(test_config_value_u64_bounds_and_bases),
		cmocka_unit_test(test_ctl_args_event_names_and_raw),
		cmocka_unit_test(test_ctl_args_event_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
