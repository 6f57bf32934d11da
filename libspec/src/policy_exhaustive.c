// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "policy_candidates.h"
#include "policy_exhaustive.h"

#define DEFAULT_DWELL_NS 100000000ull
#define DEFAULT_MAX_RANGE 64
#define DEFAULT_MAX_CANDIDATES 1024

enum pstate {
	ST_EXPLORE,	 /* start a search at the first candidate */
	ST_SWITCH,	 /* install candidate cur (skipping those that fail) */
	ST_WARMUP,	 /* candidate installed; window opens at deadline */
	ST_MEASURE,	 /* window open; closes at deadline */
	ST_CHOOSE,	 /* every candidate done: install the best */
	ST_WATCH_WARMUP, /* best installed; first watch window opens at deadline */
	ST_WATCH,	 /* watch window open; closes at deadline */
	ST_IDLE,	 /* every candidate failed; search again after the period */
};

struct spec_policy_exhaustive {
	struct spec_runtime *rt;
	spec_metric_fn metric;
	void *metric_ctx;
	enum spec_metric_mode mode;
	bool minimize;
	uint64_t dwell, warmup, period;
	double threshold;
	uint32_t confirm;
	spec_clock_fn clock;
	void *clock_ctx;
	spec_policy_report_fn report;
	void *report_ctx;

	struct policy_cand *c;
	size_t nr;
	enum pstate state;
	size_t cur;	   /* candidate being measured */
	uint64_t deadline; /* end of the current phase */
	uint64_t t0;	   /* window start, and the metric reading then */
	double m0;
	long best;	    /* index of the chosen candidate, -1 for none */
	double best_score;  /* its score (kept when a new search overwrites it) */
	uint64_t chosen_at; /* start of the period (choice, or failed search) */
	uint32_t beyond;    /* consecutive watch windows beyond the threshold */
	char *prev;	    /* configuration installed when the search began */

	/* Recursive: the report callback may call __best(). */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	atomic_bool force;
};

static uint64_t mono_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(const struct spec_policy_exhaustive *p)
{
	return p->clock(p->clock_ctx);
}

static void emit(struct spec_policy_exhaustive *p, enum spec_policy_event ev, size_t i,
		 double score)
{
	struct spec_policy_result r;

	if (!p->report)
		return;
	if (i >= p->nr) {
		p->report(p->report_ctx, ev, NULL);
		return;
	}
	r.cfg = p->c[i].cfg;
	r.text = p->c[i].text;
	r.index = i;
	r.score = score;
	r.err = p->c[i].err;
	p->report(p->report_ctx, ev, &r);
}

static int copy_opts(struct spec_policy_exhaustive *p, const struct spec_policy_exhaustive_opts *o)
{
	p->metric = OPTS_GET(o, metric, NULL);
	p->metric_ctx = OPTS_GET(o, metric_ctx, NULL);
	p->mode = OPTS_GET(o, metric_mode, SPEC_METRIC_WINDOW);
	p->minimize = OPTS_GET(o, minimize, false);
	p->dwell = OPTS_GET(o, dwell_ns, 0);
	if (!p->dwell)
		p->dwell = DEFAULT_DWELL_NS;
	p->warmup = OPTS_GET(o, warmup_ns, 0);
	p->period = OPTS_GET(o, period_ns, 0);
	p->threshold = OPTS_GET(o, threshold, 0.0);
	p->confirm = OPTS_GET(o, confirm_windows, 0);
	if (!p->confirm)
		p->confirm = 1;
	p->clock = OPTS_GET(o, clock, NULL);
	if (!p->clock)
		p->clock = mono_ns;
	p->clock_ctx = OPTS_GET(o, clock_ctx, NULL);
	p->report = OPTS_GET(o, report, NULL);
	p->report_ctx = OPTS_GET(o, report_ctx, NULL);
	if (!p->metric) {
		pr_warn("policy: opts.metric is required\n");
		return -EINVAL;
	}
	if (p->mode != SPEC_METRIC_WINDOW && p->mode != SPEC_METRIC_COUNTER) {
		pr_warn("policy: opts.metric_mode %d is not a spec_metric_mode\n", (int)p->mode);
		return -EINVAL;
	}
	if (!(p->threshold >= 0.0) || isinf(p->threshold)) {
		pr_warn("policy: opts.threshold %g must be a finite fraction >= 0\n", p->threshold);
		return -EINVAL;
	}
	return 0;
}

