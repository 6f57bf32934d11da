// SPDX-License-Identifier: GPL-2.0
/*
 * Every point kind, differentially: the JIT variant must return what the
 * natively compiled handler (annotations as identities) returns, on many
 * random inputs that hit and miss the specialized values; guard failures
 * must be counted exactly. Configurations without a guard show that the
 * constant really is compiled in.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "points_fixed.h"
#include "testutil.h"

#define ROUNDS 2000

/* Native builds of tests/handlers/points.c. */
long pt_enum(long a, long b);
long pt_range(long a, int b);
unsigned int pt_generic(unsigned int x, unsigned int n);
int pt_assume(int x, int y);
long pt_loaded(const long *p, long a);
long pt_after_store(long *p, long a);
long pt_custom(long x);
long pt_two_sites(long a, long b);
long pt_count(long a);
long pt_service(long a);
long pt_helper(long *out, long v, long k);

static struct spec_runtime *rt;

static int setup(void **state)
{
	(void)state;
	rt = tu_open("points");
	return rt ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	spec_runtime__close(rt);
	return 0;
}

static uint64_t failures(const char *label)
{
	uint64_t n = 0;

	assert_int_equal(spec_runtime__guard_failures(rt, label, &n), 0);
	return n;
}

static void *handler(const char *name)
{
	void *h = spec_runtime__handler(rt, name);

	assert_non_null(h);
	return h;
}

static void test_points_enum_matches_native_and_counts_misses(void **state)
{
	static const long vals[] = {2, 4, 8, 16};
	long (*f)(long, long) = handler("pt_enum");
	uint64_t seed = 1;
	size_t i, k;
	char cfg[32];

	(void)state;
	for (k = 0; k < 4; k++) {
		uint64_t misses = 0;

		snprintf(cfg, sizeof(cfg), "eb=%ld", vals[k]);
		assert_int_equal(tu_specialize(rt, cfg), 0);
		spec_runtime__reset_counters(rt);
		for (i = 0; i < ROUNDS; i++) {
			long a = (long)(tu_rand(&seed) % 2001) - 1000;
			long b = tu_rand(&seed) & 1 ? vals[k] : (long)(tu_rand(&seed) % 40);

			misses += b != vals[k];
			assert_int_equal(f(a, b), pt_enum(a, b));
		}
		assert_int_equal(failures("eb"), misses);
	}
}

static void test_points_range_matches_native_and_counts_misses(void **state)
{
	static const long vals[] = {-50, 0, 7, 100};
	long (*f)(long, int) = handler("pt_range");
	uint64_t seed = 2;
	size_t i, k;
	char cfg[32];

	(void)state;
	for (k = 0; k < 4; k++) {
		uint64_t misses = 0;

		snprintf(cfg, sizeof(cfg), "rb=%ld", vals[k]);
		assert_int_equal(tu_specialize(rt, cfg), 0);
		spec_runtime__reset_counters(rt);
		for (i = 0; i < ROUNDS; i++) {
			long a = (long)(tu_rand(&seed) % 1000);
			/* The point's value is b + 1. */
			int b = tu_rand(&seed) & 1 ? (int)vals[k] - 1
						   : (int)(tu_rand(&seed) % 200) - 80;

			misses += b + 1 != vals[k];
			assert_int_equal(f(a, b), pt_range(a, b));
		}
		assert_int_equal(failures("rb"), misses);
	}
}

static void test_points_range_enabled_assumes_bounds(void **state)
{
	long (*f)(long, int) = handler("pt_range");
	uint64_t seed = 9, misses = 0;
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "rb+"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < ROUNDS; i++) {
		long a = (long)(tu_rand(&seed) % 1000);
		int b = (int)(tu_rand(&seed) % 300) - 150;

		misses += b + 1 < -50 || b + 1 > 100;
		assert_int_equal(f(a, b), pt_range(a, b));
	}
	assert_true(misses > 0);
	assert_int_equal(failures("rb"), misses);
}

