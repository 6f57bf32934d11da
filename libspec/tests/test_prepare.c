// SPDX-License-Identifier: GPL-2.0
/*
 * spec_runtime__prepare(): a variant compiled into the cache without being
 * installed, so that specializing it later is a swap; validated like
 * specialize(), never tiered, and computing what the generic code does.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "points_fixed.h"
#include "testutil.h"

static struct spec_runtime *open_rt(const char *first)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .first_pipeline = first);

	return tu_open_loaded("points", &opts);
}

static int prepare(struct spec_runtime *rt, const char *text,
		   const struct spec_specialize_opts *opts)
{
	struct spec_config *cfg = spec_config__parse(text);
	int ret;

	assert_non_null(cfg);
	ret = spec_runtime__prepare(rt, cfg, opts);
	spec_config__free(cfg);
	if (!ret)
		assert_int_equal(spec_runtime__wait(rt), 0);
	return ret;
}

static void stats(struct spec_runtime *rt, struct spec_runtime_stats *st)
{
	assert_int_equal(spec_runtime__stats(rt, st, sizeof(*st)), 0);
}

static void check_enum(struct spec_runtime *rt)
{
	long (*f)(long, long) = (long (*)(long, long))spec_runtime__handler(rt, "pt_enum");

	assert_non_null(f);
	for (long a = -3; a <= 3; a++) {
		assert_int_equal(f(a, 8), points_enum_ref(a, 8));
		assert_int_equal(f(a, 2), points_enum_ref(a, 2));
	}
}

static void test_prepare_compiles_without_installing(void **state)
{
	struct spec_runtime *rt = open_rt(NULL);
	struct spec_runtime_stats a, b, c;
	char cur[64];

	(void)state;
	check_enum(rt);
	stats(rt, &a);
	assert_int_equal(prepare(rt, "eb=8", NULL), 0);
	stats(rt, &b);
	assert_int_equal(b.prepared, a.prepared + 1);
	assert_int_equal(b.compiles, a.compiles + 1);
	assert_int_equal(b.swaps, a.swaps);
	assert_int_equal(spec_runtime__current(rt, cur, sizeof(cur)), 0);
	check_enum(rt);

	/* Specializing it now is a swap from the cache. */
	assert_int_equal(tu_specialize(rt, "eb=8"), 0);
	stats(rt, &c);
	assert_int_equal(c.compiles, b.compiles);
	assert_int_equal(c.cache_hits, b.cache_hits + 1);
	assert_true(spec_runtime__current(rt, cur, sizeof(cur)) > 0);
	assert_string_equal(cur, "eb=8");
	check_enum(rt);

	/* Already cached: nothing to do. */
	assert_int_equal(prepare(rt, "eb=8", NULL), 0);
	stats(rt, &a);
	assert_int_equal(a.compiles, c.compiles);
	assert_int_equal(a.prepared, c.prepared);
	spec_runtime__close(rt);
}

static void test_prepare_validates_like_specialize(void **state)
{
	struct spec_runtime *rt = open_rt(NULL);
	struct spec_runtime_stats a, b;

	(void)state;
	stats(rt, &a);
	assert_int_equal(prepare(rt, "nope=1", NULL), -ENOENT);
	assert_int_equal(prepare(rt, "eb=7", NULL), -EINVAL);
	assert_int_equal(spec_runtime__prepare(rt, NULL, NULL), -EINVAL);
	assert_int_equal(spec_runtime__wait(rt), 0);
	stats(rt, &b);
	assert_int_equal(b.compiles, a.compiles);
	spec_runtime__close(rt);
}

/* With tiers, only the final pipeline's variant is prepared: the one
 * specialize() looks up first, so installing it needs no first tier.
 */
static void test_prepare_skips_tiers(void **state)
{
	struct spec_runtime *rt = open_rt("default<O1>");
	LIBSPEC_OPTS(spec_specialize_opts, o2, .pipeline = "default<O2>");
	struct spec_runtime_stats a, b;

	(void)state;
	assert_int_equal(prepare(rt, "eb=4", NULL), 0);
	stats(rt, &a);
	assert_int_equal(a.tier_first, 0);
	assert_int_equal(tu_specialize(rt, "eb=4"), 0);
	stats(rt, &b);
	assert_int_equal(b.compiles, a.compiles);
	assert_int_equal(b.tier_first, 0);
	check_enum(rt);

	/* A pipeline named in the opts is the one prepared and looked up. */
	assert_int_equal(prepare(rt, "eb=8", &o2), 0);
	stats(rt, &a);
	{
		struct spec_config *cfg = spec_config__parse("eb=8");

		assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o2), 0);
		spec_config__free(cfg);
	}
	stats(rt, &b);
	assert_int_equal(b.compiles, a.compiles);
	check_enum(rt);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prepare_compiles_without_installing),
		cmocka_unit_test(test_prepare_validates_like_specialize),
		cmocka_unit_test(test_prepare_skips_tiers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
