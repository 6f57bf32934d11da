// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive policy on the real JIT, driven by step() with a fake clock and
 * a fake metric that scores whichever configuration is installed: the
 * choice, metric modes, medians, failing candidates, run()/stop().
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

typedef long (*scale_fn)(long, int);

static void test_policy_picks_best_of_known_metric(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1);
	struct spec_policy_exhaustive *p;
	scale_fn scale = (scale_fn)spec_runtime__handler(f->rt, "policy_scale");
	struct spec_config *best = NULL;
	double score;
	int pk;

	fake_scores(f, 0, 10, 30, 50, 20);
	p = fake_policy(f, &o);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 4);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);

	assert_int_equal(f->ev[SPEC_POLICY_MEASURED], 4);
	for (pk = 1; pk <= 4; pk++)
		assert_true(f->measured[pk - 1] == f->score[pk]);
	assert_string_equal(f->chosen, "pk=3");
	assert_int_equal(fake_current_pk(f), 3);
	assert_int_equal(spec_policy_exhaustive__best(p, &best, &score), 0);
	assert_true(score == 50);
	assert_int_equal(spec_config__get_value(best, "pk", &(int64_t){0}), 1);
	/* The chosen variant computes right, its guard sends other k to generic. */
	assert_int_equal(scale(7, 3), 21);
	assert_int_equal(scale(7, 2), 14);
	spec_config__free(best);
	spec_policy_exhaustive__free(p);
}

static void test_policy_minimize_picks_lowest(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .minimize = true);
	struct spec_policy_exhaustive *p;

	fake_scores(f, 0, 10, 30, 5, 20);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	assert_string_equal(f->chosen, "pk=3");
	spec_policy_exhaustive__free(p);
}

static void test_policy_counter_metric_is_rate_per_second(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .metric = fake_counter_metric, .metric_mode = SPEC_METRIC_COUNTER,
		     .dwell_ns = 250000000, .warmup_ns = 50000000);
	struct spec_policy_exhaustive *p;

	fake_scores(f, 0, 400, 100, 200, 800);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	assert_string_equal(f->chosen, "pk=4");
	assert_true(fabs(f->measured[0] - 400) < 1e-6);
	assert_true(fabs(f->measured[3] - 800) < 1e-6);
	spec_policy_exhaustive__free(p);
}

/* Choose, then scale the metric by @factor and watch @windows windows. */
static double sequence_metric(void *ctx)
{
	static const double seq[5][3] = {
		{0}, {10, 50, 30}, {40, 40, 40}, {100, 0, 0}, {20, 20, 20}};
	static int last_pk, reads;
	struct fake *f = ctx;
	int pk = fake_current_pk(f);

	if (pk != last_pk) {
		last_pk = pk;
		reads = 0;
	}
	reads++;
	return reads % 2 ? -1 : seq[pk][(reads / 2 - 1) % 3];
}

static void test_policy_windows_score_is_the_median(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .metric = sequence_metric, .windows = 3, .dwell_ns = 100000000);
	struct spec_policy_exhaustive *p;
	uint64_t t0 = f->now;

	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	/* medians 30, 40, 0, 20: one window of 100 does not make pk=3 best */
	assert_true(f->measured[0] == 30);
	assert_true(f->measured[1] == 40);
	assert_true(f->measured[2] == 0);
	assert_true(f->measured[3] == 20);
	assert_string_equal(f->chosen, "pk=2");
	assert_true(f->now - t0 >= 4 * 3 * 100000000ull);
	spec_policy_exhaustive__free(p);
}

static int failing_gen(void *ctx, const char *label, const struct spec_observed *hot, size_t nr_hot,
		       struct spec_case *cases, size_t max)
{
	(void)ctx;
	(void)label;
	(void)hot;
	(void)nr_hot;
	(void)cases;
	(void)max;
	return -EIO;
}

static void test_policy_skips_a_config_that_does_not_compile(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	struct spec_config *plain = spec_config__new(), *custom = spec_config__new();
	const struct spec_config *extra[2] = {plain, custom};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .extra = extra, .nr_extra = 2);
	struct spec_policy_exhaustive *p;

	assert_int_equal(spec_runtime__add_custom(f->rt, "pc", failing_gen, NULL), 0);
	assert_int_equal(spec_config__enable(custom, "pc"), 0);
	fake_scores(f, 0, 10, 30, 100, 20);
	p = fake_policy(f, &o);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 8);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	assert_int_equal(f->ev[SPEC_POLICY_MEASURED], 8);
	assert_int_equal(f->failed, 4);
	assert_string_equal(f->chosen, "pk=3");
	assert_int_equal(fake_current_pk(f), 3);
	spec_policy_exhaustive__free(p);
	spec_config__free(plain);
	spec_config__free(custom);
}