static void test_points_generic_matches_native_on_unsigned(void **state)
{
	static const unsigned int vals[] = {0, 1, 33, 64};
	unsigned int (*f)(unsigned int, unsigned int) = handler("pt_generic");
	uint64_t seed = 3;
	size_t i, k;
	char cfg[32];

	(void)state;
	for (k = 0; k < 4; k++) {
		uint64_t misses = 0;

		snprintf(cfg, sizeof(cfg), "gn=%u", vals[k]);
		assert_int_equal(tu_specialize(rt, cfg), 0);
		spec_runtime__reset_counters(rt);
		for (i = 0; i < ROUNDS; i++) {
			unsigned int x = (unsigned int)tu_rand(&seed);
			unsigned int n =
				tu_rand(&seed) & 1 ? vals[k] : (unsigned int)(tu_rand(&seed) % 70);

			misses += n != vals[k];
			assert_int_equal(f(x, n), pt_generic(x, n));
		}
		assert_int_equal(failures("gn"), misses);
	}
	/* A value no unsigned int converts to can never pass its guard. */
	assert_int_equal(tu_specialize(rt, "gn=-1"), 0);
	spec_runtime__reset_counters(rt);
	assert_int_equal(f(5, 0xffffffffu >> 28), pt_generic(5, 0xffffffffu >> 28));
	assert_int_equal(failures("gn"), 1);
}

static void test_points_assume_violation_is_correct_and_counted(void **state)
{
	int (*f)(int, int) = handler("pt_assume");
	uint64_t seed = 4, misses = 0;
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "small+"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < ROUNDS; i++) {
		int x = (int)(tu_rand(&seed) % 1000);
		int y = (int)(tu_rand(&seed) % 60) - 20;

		misses += !(y < 16);
		assert_int_equal(f(x, y), pt_assume(x, y));
	}
	assert_true(misses > 0);
	assert_int_equal(failures("small"), misses);
}

static void test_points_loaded_value_guarded_in_place(void **state)
{
	long (*f)(const long *, long) = handler("pt_loaded");
	uint64_t seed = 5, misses = 0;
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "ln=5"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < ROUNDS; i++) {
		long p = tu_rand(&seed) & 1 ? 5 : (long)(tu_rand(&seed) % 9);
		long a = (long)(tu_rand(&seed) % 100);

		misses += p != 5;
		assert_int_equal(f(&p, a), pt_loaded(&p, a));
	}
	assert_int_equal(failures("ln"), misses);
}

static void test_points_after_store_needs_guard_off(void **state)
{
	long (*f)(long *, long) = handler("pt_after_store");
	long p[2] = {3, 0};

	(void)state;
	tu_capture();
	assert_int_equal(tu_specialize(rt, "sn=3"), -EINVAL);
	assert_non_null(strstr(tu_last_msg(), "guard of 'sn' cannot be placed"));
	assert_non_null(strstr(tu_last_msg(), "points.c:"));
	assert_int_equal(tu_specialize(rt, "sn=3!noguard"), 0);
	assert_int_equal(f(p, 7), 21);
	assert_int_equal(p[1], 7);
	/* Without a guard the constant is used even when wrong: proof that
	 * the variant is specialized (the service's responsibility).
	 */
	p[0] = 4;
	assert_int_equal(f(p, 7), 21);
}

static void test_points_noguard_compiles_the_constant_in(void **state)
{
	long (*f)(long, long) = handler("pt_enum");

	(void)state;
	assert_int_equal(tu_specialize(rt, "eb=4!noguard"), 0);
	assert_int_equal(f(3, 4), pt_enum(3, 4));
	assert_int_equal(f(3, 8), pt_enum(3, 4));
	assert_int_equal(tu_specialize(rt, "eb=4"), 0);
	assert_int_equal(f(3, 8), pt_enum(3, 8));
}

struct cleanup_log {
	int calls;
	int64_t last;
	char label[16];
};