static int build(struct spec_policy_exhaustive *p, const struct spec_policy_exhaustive_opts *o)
{
	struct policy_space_opts so = {
		.labels = OPTS_GET(o, labels, NULL),
		.nr_labels = OPTS_GET(o, nr_labels, 0),
		.noguard = OPTS_GET(o, noguard_labels, NULL),
		.nr_noguard = OPTS_GET(o, nr_noguard_labels, 0),
		.max_range_values = OPTS_GET(o, max_range_values, 0),
		.extra = OPTS_GET(o, extra, NULL),
		.nr_extra = OPTS_GET(o, nr_extra, 0),
		.include_generic = OPTS_GET(o, include_generic, false),
		.max_candidates = OPTS_GET(o, max_candidates, 0),
	};
	struct spec_space *space;
	char err[256] = "";
	int ret;

	if (!so.max_range_values)
		so.max_range_values = DEFAULT_MAX_RANGE;
	if (!so.max_candidates)
		so.max_candidates = DEFAULT_MAX_CANDIDATES;
	if ((so.nr_labels && !so.labels) || (so.nr_extra && !so.extra) ||
	    (so.nr_noguard && !so.noguard)) {
		pr_warn("policy: opts.%s is NULL with a non-zero count\n",
			so.nr_extra && !so.extra     ? "extra"
			: so.nr_labels && !so.labels ? "labels"
						     : "noguard_labels");
		return -EINVAL;
	}
	space = spec_runtime__space(p->rt);
	if (!space) {
		ret = -errno;
		pr_warn("policy: cannot read the specialization space: %s\n", strerror(-ret));
		return ret;
	}
	ret = policy_candidates_build(space, &so, &p->c, &p->nr, err, sizeof(err));
	spec_space__free(space);
	if (ret)
		pr_warn("policy: opts.%s\n", err[0] ? err : strerror(-ret));
	return ret;
}

struct spec_policy_exhaustive *
spec_policy_exhaustive__new(struct spec_runtime *rt, const struct spec_policy_exhaustive_opts *opts)
{
	struct spec_policy_exhaustive *p;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int ret;

	if (!rt || !OPTS_VALID(opts, spec_policy_exhaustive_opts)) {
		pr_warn("policy: %s\n", rt ? "bad opts" : "runtime is NULL");
		return libspec_err_ptr(-EINVAL);
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return libspec_err_ptr(-ENOMEM);
	p->rt = rt;
	p->best = -1;
	p->best_score = NAN;
	ret = copy_opts(p, opts);
	if (!ret)
		ret = build(p, opts);
	if (ret) {
		free(p);
		return libspec_err_ptr(ret);
	}
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&p->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	atomic_init(&p->force, false);
	p->state = ST_EXPLORE;
	return p;
}

size_t spec_policy_exhaustive__nr_candidates(const struct spec_policy_exhaustive *p)
{
	return p ? p->nr : 0;
}

/* Open a measurement window at @now. */
static void window_open(struct spec_policy_exhaustive *p, uint64_t now)
{
	p->m0 = p->metric(p->metric_ctx);
	p->t0 = now;
	p->deadline = now + p->dwell;
}

/* Close the window at @now: its score, or NaN. */
static double window_close(struct spec_policy_exhaustive *p, uint64_t now)
{
	double v = p->metric(p->metric_ctx), dt;

	if (p->mode == SPEC_METRIC_WINDOW)
		return v;
	dt = (double)(now - p->t0) / 1e9;
	return dt > 0 ? (v - p->m0) / dt : NAN;
}

static bool better(const struct spec_policy_exhaustive *p, double a, double b)
{
	return p->minimize ? a < b : a > b;
}

static bool shifted(const struct spec_policy_exhaustive *p, double now, double ref)
{
	if (p->threshold <= 0.0)
		return false;
	return !isfinite(now) || fabs(now - ref) > p->threshold * fabs(ref);
}

/* Install candidate @i now; the compile thread works while callers run. */
static int install(struct spec_policy_exhaustive *p, size_t i)
{
	int ret = spec_runtime__specialize_sync(p->rt, p->c[i].cfg, NULL);

	if (ret) {
		char msg[256] = "";

		spec_runtime__last_error(p->rt, msg, sizeof(msg));
		pr_warn("policy: candidate %zu '%s' failed: %s\n", i, p->c[i].text,
			msg[0] ? msg : strerror(-ret));
	}
	return ret;
}

/* What was installed before a search, to go back to if all of it fails. */
static void remember_installed(struct spec_policy_exhaustive *p)
{
	char buf[512];
	int len = spec_runtime__current(p->rt, buf, sizeof(buf));

	free(p->prev);
	p->prev = NULL;
	if (len < 0)
		return;
	p->prev = malloc((size_t)len + 1);
	if (p->prev && spec_runtime__current(p->rt, p->prev, (size_t)len + 1) != len) {
		free(p->prev);
		p->prev = NULL;
	}
}

static void restore_installed(struct spec_policy_exhaustive *p)
{
	struct spec_config *cfg = p->prev ? spec_config__parse(p->prev) : NULL;

	if (cfg && spec_runtime__specialize_sync(p->rt, cfg, NULL))
		pr_warn("policy: could not go back to '%s'\n", p->prev);
	spec_config__free(cfg);
}

/* Best measured candidate, or -1. Ties go to the earlier one. */
static long pick_best(const struct spec_policy_exhaustive *p)
{
	long best = -1;
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (p->c[i].err)
			continue;
		if (best < 0 || better(p, p->c[i].score, p->c[(size_t)best].score))
			best = (long)i;
	}
	return best;
}

