/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake world of the exhaustive-policy tests (test_policy*.c): a clock
 * the test moves, a metric that scores whichever pk is installed, and an
 * event log. Header-only so each test binary stays one file.
 */
#ifndef TEST_POLICY_FAKE_H
#define TEST_POLICY_FAKE_H

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/policy_exhaustive.h"
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

static inline uint64_t fake_clock(void *ctx)
{
	return ((struct fake *)ctx)->now;
}

static inline int fake_current_pk(struct fake *f)
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

static inline double fake_window_metric(void *ctx)
{
	struct fake *f = ctx;

	return f->score[fake_current_pk(f)] * f->factor;
}

/* Integrates the installed candidate's rate over fake time. */
static inline double fake_counter_metric(void *ctx)
{
	struct fake *f = ctx;

	f->count += f->score[fake_current_pk(f)] * f->factor * (double)(f->now - f->last) / 1e9;
	f->last = f->now;
	return f->count;
}

static inline void fake_report(void *ctx, enum spec_policy_event ev,
			       const struct spec_policy_result *r)
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

static inline int fake_events(struct fake *f, enum spec_policy_event ev)
{
	int n;

	pthread_mutex_lock(&f->lock);
	n = f->ev[ev];
	pthread_mutex_unlock(&f->lock);
	return n;
}

static inline void fake_scores(struct fake *f, double none, double k1, double k2, double k3,
			       double k4)
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
static inline struct spec_policy_exhaustive *fake_policy(struct fake *f,
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
static inline void fake_step(struct spec_policy_exhaustive *p, struct fake *f)
{
	uint64_t next;

	assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
	assert_true(next != UINT64_MAX);
	if (next > f->now)
		f->now = next;
}

static inline void fake_steps(struct spec_policy_exhaustive *p, struct fake *f, int n)
{
	while (n-- > 0)
		fake_step(p, f);
}

static inline void fake_run_until(struct spec_policy_exhaustive *p, struct fake *f,
				  enum spec_policy_event ev, int count)
{
	int i;

	for (i = 0; i < 1000 && f->ev[ev] < count; i++)
		fake_step(p, f);
	if (f->ev[ev] < count)
		fail_msg("event %d seen %d times, expected %d", ev, f->ev[ev], count);
}

static inline int fake_setup(void **state)
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

static inline int fake_teardown(void **state)
{
	struct fake *f = *state;

	spec_runtime__close(f->rt);
	pthread_mutex_destroy(&f->lock);
	free(f);
	return 0;
}

#define FAKE_TEST(fn) cmocka_unit_test_setup_teardown(fn, fake_setup, fake_teardown)

#endif /* TEST_POLICY_FAKE_H */