static void on_cleanup(void *ctx, const char *label, int64_t observed)
{
	struct cleanup_log *log = ctx;

	log->calls++;
	log->last = observed;
	snprintf(log->label, sizeof(log->label), "%s", label);
}

static void test_points_cleanup_runs_before_fallback(void **state)
{
	long (*f)(long, long) = handler("pt_enum");
	struct cleanup_log log = {0};

	(void)state;
	assert_int_equal(spec_runtime__set_cleanup(rt, "eb", on_cleanup, &log), 0);
	assert_int_equal(tu_specialize(rt, "eb=8"), 0);
	assert_int_equal(f(2, 8), pt_enum(2, 8));
	assert_int_equal(log.calls, 0);
	assert_int_equal(f(2, 16), pt_enum(2, 16));
	assert_int_equal(f(2, 3), pt_enum(2, 3));
	assert_int_equal(log.calls, 2);
	assert_int_equal(log.last, 3);
	assert_string_equal(log.label, "eb");
	assert_int_equal(spec_runtime__set_cleanup(rt, "eb", NULL, NULL), 0);
	assert_int_equal(spec_runtime__set_cleanup(rt, "nope", on_cleanup, &log), -ENOENT);
}

static void test_points_two_sites_share_one_label(void **state)
{
	long (*f)(long, long) = handler("pt_two_sites");
	uint64_t seed = 6, misses = 0;
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "two=4"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < ROUNDS; i++) {
		long a = tu_rand(&seed) & 1 ? 4 : (long)(tu_rand(&seed) % 7);
		long b = tu_rand(&seed) & 1 ? 4 : (long)(tu_rand(&seed) % 7);

		/* Guards run in order; the first that fails falls back. */
		misses += a != 4 || b != 4;
		assert_int_equal(f(a, b), pt_two_sites(a, b));
	}
	assert_int_equal(failures("two"), misses);
}

