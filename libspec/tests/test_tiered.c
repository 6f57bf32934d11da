// SPDX-License-Identifier: GPL-2.0
/*
 * Tiered compiles: a cheap variant is installed first and the final one
 * replaces it, the cache then serves the final code without compiling, a
 * pipeline named in the opts is forced, and every tier computes what the
 * generic code does.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "points_fixed.h"
#include "testutil.h"

static struct spec_runtime *open_tiered_cg(const char *first, bool fast_codegen)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .first_pipeline = first,
		     .first_fast_codegen = fast_codegen);

	return tu_open_loaded("points", &opts);
}

static struct spec_runtime *open_tiered(const char *first)
{
	return open_tiered_cg(first, false);
}

static void check_enum(struct spec_runtime *rt, long b)
{
	long (*f)(long, long) = (long (*)(long, long))spec_runtime__handler(rt, "pt_enum");
	uint64_t seed = 7;

	assert_non_null(f);
	for (int i = 0; i < 200; i++) {
		long a = (long)(tu_rand(&seed) % 100000) - 50000;

		assert_int_equal(f(a, b), points_enum_ref(a, b));
	}
}

static void test_tiered_cheap_variant_first_then_final(void **state)
{
	struct spec_runtime *rt = open_tiered("default<O1>");
	struct spec_runtime_stats st;

	(void)state;
	check_enum(rt, 8); /* loads the generic variant */
	assert_int_equal(tu_specialize(rt, "eb=8!noguard"), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3); /* generic, O1, O3 */
	assert_int_equal(st.swaps, 3);	  /* generic, then the two tiers */
	assert_int_equal(st.tier_first, 1);
	assert_int_equal(st.tier_final, 1);
	assert_true(st.last_first_install_ns > 0);
	assert_true(st.last_first_install_ns < st.last_final_install_ns);
	check_enum(rt, 8);

	/* Seen before: the final code comes from the cache, no tier runs. */
	assert_int_equal(tu_specialize(rt, ""), 0);
	assert_int_equal(tu_specialize(rt, "eb=8!noguard"), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3);
	assert_int_equal(st.tier_first, 1);
	assert_int_equal(st.tier_final, 1);
	check_enum(rt, 8);
	spec_runtime__close(rt);
}

static void test_tiered_every_tier_equals_generic(void **state)
{
	static const char *const cfgs[] = {"eb=2", "eb=4!noguard", "eb=16", "eb=8"};
	static const long bs[] = {2, 4, 16, 8};
	struct spec_runtime *rt = open_tiered("default<O1>");
	LIBSPEC_OPTS(spec_specialize_opts, o1, .pipeline = "default<O1>");
	struct spec_runtime_stats st;

	(void)state;
	for (size_t i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		struct spec_config *cfg = spec_config__parse(cfgs[i]);

		assert_non_null(cfg);
		/* The cheap tier alone (forced), then the tiered job's result. */
		assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o1), 0);
		check_enum(rt, bs[i]);
		assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), 0);
		check_enum(rt, bs[i]);
		spec_config__free(cfg);
	}
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	/* The forced O1 variants were reused as the first tier. */
	assert_int_equal(st.tier_first, 4);
	assert_int_equal(st.tier_final, 4);
	assert_int_equal(st.compiles, 1 + 4 * 2);
	spec_runtime__close(rt);
}

static void test_tiered_forced_pipeline_is_honoured(void **state)
{
	struct spec_runtime *rt = open_tiered("default<O1>");
	LIBSPEC_OPTS(spec_specialize_opts, o2, .pipeline = "default<O2>");
	LIBSPEC_OPTS(spec_specialize_opts, bad, .pipeline = "no-such-pass");
	LIBSPEC_OPTS(spec_specialize_opts, cg0, .fast_codegen = true);
	struct spec_config *cfg = spec_config__parse("eb=4");
	struct spec_runtime_stats st;

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o2), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 2); /* generic, O2: no cheap tier */
	assert_int_equal(st.tier_first, 0);
	assert_int_equal(st.tier_final, 0);
	check_enum(rt, 4);
	/* Forced fast codegen: one compile, cached apart from normal codegen. */
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &cg0), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3);
	assert_int_equal(st.tier_first, 0);
	check_enum(rt, 4);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &cg0), 0);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o2), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3);
	/* The forced pipeline really is the one run: a bad one fails. */
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &bad), -EINVAL);
	assert_non_null(strstr(tu_last_msg(), "no-such-pass"));
	check_enum(rt, 4);
	spec_config__free(cfg);
	spec_runtime__close(rt);
}