static void test_policy_all_failing_restores_previous(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	struct spec_config *custom = spec_config__new();
	const struct spec_config *extra[1] = {custom};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .extra = extra, .nr_extra = 1);
	struct spec_policy_exhaustive *p;
	uint64_t next;
	int ret = 0, i;

	assert_int_equal(spec_runtime__add_custom(f->rt, "pc", failing_gen, NULL), 0);
	assert_int_equal(spec_config__enable(custom, "pc"), 0);
	assert_int_equal(tu_specialize(f->rt, "pk=2"), 0);
	p = fake_policy(f, &o);
	for (i = 0; i < 10 && !ret; i++)
		ret = spec_policy_exhaustive__step(p, &next);
	assert_true(ret < 0);
	assert_int_equal(f->ev[SPEC_POLICY_NONE_OK], 1);
	assert_int_equal(f->failed, 4);
	assert_int_equal(fake_current_pk(f), 2);
	assert_int_equal(spec_policy_exhaustive__best(p, NULL, NULL), -ENOENT);
	/* No period: nothing is due any more. */
	assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
	assert_true(next == UINT64_MAX);
	spec_policy_exhaustive__free(p);
	spec_config__free(custom);
}

static void *run_thread(void *arg)
{
	return (void *)(long)spec_policy_exhaustive__run(arg);
}

static void test_policy_run_chooses_and_stops(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .dwell_ns = 2000000, .clock = NULL, .metric = fake_window_metric,
		     .metric_ctx = f, .report = fake_report, .report_ctx = f);
	struct spec_policy_exhaustive *p;
	struct timespec ts = {0, 5000000};
	pthread_t th;
	void *ret;
	int waited;

	fake_scores(f, 0, 10, 30, 100, 20);
	p = spec_policy_exhaustive__new(f->rt, &o);
	assert_non_null(p);
	assert_int_equal(pthread_create(&th, NULL, run_thread, p), 0);
	for (waited = 0; waited < 2000 && !fake_events(f, SPEC_POLICY_CHOSEN); waited++)
		nanosleep(&ts, NULL);
	spec_policy_exhaustive__stop(p);
	assert_int_equal(pthread_join(th, &ret), 0);
	assert_int_equal((long)ret, 0);
	assert_true(fake_events(f, SPEC_POLICY_CHOSEN) >= 1);
	assert_int_equal(fake_current_pk(f), 3);
	spec_policy_exhaustive__free(p);
}

/* Each candidate compiles while the one before it is measured: the same
 * choice, every candidate compiled once, all but the first prepared.
 */
static void test_policy_prepare_ahead_compiles_each_once(void **state)
{
	struct fake *f = *state;
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .labels = only_pk, .nr_labels = 1,
		     .prepare_ahead = true);
	struct spec_runtime_stats before, after;
	struct spec_policy_exhaustive *p;

	fake_scores(f, 0, 10, 30, 50, 20);
	assert_int_equal(spec_runtime__load(f->rt), 0);
	assert_int_equal(spec_runtime__stats(f->rt, &before, sizeof(before)), 0);
	p = fake_policy(f, &o);
	fake_run_until(p, f, SPEC_POLICY_CHOSEN, 1);
	assert_int_equal(spec_runtime__wait(f->rt), 0);
	assert_int_equal(spec_runtime__stats(f->rt, &after, sizeof(after)), 0);
	assert_string_equal(f->chosen, "pk=3");
	assert_int_equal(fake_current_pk(f), 3);
	assert_int_equal(after.prepared - before.prepared, 3);
	assert_int_equal(after.compiles - before.compiles, 4);
	/* Three switches and the choice, each a swap. */
	assert_true(after.cache_hits - before.cache_hits >= 4);
	spec_policy_exhaustive__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		FAKE_TEST(test_policy_picks_best_of_known_metric),
		FAKE_TEST(test_policy_minimize_picks_lowest),
		FAKE_TEST(test_policy_counter_metric_is_rate_per_second),
		FAKE_TEST(test_policy_windows_score_is_the_median),
		FAKE_TEST(test_policy_skips_a_config_that_does_not_compile),
		FAKE_TEST(test_policy_all_failing_restores_previous),
		FAKE_TEST(test_policy_run_chooses_and_stops),
		FAKE_TEST(test_policy_prepare_ahead_compiles_each_once),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