static void test_points_sampling_reports_top_values(void **state)
{
	unsigned int (*f)(unsigned int, unsigned int) = handler("pt_generic");
	const struct spec_point_info *pi;
	struct spec_space *sp;
	uint64_t seed = 7;
	size_t i, tens = 0;

	(void)state;
	assert_int_equal(tu_specialize(rt, "gn~1"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < 1000; i++) {
		unsigned int n = i % 10 < 7 ? 10 : i % 10 < 9 ? 20 : (unsigned int)(i % 50);

		unsigned int x = (unsigned int)tu_rand(&seed);

		tens += n == 10;
		assert_int_equal(f(x, n), pt_generic(x, n));
	}
	sp = spec_runtime__space(rt);
	assert_non_null(sp);
	pi = spec_space__find(sp, "gn");
	assert_non_null(pi);
	assert_int_equal(pi->kind, SPEC_POINT_GENERIC);
	assert_true(pi->samples >= 1000);
	assert_true(pi->nr_observed >= 2);
	assert_int_equal(pi->observed[0].value, 10);
	assert_true(pi->observed[0].count >= tens);
	assert_int_equal(pi->observed[1].value, 20);
	spec_space__free(sp);

	/* Every 64th call only. */
	assert_int_equal(tu_specialize(rt, "gn~64"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < 6400; i++)
		f(1, 3);
	sp = spec_runtime__space(rt);
	pi = spec_space__find(sp, "gn");
	assert_true(pi->samples >= 99 && pi->samples <= 101);
	assert_int_equal(pi->observed[0].value, 3);
	spec_space__free(sp);
}

struct gen_ctx {
	int calls;
	size_t nr_hot;
	int64_t first_hot;
	int lie; /* answer 5 -> 998 to show the fast path is taken */
	int fail;
};

static int square_gen(void *ctx, const char *label, const struct spec_observed *hot, size_t nr_hot,
		      struct spec_case *cases, size_t max)
{
	struct gen_ctx *g = ctx;
	size_t i;

	assert_string_equal(label, "cs");
	g->calls++;
	g->nr_hot = nr_hot;
	g->first_hot = nr_hot ? hot[0].value : -1;
	if (g->fail)
		return -EIO;
	for (i = 0; i < nr_hot && i < max; i++) {
		cases[i].in = hot[i].value;
		cases[i].out = hot[i].value * hot[i].value + 1;
		if (g->lie && hot[i].value == 5)
			cases[i].out = 998;
	}
	return (int)i;
}

static void test_points_custom_fast_path_from_hot_inputs(void **state)
{
	long (*f)(long) = handler("pt_custom");
	struct gen_ctx g = {0};
	uint64_t seed = 8;
	size_t i;

	(void)state;
	tu_capture();
	assert_int_equal(tu_specialize(rt, "cs+"), -EINVAL);
	assert_non_null(strstr(tu_last_msg(), "no generator"));
	assert_int_equal(spec_runtime__add_custom(rt, "cs", square_gen, &g), 0);
	assert_int_equal(spec_runtime__add_custom(rt, "eb", square_gen, &g), -EINVAL);

	/* Observe first, then specialize on what was hot. */
	assert_int_equal(tu_specialize(rt, "cs~1"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < 500; i++) {
		long x = i % 4 ? 5 : (long)(tu_rand(&seed) % 100);

		assert_int_equal(f(x), pt_custom(x));
	}
	assert_int_equal(tu_specialize(rt, "cs+"), 0);
	assert_int_equal(g.calls, 1);
	assert_true(g.nr_hot >= 1);
	assert_int_equal(g.first_hot, 5);
	for (i = 0; i < ROUNDS; i++) {
		long x = (long)(tu_rand(&seed) % 200) - 50;

		assert_int_equal(f(x), pt_custom(x));
	}
	/* A generator that lies is believed: the case is compiled in. */
	g.lie = 1;
	assert_int_equal(tu_specialize(rt, "cs+!noguard"), 0);
	assert_int_equal(f(5), 999);
	assert_int_equal(f(6), pt_custom(6));
	/* A failing generator fails the compile; the variant stays. */
	g.fail = 1;
	assert_int_equal(tu_specialize(rt, "cs+~2"), -EIO);
	assert_non_null(strstr(tu_last_msg(), "generator of custom point 'cs' failed"));
	assert_int_equal(f(5), 999);
}

static void test_points_state_is_shared_by_all_variants(void **state)
{
	long (*f)(long) = handler("pt_count");
	long base;

	(void)state;
	base = f(0);
	assert_int_equal(f(1), base + 1);
	assert_int_equal(tu_specialize(rt, "ca=1"), 0);
	assert_int_equal(f(1), base + 2);
	assert_int_equal(f(2), base + 4); /* guard fails: generic, same state */
	assert_int_equal(tu_specialize(rt, ""), 0);
	assert_int_equal(f(1), base + 5);
}

static void test_points_handlers_reach_the_fixed_code(void **state)
{
	long (*f)(long) = handler("pt_service");

	(void)state;
	svc_total = 0;
	assert_int_equal(f(5), 50);
	assert_int_equal(tu_specialize(rt, "sk=5"), 0);
	assert_int_equal(f(5), 50);
	assert_int_equal(f(6), 60);
	assert_int_equal(svc_total, 16);
	assert_int_equal(pt_service(1), 10);
	assert_int_equal(svc_total, 17);
}

static void test_points_helper_guard_reruns_only_the_helper(void **state)
{
	long (*f)(long *, long, long) = handler("pt_helper");
	uint64_t seed = 10, misses = 0;
	long out_jit = 0, out_native = 0;
	size_t i;

	(void)state;
	assert_int_equal(tu_specialize(rt, "hk=5"), 0);
	spec_runtime__reset_counters(rt);
	for (i = 0; i < ROUNDS; i++) {
		long v = (long)(tu_rand(&seed) % 100);
		long k = tu_rand(&seed) & 1 ? 5 : (long)(tu_rand(&seed) % 8);

		misses += k != 5;
		assert_int_equal(f(&out_jit, v, k), pt_helper(&out_native, v, k));
		/* The caller's side effect happened exactly once. */
		assert_int_equal(out_jit, out_native);
	}
	assert_int_equal(failures("hk"), misses);
}

static void test_points_space_lists_every_point(void **state)
{
	static const struct {
		const char *label;
		enum spec_point_kind kind;
		const char *function;
		size_t sites;
	} want[] = {
		{"eb", SPEC_POINT_ENUM, "pt_enum", 1},
		{"rb", SPEC_POINT_RANGE, "pt_range", 1},
		{"gn", SPEC_POINT_GENERIC, "pt_generic", 1},
		{"small", SPEC_POINT_ASSUME, "pt_assume", 1},
		{"ln", SPEC_POINT_GENERIC, "pt_loaded", 1},
		{"sn", SPEC_POINT_GENERIC, "pt_after_store", 1},
		{"cs", SPEC_POINT_CUSTOM, "pt_custom", 1},
		{"two", SPEC_POINT_GENERIC, "pt_two_sites", 2},
		{"ca", SPEC_POINT_GENERIC, "pt_count", 1},
		{"sk", SPEC_POINT_RANGE, "pt_service", 1},
		{"hk", SPEC_POINT_ENUM, "scale_by", 1},
	};
	struct spec_space *sp = spec_runtime__space(rt);
	const struct spec_point_info *pi;
	size_t i;

	(void)state;
	assert_non_null(sp);
	assert_int_equal(spec_space__size(sp), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < spec_space__size(sp); i++) {
		pi = spec_space__point(sp, i);
		assert_string_equal(pi->label, want[i].label);
		assert_int_equal(pi->kind, want[i].kind);
		assert_string_equal(pi->function, want[i].function);
		assert_int_equal(pi->nr_sites, want[i].sites);
		assert_non_null(strstr(pi->file, "points.c"));
		assert_true(pi->line > 0);
	}
	pi = spec_space__find(sp, "eb");
	assert_int_equal(pi->nr_values, 4);
	assert_int_equal(pi->values[0], 2);
	assert_int_equal(pi->values[3], 16);
	pi = spec_space__find(sp, "rb");
	assert_int_equal(pi->lo, -50);
	assert_int_equal(pi->hi, 100);
	assert_null(spec_space__find(sp, "nope"));
	assert_int_equal(errno, ENOENT);
	assert_null(spec_space__point(sp, 99));
	assert_int_equal(errno, ERANGE);
	spec_space__free(sp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_points_space_lists_every_point),
		cmocka_unit_test(test_points_enum_matches_native_and_counts_misses),
		cmocka_unit_test(test_points_range_matches_native_and_counts_misses),
		cmocka_unit_test(test_points_range_enabled_assumes_bounds),
		cmocka_unit_test(test_points_generic_matches_native_on_unsigned),
		cmocka_unit_test(test_points_assume_violation_is_correct_and_counted),
		cmocka_unit_test(test_points_loaded_value_guarded_in_place),
		cmocka_unit_test(test_points_after_store_needs_guard_off),
		cmocka_unit_test(test_points_noguard_compiles_the_constant_in),
		cmocka_unit_test(test_points_cleanup_runs_before_fallback),
		cmocka_unit_test(test_points_two_sites_share_one_label),
		cmocka_unit_test(test_points_sampling_reports_top_values),
		cmocka_unit_test(test_points_custom_fast_path_from_hot_inputs),
		cmocka_unit_test(test_points_state_is_shared_by_all_variants),
		cmocka_unit_test(test_points_handlers_reach_the_fixed_code),
		cmocka_unit_test(test_points_helper_guard_reruns_only_the_helper),
	};

	return cmocka_run_group_tests_name("points", tests, setup, teardown);
}
