// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Format attributes as the kernel writes them: single bits, ranges, split
 * ranges (a value's low bits into the lowest range), config1, and the
 * texts and values that must be refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "msgs.h"
#include "pmu_format.h"
#include "sysfs_tree.h"

static void test_pmu_format_parses_the_kernels_forms(void **state)
{
	static const struct {
		const char *text;
		unsigned int word;
		uint64_t bits;
	} ok[] = {
		{"config:0-7\n", 0, 0xff},
		{"config:23", 0, 1ull << 23},
		{"config:0-7,21\n", 0, 0xff | 1ull << 21},
		{"config:8-15,32-57", 0, 0xff00ull | (((1ull << 26) - 1) << 32)},
		{"config:8-15,32-63", 0, 0xff00ull | 0xffffffff00000000ull},
		{"config1:41-50", 1, ((1ull << 10) - 1) << 41},
		{"config2:0-31", 2, 0xffffffffull},
	};
	static const char *const bad[] = {
		"",	     "config",	    "config:",	       "config:8-",
		"config:-3", "config:64",   "config:9-8",      "config3:0",
		"conf:0-7",  "config:0-7,", "config:0-7 junk",
	};
	struct ioca_pmu_format fmt;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(ioca_pmu_format_parse(ok[i].text, &fmt), 0);
		assert_int_equal(fmt.word, ok[i].word);
		assert_int_equal(fmt.bits, ok[i].bits);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(ioca_pmu_format_parse(bad[i], &fmt), -EINVAL);
}

static void test_pmu_format_encodes_split_fields_lowest_bits_first(void **state)
{
	char root[] = "/tmp/libioca-fmt-XXXXXX";
	struct t_log tl = {0};
	struct ioca_log log = t_logger(&tl);
	struct ioca_event ev = {.config = 1, .config1 = 1};
	const struct ioca_pmu_field f[] = {{"event", 0x1ff}, {"umask", 0xCC43FD04}};
	const struct ioca_pmu_field g[] = {{"umask", 0x04}, {"filter_opc0", 0x248}};
	char cmd[64];

	(void)state;
	assert_non_null(mkdtemp(root));
	t_tree_put(root, "pmu/format/event", "config:0-7,21\n");
	t_tree_put(root, "pmu/format/umask", "config:8-15,32-57\n");
	t_tree_put(root, "pmu/format/filter_opc0", "config1:41-50\n");
	t_tree_put(root, "pmu/format/bad", "config:0-7 x\n");
	t_tree_put(root, "pmu/format/far", "config2:0-7\n");
	assert_int_equal(ioca_pmu_encode(root, "pmu", f, 2, &ev, &log), 0);
	assert_int_equal(ev.config, 0xffull | 1ull << 21 | 0x04ull << 8 | 0xCC43FDull << 32);
	assert_int_equal(ev.config1, 0);
	assert_int_equal(ioca_pmu_encode(root, "pmu", g, 2, &ev, &log), 0);
	assert_int_equal(ev.config, 0x0400);
	assert_int_equal(ev.config1, 0x248ull << 41);
	assert_int_equal(ioca_pmu_encode_terms(root, "pmu", "event=0xff,umask=0x21\n", &ev, &log),
			 0);
	assert_int_equal(ev.config, 0x21ff);
	/* refusals leave @ev as it was and name the PMU and field */
	ev.config = 7;
	assert_int_equal(ioca_pmu_encode(root, "pmu", (struct ioca_pmu_field[]){{"event", 0x400}},
					 1, &ev, &log),
			 -ERANGE);
	assert_non_null(strstr(tl.last, "PMU pmu field \"event\""));
	assert_int_equal(ioca_pmu_encode(root, "pmu", (struct ioca_pmu_field[]){{"ch_mask", 1}}, 1,
					 &ev, &log),
			 -ENOENT);
	assert_non_null(strstr(tl.last, "PMU pmu has no format field \"ch_mask\""));
	assert_int_equal(
		ioca_pmu_encode(root, "pmu", (struct ioca_pmu_field[]){{"bad", 1}}, 1, &ev, &log),
		-EINVAL);
	assert_non_null(strstr(tl.last, "\"config:0-7 x\""));
	assert_int_equal(
		ioca_pmu_encode(root, "pmu", (struct ioca_pmu_field[]){{"far", 1}}, 1, &ev, &log),
		-EOPNOTSUPP);
	assert_int_equal(ioca_pmu_encode_terms(root, "pmu", "event=,umask=1", &ev, &log), -EINVAL);
	assert_int_equal(ioca_pmu_encode_terms(root, "pmu", "", &ev, &log), -EINVAL);
	assert_int_equal(ev.config, 7);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pmu_format_parses_the_kernels_forms),
		cmocka_unit_test(test_pmu_format_encodes_split_fields_lowest_bits_first),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
