// SPDX-License-Identifier: GPL-2.0
/* Configurations: canonical text, parsing, merging (no JIT involved). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static void test_config_format_is_sorted_and_canonical(void **state)
{
	struct spec_config *a = spec_config__new(), *b = spec_config__new();
	char ta[128], tb[128];

	(void)state;
	assert_int_equal(spec_config__set_value(a, "N", 256), 0);
	assert_int_equal(spec_config__set_value(a, "B", 16), 0);
	assert_int_equal(spec_config__set_guard(a, "N", false), 0);
	assert_int_equal(spec_config__set_sampling(a, "x", 64), 0);
	assert_int_equal(spec_config__enable(a, "c"), 0);
	/* Same settings, other order, plus a disabled entry (no effect). */
	spec_config__enable(b, "c");
	spec_config__set_sampling(b, "x", 64);
	spec_config__disable(b, "zz");
	spec_config__set_value(b, "B", 16);
	spec_config__set_value(b, "N", 256);
	spec_config__set_guard(b, "N", false);
	int len = spec_config__format(a, ta, sizeof(ta));

	assert_int_equal(len, (int)strlen(ta));
	spec_config__format(b, tb, sizeof(tb));
	assert_string_equal(ta, "B=16,N=256!noguard,c+,x~64");
	assert_string_equal(ta, tb);
	spec_config__free(a);
	spec_config__free(b);
}

static void test_config_format_reports_full_length_when_truncated(void **state)
{
	struct spec_config *c = spec_config__parse("alpha=1,beta=2");
	char small[8];

	(void)state;
	assert_non_null(c);
	assert_int_equal(spec_config__format(c, small, sizeof(small)), 14);
	assert_int_equal(small[sizeof(small) - 1], '\0');
	assert_int_equal(spec_config__format(c, NULL, 0), 14);
	spec_config__free(c);
}

static void test_config_parse_round_trips(void **state)
{
	static const char *const texts[] = {
		"", "B=16", "B=-3,N=0x10!noguard", "a+,b+!noguard~8", "g~1", " B = 4 ",
	};
	static const char *const canon[] = {
		"", "B=16", "B=-3,N=16!noguard", "a+,b+!noguard~8", "g~1", NULL,
	};
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);
	char buf[128], again[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct spec_config *c = spec_config__parse_opts(texts[i], &po), *d;

		if (!canon[i]) {
			/* Spaces inside an entry are not allowed. */
			assert_null(c);
			assert_int_equal(errno, EINVAL);
			continue;
		}
		assert_non_null(c);
		spec_config__format(c, buf, sizeof(buf));
		assert_string_equal(buf, canon[i]);
		d = spec_config__parse(buf);
		assert_non_null(d);
		spec_config__format(d, again, sizeof(again));
		assert_string_equal(buf, again);
		spec_config__free(c);
		spec_config__free(d);
	}
}

static void test_config_parse_rejects_bad_entries_with_message(void **state)
{
	static const char *const bad[] = {"=3", "B=", "B=x", "B~", "B=1,,C=2", "B!guard", "B=1~-"};
	size_t i;

	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);

	(void)state;
	tu_capture();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		errno = 0;
		assert_null(spec_config__parse_opts(bad[i], &po));
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(tu_last_msg(), "bad entry"));
	}
}

/* A configuration is a plain value: its setters say -EINVAL, parsing names the label. */
static void test_config_rejects_bad_labels(void **state)
{
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);
	struct spec_config *c = spec_config__new();

	(void)state;
	tu_capture();
	assert_int_equal(spec_config__set_value(c, "a,b", 1), -EINVAL);
	assert_int_equal(errno, EINVAL);
	assert_int_equal(spec_config__set_value(c, "", 1), -EINVAL);
	assert_int_equal(spec_config__set_value(c, NULL, 1), -EINVAL);
	assert_string_equal(tu_last_msg(), "");
	assert_null(spec_config__parse_opts("B=1,a\tb=2", &po));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(tu_last_msg(), "bad label 'a\tb'"));
	spec_config__free(c);
}

static void test_config_parse_rejects_bare_and_duplicate_labels(void **state)
{
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);

	(void)state;
	tu_capture();
	assert_null(spec_config__parse_opts("B=16,N", &po));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(tu_last_msg(), "bare label 'N'"));
	tu_capture();
	assert_null(spec_config__parse_opts("B=16,N=4,B=32", &po));
	assert_non_null(strstr(tu_last_msg(), "label 'B' appears twice"));
}

static void test_config_generator_param_round_trips(void **state)
{
	struct spec_config *c = spec_config__parse("lpm=4096/65544,x+/3~64");
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);
	char t[128];

	(void)state;
	assert_non_null(c);
	spec_config__format(c, t, sizeof(t));
	assert_string_equal(t, "lpm=4096/65544,x+/3~64");
	assert_int_equal(spec_config__set_param(c, "x", 0), 0);
	spec_config__format(c, t, sizeof(t));
	assert_string_equal(t, "lpm=4096/65544,x+~64");
	spec_config__free(c);
	tu_capture();
	assert_null(spec_config__parse_opts("lpm/3", &po));
	assert_non_null(strstr(tu_last_msg(), "bare label 'lpm/3'"));
}

static void test_config_merge_overrides_and_dup_copies(void **state)
{
	struct spec_config *a = spec_config__parse("B=4,N=8");
	struct spec_config *b = spec_config__parse("N=256!noguard,C+");
	struct spec_config *d;
	char buf[64];
	int64_t v = 0;

	(void)state;
	assert_int_equal(spec_config__merge(a, b), 0);
	d = spec_config__dup(a);
	spec_config__set_value(a, "B", 99);
	spec_config__format(d, buf, sizeof(buf));
	assert_string_equal(buf, "B=4,C+,N=256!noguard");
	assert_int_equal(spec_config__get_value(d, "N", &v), 1);
	assert_int_equal(v, 256);
	assert_int_equal(spec_config__get_value(d, "C", &v), 0);
	assert_int_equal(spec_config__get_value(d, "missing", &v), 0);
	spec_config__free(a);
	spec_config__free(b);
	spec_config__free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_format_is_sorted_and_canonical),
		cmocka_unit_test(test_config_format_reports_full_length_when_truncated),
		cmocka_unit_test(test_config_parse_round_trips),
		cmocka_unit_test(test_config_parse_rejects_bad_entries_with_message),
		cmocka_unit_test(test_config_rejects_bad_labels),
		cmocka_unit_test(test_config_merge_overrides_and_dup_copies),
		cmocka_unit_test(test_config_parse_rejects_bare_and_duplicate_labels),
		cmocka_unit_test(test_config_generator_param_round_trips),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