static int first_error(const struct spec_policy_exhaustive *p)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		if (p->c[i].err)
			return p->c[i].err;
	}
	return -ENOENT;
}

/* One transition; returns 1 to continue, 0 to wait until *next, <0 error. */
static int advance(struct spec_policy_exhaustive *p, uint64_t now, uint64_t *next)
{
	double score;
	long b;
	size_t i;

	switch (p->state) {
	case ST_EXPLORE:
		emit(p, SPEC_POLICY_EXPLORE, p->nr, NAN);
		remember_installed(p);
		for (i = 0; i < p->nr; i++) {
			p->c[i].err = 0;
			p->c[i].score = NAN;
		}
		p->cur = 0;
		p->state = ST_SWITCH;
		return 1;
	case ST_SWITCH:
		if (p->cur >= p->nr) {
			p->state = ST_CHOOSE;
			return 1;
		}
		p->c[p->cur].err = install(p, p->cur);
		if (p->c[p->cur].err) {
			emit(p, SPEC_POLICY_MEASURED, p->cur, NAN);
			p->cur++;
			return 1;
		}
		/* The compile took time: warm up from now, not from the step. */
		p->deadline = now_ns(p) + p->warmup;
		p->state = ST_WARMUP;
		return 1;
	case ST_WARMUP:
	case ST_WATCH_WARMUP:
		if (now < p->deadline)
			break;
		window_open(p, now);
		p->state = p->state == ST_WARMUP ? ST_MEASURE : ST_WATCH;
		return 1;
	case ST_MEASURE:
		if (now < p->deadline)
			break;
		score = window_close(p, now);
		if (!isfinite(score)) {
			pr_warn("policy: candidate %zu '%s': the metric is not finite\n", p->cur,
				p->c[p->cur].text);
			p->c[p->cur].err = -EDOM;
		}
		p->c[p->cur].score = score;
		emit(p, SPEC_POLICY_MEASURED, p->cur, score);
		p->cur++;
		p->state = ST_SWITCH;
		return 1;
	case ST_CHOOSE:
		b = pick_best(p);
		if (b < 0) {
			p->best = -1;
			p->chosen_at = now;
			p->state = ST_IDLE;
			emit(p, SPEC_POLICY_NONE_OK, p->nr, NAN);
			pr_warn("policy: every candidate failed; back to '%s'\n",
				p->prev ? p->prev : "?");
			restore_installed(p);
			return first_error(p);
		}
		/* From the cache, normally; if it fails now, drop it and retry. */
		p->c[b].err = install(p, (size_t)b);
		if (p->c[b].err)
			return 1;
		p->best = b;
		p->best_score = p->c[b].score;
		p->beyond = 0;
		p->chosen_at = now_ns(p);
		p->deadline = p->chosen_at + p->warmup;
		p->state = ST_WATCH_WARMUP;
		emit(p, SPEC_POLICY_CHOSEN, (size_t)b, p->best_score);
		return 1;
	case ST_WATCH:
		if (p->period && now >= p->chosen_at + p->period) {
			emit(p, SPEC_POLICY_PERIOD, p->nr, NAN);
			p->state = ST_EXPLORE;
			return 1;
		}
		if (now < p->deadline)
			break;
		score = window_close(p, now);
		p->beyond = shifted(p, score, p->best_score) ? p->beyond + 1 : 0;
		if (p->beyond >= p->confirm) {
			emit(p, SPEC_POLICY_SHIFT, (size_t)p->best, score);
			p->state = ST_EXPLORE;
			return 1;
		}
		emit(p, SPEC_POLICY_WATCH, (size_t)p->best, score);
		window_open(p, now);
		return 1;
	case ST_IDLE:
		if (!p->period)
			break;
		if (now >= p->chosen_at + p->period) {
			emit(p, SPEC_POLICY_PERIOD, p->nr, NAN);
			p->state = ST_EXPLORE;
			return 1;
		}
		*next = p->chosen_at + p->period;
		return 0;
	}
	*next = p->state == ST_IDLE ? UINT64_MAX : p->deadline;
	if (p->state == ST_WATCH && p->period && p->chosen_at + p->period < *next)
		*next = p->chosen_at + p->period;
	return 0;
}

