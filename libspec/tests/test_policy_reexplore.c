// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive policy, after a choice: when it searches again (a metric
 * shift beyond the threshold, confirmed over windows; the period; a
 * request) and when it does not (below the threshold).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "test_policy_fake.h"

static int searches_after_shift(struct fake *f, double factor, int windows)
{
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .threshold = 0.25);
	struct spec_policy_exhaustive *p;
	int searches;

	fake_scores(f, 0, 10, 30, 100, 20);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	fake_run_until(p, f, SPEC_POLICY_WATCH, 2);
	f->factor = factor;
	fake_steps(p, f, windows);
	searches = f->ev[SPEC_POLICY_EXPLORE];
	spec_policy_exhaustive__free(p);
	return searches;
}

static void test_policy_reexplores_on_shift_beyond_threshold(void **state)
{
	struct fake *f = *state;

	assert_int_equal(searches_after_shift(f, 0.70, 3), 2);
	assert_int_equal(f->ev[SPEC_POLICY_SHIFT], 1);
	assert_true(fabs(f->shift_score - 70) < 1e-9);
}

static void test_policy_reexplores_on_rise_beyond_threshold(void **state)
{
	struct fake *f = *state;

	assert_int_equal(searches_after_shift(f, 1.30, 3), 2);
	assert_int_equal(f->ev[SPEC_POLICY_SHIFT], 1);
}

static void test_policy_stays_below_threshold(void **state)
{
	struct fake *f = *state;

	assert_int_equal(searches_after_shift(f, 0.80, 20), 1);
	assert_int_equal(f->ev[SPEC_POLICY_SHIFT], 0);
	assert_true(f->ev[SPEC_POLICY_WATCH] >= 20);
	assert_string_equal(f->chosen, "pk=3");
}

static void test_policy_confirm_windows_ignores_one_noisy_window(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .threshold = 0.25, .confirm_windows = 2);
	struct spec_policy_exhaustive *p;

	fake_scores(f, 0, 10, 30, 100, 20);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	f->factor = 0.5; /* one window beyond, then back */
	fake_step(p, f);
	f->factor = 1.0;
	fake_step(p, f);
	f->factor = 0.5;
	fake_step(p, f);
	assert_int_equal(f->ev[SPEC_POLICY_EXPLORE], 1);
	assert_int_equal(f->ev[SPEC_POLICY_WATCH], 3);
	fake_step(p, f); /* the second in a row */
	assert_int_equal(f->ev[SPEC_POLICY_SHIFT], 1);
	assert_int_equal(f->ev[SPEC_POLICY_EXPLORE], 2);
	spec_policy_exhaustive__free(p);
}

/* Window k of every candidate reads seq[pk][k] (WINDOW mode: 2 reads each). */
static void test_policy_reexplores_after_period(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .period_ns = 2000000000ull);
	struct spec_policy_exhaustive *p;
	uint64_t chosen_at;

	fake_scores(f, 0, 10, 30, 100, 20);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	chosen_at = f->now;
	fake_run_until(p, f, SPEC_POLICY_PERIOD, 1);
	assert_true(f->now >= chosen_at + 2000000000ull);
	assert_true(f->now < chosen_at + 2000000000ull + 100000000ull);
	/* The new search finds the new best. */
	fake_scores(f, 0, 10, 300, 100, 20);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 2);
	assert_string_equal(f->chosen, "pk=2");
	assert_int_equal(f->ev[SPEC_POLICY_EXPLORE], 2);
	spec_policy_exhaustive__free(p);
}

static void test_policy_explore_forces_a_new_search(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1);
	struct spec_policy_exhaustive *p;

	fake_scores(f, 0, 10, 30, 100, 20);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	fake_steps(p, f, 5);
	assert_int_equal(f->ev[SPEC_POLICY_EXPLORE], 1);
	spec_policy_exhaustive__explore(p);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 2);
	assert_int_equal(f->ev[SPEC_POLICY_EXPLORE], 2);
	assert_int_equal(f->ev[SPEC_POLICY_MEASURED], 8);
	spec_policy_exhaustive__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FAKE_TEST(test_policy_reexplores_on_shift_beyond_threshold),
		FAKE_TEST(test_policy_reexplores_on_rise_beyond_threshold),
		FAKE_TEST(test_policy_stays_below_threshold),
		FAKE_TEST(test_policy_confirm_windows_ignores_one_noisy_window),
		FAKE_TEST(test_policy_reexplores_after_period),
		FAKE_TEST(test_policy_explore_forces_a_new_search),
	};

	return cmocka_run_group_tests_name("policy_reexplore", tests, NULL, NULL);
}
