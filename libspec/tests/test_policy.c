// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive policy on the real JIT, driven by step() with a fake clock and
 * a fake metric that scores whichever configuration is installed: choice,
 * re-exploration on a metric shift (and not below the threshold), on the
 * period and on request, failing candidates, run()/stop().
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "policy_exhaustive.h"
#include "testutil.h"

/* ---- the fake world: clock, metric by installed pk, event log ---------- */

struct fake {
	struct spec_runtime *rt;
	uint64_t now;	 /* the clock, ns */
	double score[5]; /* metric by installed pk (0: none) */
	double factor;	 /* workload shift applied to every score */
	double count;	 /* counter metric */
	uint64_t last;	 /* clock at the last counter reading */
	int ev[SPEC_POLICY_NONE_OK + 1];
	double measured[4]; /* score of candidate i (pk = i + 1 when only pk) */
	int failed;
	double shift_score;
	char chosen[64];
	pthread_mutex_t lock; /* run() reports from its own thread */
};

static uint64_t fake_clock(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static int fake_current_pk(struct fake *f)
{
	struct spec_config *cfg;
	int64_t v = 0;
	char text[128];

	assert_true(spec_runtime__current(f->rt, text, sizeof(text)) >= 0);
	cfg = spec_config__parse(text);
	assert_non_null(cfg);
	if (spec_config__get_value(cfg, "pk", &v) != 1)
		v = 0;
	spec_config__free(cfg);
	return (int)v;
}

static double fake_window_metric(void *ctx)
{
	struct fake *f = ctx;

	return f->score[fake_current_pk(f)] * f->factor;
}

/* Integrates the installed candidate's rate over fake time. */
static double fake_counter_metric(void *ctx)
{
	struct fake *f = ctx;

	f->count += f->score[fake_current_pk(f)] * f->factor * (double)(f->now - f->last) / 1e9;
	f->last = f->now;
	return f->count;
}

static void fake_report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	struct fake *f = ctx;

	pthread_mutex_lock(&f->lock);
	f->ev[ev]++;
	if (ev == SPEC_POLICY_MEASURED && r->err)
		f->failed++;
	else if (ev == SPEC_POLICY_MEASURED && r->index < 4)
		f->measured[r->index] = r->score;
	if (ev == SPEC_POLICY_CHOSEN)
		snprintf(f->chosen, sizeof(f->chosen), "%s", r->text);
	if (ev == SPEC_POLICY_SHIFT)
		f->shift_score = r->score;
	pthread_mutex_unlock(&f->lock);
}

static int fake_events(struct fake *f, enum spec_policy_event ev)
{
	int n;

	pthread_mutex_lock(&f->lock);
	n = f->ev[ev];
	pthread_mutex_unlock(&f->lock);
	return n;
}

static void fake_scores(struct fake *f, double none, double k1, double k2, double k3, double k4)
{
	f->score[0] = none;
	f->score[1] = k1;
	f->score[2] = k2;
	f->score[3] = k3;
	f->score[4] = k4;
}

/* A policy on @o with the fake clock, window metric and report filled in
 * where @o leaves them out.
 */
static struct spec_policy_exhaustive *fake_policy(struct fake *f,
						  struct spec_policy_exhaustive_opts *o)
{
	struct spec_policy_exhaustive *p;

	o->clock = fake_clock;
	o->clock_ctx = f;
	if (!o->metric)
		o->metric = fake_window_metric;
	o->metric_ctx = f;
	o->report = fake_report;
	o->report_ctx = f;
	p = spec_policy_exhaustive__new(f->rt, o);
	if (!p)
		fail_msg("policy: %s (%s)", strerror(errno), tu_last_msg());
	return p;
}

/* One step, then move the clock to when the next one is due. */
static void fake_step(struct spec_policy_exhaustive *p, struct fake *f)
{
	uint64_t next;

	assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
	assert_true(next != UINT64_MAX);
	if (next > f->now)
		f->now = next;
}

static void fake_steps(struct spec_policy_exhaustive *p, struct fake *f, int n)
{
	while (n-- > 0)
		fake_step(p, f);
}

static void fake_run_until(struct spec_policy_exhaustive *p, struct fake *f,
			   enum spec_policy_event ev, int count)
{
	int i;

	for (i = 0; i < 1000 && f->ev[ev] < count; i++)
		fake_step(p, f);
	if (f->ev[ev] < count)
		fail_msg("event %d seen %d times, expected %d", ev, f->ev[ev], count);
}

static int fake_setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->rt = tu_open("policy_points");
	if (!f->rt || spec_runtime__load(f->rt)) {
		spec_runtime__close(f->rt);
		free(f);
		return -1;
	}
	f->now = 1000000000ull;
	f->last = f->now;
	f->factor = 1.0;
	pthread_mutex_init(&f->lock, NULL);
	*state = f;
	return 0;
}

static int fake_teardown(void **state)
{
	struct fake *f = *state;

	spec_runtime__close(f->rt);
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

#define FAKE_TEST(fn) cmocka_unit_test_setup_teardown(fn, fake_setup, fake_teardown)

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		FAKE_TEST(test_policy_picks_best_of_known_metric),
		FAKE_TEST(test_policy_minimize_picks_lowest),
		FAKE_TEST(test_policy_counter_metric_is_rate_per_second),
		FAKE_TEST(test_policy_reexplores_on_shift_beyond_threshold),
		FAKE_TEST(test_policy_reexplores_on_rise_beyond_threshold),
		FAKE_TEST(test_policy_stays_below_threshold),
		FAKE_TEST(test_policy_confirm_windows_ignores_one_noisy_window),
		FAKE_TEST(test_policy_reexplores_after_period),
		FAKE_TEST(test_policy_explore_forces_a_new_search),
		FAKE_TEST(test_policy_skips_a_config_that_does_not_compile),
		FAKE_TEST(test_policy_all_failing_restores_previous),
		FAKE_TEST(test_policy_run_chooses_and_stops),
	};

	return cmocka_run_group_tests_name("policy", tests, NULL, NULL);
}