int spec_policy_exhaustive__step(struct spec_policy_exhaustive *p, uint64_t *next_ns)
{
	uint64_t next = UINT64_MAX;
	int ret;

	if (!p)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&p->lock);
	if (atomic_exchange(&p->force, false))
		p->state = ST_EXPLORE;
	do {
		ret = advance(p, now_ns(p), &next);
	} while (ret == 1);
	pthread_mutex_unlock(&p->lock);
	if (next_ns)
		*next_ns = next;
	return libspec_err(ret);
}

int spec_policy_exhaustive__run(struct spec_policy_exhaustive *p)
{
	struct timespec ts;
	uint64_t next, now, abs;

	if (!p)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		/* A search where all failed is logged and reported; go on. */
		spec_policy_exhaustive__step(p, &next);
		now = now_ns(p);
		if (p->stop || atomic_load(&p->force) || next <= now)
			continue;
		if (next == UINT64_MAX) {
			pthread_cond_wait(&p->wake, &p->lock);
			continue;
		}
		/* Sleep the clock's interval on the real clock. */
		abs = mono_ns(NULL) + (next - now);
		ts.tv_sec = (time_t)(abs / 1000000000ull);
		ts.tv_nsec = (long)(abs % 1000000000ull);
		pthread_cond_timedwait(&p->wake, &p->lock, &ts);
	}
	p->stop = false;
	pthread_mutex_unlock(&p->lock);
	return 0;
}

void spec_policy_exhaustive__stop(struct spec_policy_exhaustive *p)
{
	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

void spec_policy_exhaustive__explore(struct spec_policy_exhaustive *p)
{
	if (!p)
		return;
	atomic_store(&p->force, true);
	pthread_mutex_lock(&p->lock);
	pthread_cond_broadcast(&p->wake);
	pthread_mutex_unlock(&p->lock);
}

int spec_policy_exhaustive__best(struct spec_policy_exhaustive *p, struct spec_config **cfg,
				 double *score)
{
	int ret = 0;

	if (!p)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&p->lock);
	if (p->best < 0) {
		ret = -ENOENT;
		goto out;
	}
	if (cfg) {
		*cfg = spec_config__dup(p->c[(size_t)p->best].cfg);
		if (!*cfg) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (score)
		*score = p->best_score;
out:
	pthread_mutex_unlock(&p->lock);
	return libspec_err(ret);
}

void spec_policy_exhaustive__free(struct spec_policy_exhaustive *p)
{
	if (!p)
		return;
	policy_candidates_free(p->c, p->nr);
	free(p->prev);
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	free(p);
}
