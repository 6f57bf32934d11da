// SPDX-License-Identifier: GPL-2.0
/*
 * The one value syntax of the config, the scenarios and iocactl: what each
 * parser takes, what it refuses and the reason it gives, and that a refusal
 * leaves the caller's value alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "config/config_value.h"
#include "platform.h"

static void test_config_value_duration_takes_each_unit(void **state)
{
	static const struct {
		const char *in;
		uint64_t ns;
	} ok[] = {
		{"2s", 2000000000ull},
		{"1.5s", 1500000000ull},
		{"250ms", 250000000ull},
		{"500us", 500000ull},
		{"100ns", 100ull},
		{"0", 0},
		{"0s", 0},
	};
	char why[128];
	uint64_t ns;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ns = 12345;
		assert_int_equal(config_value_duration(ok[i].in, &ns, why, sizeof(why)), 0);
		assert_true(ns == ok[i].ns);
	}
}

static void test_config_value_duration_refuses_a_bare_number(void **state)
{
	static const struct {
		const char *in, *why;
	} bad[] = {
		{"60", "a bare number has no unit: write it with one, like 10ms, 500us or 2s"},
		{"1.5", "a bare number has no unit"},
		{"10h", "unknown unit"},
		{"10 s", "unknown unit"},
		{"s", "expected a duration"},
		{"-1s", "expected a duration"},
		{" 1s", "expected a duration"},
		{"", "expected a duration"},
		{"2e9s", "duration out of range"},
	};
	char why[128];
	uint64_t ns = 7;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_equal(config_value_duration(bad[i].in, &ns, why, sizeof(why)), -EINVAL);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': got '%s', want '%s'", bad[i].in, why, bad[i].why);
		assert_true(ns == 7);
	}
}

static void test_config_value_bool_in_any_case(void **state)
{
	char why[64];
	bool b = false;

	(void)state;
	assert_int_equal(config_value_bool("Yes", &b, why, sizeof(why)), 0);
	assert_true(b);
	assert_int_equal(config_value_bool("false", &b, why, sizeof(why)), 0);
	assert_false(b);
	assert_int_equal(config_value_bool("1", &b, why, sizeof(why)), 0);
	assert_true(b);
	assert_int_equal(config_value_bool("on", &b, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "expected yes or no");
	assert_true(b);
}

static void test_config_value_cpus_sorted_once_each(void **state)
{
	unsigned int cpus[PLATFORM_MAX_CPUS], n = 0;
	char why[64];

	(void)state;
	assert_int_equal(config_value_cpus("8,0-2", cpus, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(cpus[0], 0);
	assert_int_equal(cpus[3], 8);
	n = 99;
	assert_int_equal(config_value_cpus("0-2,2", cpus, &n, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "CPU 2 listed twice");
	assert_int_equal(n, 99);
}

static void test_config_value_sizes_and_counts_scale(void **state)
{
	char why[64];
	double v = 0;

	(void)state;
	assert_int_equal(config_value_size("2.25M", &v, why, sizeof(why)), 0);
	assert_true(v == 2.25 * 1024 * 1024);
	assert_int_equal(config_value_size("512KB", &v, why, sizeof(why)), 0);
	assert_true(v == 512 * 1024);
	assert_int_equal(config_value_count("2M", &v, why, sizeof(why)), 0);
	assert_true(v == 2e6);
	assert_int_equal(config_value_count("300Kpps", &v, why, sizeof(why)), 0);
	assert_true(v == 3e5);
	assert_int_equal(config_value_size("12Q", &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "expected a size"));
	assert_int_equal(config_value_count("-1", &v, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "expected a count"));
	assert_true(v == 3e5);
}

static void test_config_value_u64_bases_and_bounds(void **state)
{
	char why[64];
	uint64_t v = 0;

	(void)state;
	assert_int_equal(config_value_u64("0x600", UINT32_MAX, &v, why, sizeof(why)), 0);
	assert_true(v == 0x600);
	assert_int_equal(config_value_u64("0x100000000", UINT32_MAX, &v, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "number out of range");
	assert_int_equal(config_value_u64("-1", UINT64_MAX, &v, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "expected a number");
	assert_true(v == 0x600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_value_duration_takes_each_unit),
		cmocka_unit_test(test_config_value_duration_refuses_a_bare_number),
		cmocka_unit_test(test_config_value_bool_in_any_case),
		cmocka_unit_test(test_config_value_cpus_sorted_once_each),
		cmocka_unit_test(test_config_value_sizes_and_counts_scale),
		cmocka_unit_test(test_config_value_u64_bases_and_bounds),
	};

	return cmocka_run_group_tests_name("config_value", tests, NULL, NULL);
}