/*
 * Fast codegen: the first tier is emitted as an object by LLVM's -O0 code
 * generator; it is cached apart from an O1 variant of normal codegen.
 */
static void test_tiered_fast_codegen_first_tier(void **state)
{
	struct spec_runtime *rt = open_tiered_cg("default<O1>", true);
	LIBSPEC_OPTS(spec_specialize_opts, o1, .pipeline = "default<O1>");
	struct spec_config *cfg = spec_config__parse("eb=16!noguard");
	struct spec_runtime_stats st;

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3);
	assert_int_equal(st.tier_first, 1);
	assert_int_equal(st.tier_final, 1);
	check_enum(rt, 16);
	/* Forced O1 is normal codegen: not the fast tier's cache entry. */
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o1), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 4);
	check_enum(rt, 16);
	spec_config__free(cfg);
	spec_runtime__close(rt);
}

/*
 * The fast tier's code alone equals the generic code: a final pipeline that
 * fails leaves the first tier installed.
 */
static void test_tiered_fast_codegen_alone_equals_generic(void **state)
{
	struct spec_runtime *rt = open_tiered_cg("default<O1>", true);
	static const long bs[] = {2, 4, 8, 16};
	struct spec_runtime_stats st;

	(void)state;
	assert_int_equal(spec_runtime__set_pipeline(rt, "no-such-pass"), 0);
	for (size_t i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
		char text[32];

		snprintf(text, sizeof(text), "eb=%ld%s", bs[i], i % 2 ? "!noguard" : "");
		assert_int_equal(tu_specialize(rt, text), -EINVAL);
		check_enum(rt, bs[i]);
		if (i % 2) {
			/* Unguarded: the specialized code ignores b, so this is the tier. */
			long (*f)(long, long) =
				(long (*)(long, long))spec_runtime__handler(rt, "pt_enum");

			assert_int_equal(f(5, 1), points_enum_ref(5, bs[i]));
		}
	}
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.tier_first, 4);
	assert_int_equal(st.tier_final, 0);
	spec_runtime__close(rt);
}

/* The same pipeline in both tiers still tiers when the codegen differs. */
static void test_tiered_same_pipeline_fast_codegen_tiers(void **state)
{
	struct spec_runtime *rt = open_tiered_cg("default<O3>", true);
	struct spec_runtime *plain = open_tiered("default<O3>");
	struct spec_runtime_stats st;

	(void)state;
	assert_int_equal(tu_specialize(rt, "eb=8"), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 3);
	assert_int_equal(st.tier_first, 1);
	check_enum(rt, 8);
	/* Same pipeline, same codegen: nothing cheaper to install first. */
	assert_int_equal(tu_specialize(plain, "eb=8"), 0);
	assert_int_equal(spec_runtime__stats(plain, &st, sizeof(st)), 0);
	assert_int_equal(st.compiles, 2);
	assert_int_equal(st.tier_first, 0);
	spec_runtime__close(plain);
	spec_runtime__close(rt);
}

/* A cheap tier that fails is reported; the final variant still lands. */
static void test_tiered_failing_first_tier_still_installs_final(void **state)
{
	struct spec_runtime *rt = open_tiered("no-such-pass");
	struct spec_runtime_stats st;

	(void)state;
	assert_int_equal(tu_specialize(rt, "eb=16"), 0);
	assert_non_null(strstr(tu_last_msg(), "no-such-pass"));
	assert_int_equal(spec_runtime__last_error(rt, NULL, 0), 0);
	assert_int_equal(spec_runtime__stats(rt, &st, sizeof(st)), 0);
	assert_int_equal(st.tier_first, 0);
	assert_int_equal(st.tier_final, 1);
	check_enum(rt, 16);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiered_cheap_variant_first_then_final),
		cmocka_unit_test(test_tiered_every_tier_equals_generic),
		cmocka_unit_test(test_tiered_forced_pipeline_is_honoured),
		cmocka_unit_test(test_tiered_failing_first_tier_still_installs_final),
		cmocka_unit_test(test_tiered_fast_codegen_first_tier),
		cmocka_unit_test(test_tiered_same_pipeline_fast_codegen_tiers),
		cmocka_unit_test(test_tiered_fast_codegen_alone_equals_generic),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
