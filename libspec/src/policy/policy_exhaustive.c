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
#include "policy/policy_candidates.h"
#include "policy/policy_exhaustive.h"
#include "policy/policy_step.h"
#include "runtime.h"
#include "runtime_ref.h"

#define DEFAULT_DWELL_NS 100000000ull
#define DEFAULT_MAX_RANGE 64
#define DEFAULT_MAX_CANDIDATES 1024
#define DEFAULT_OBSERVE_EVERY 16
/* The paper's example: specialize N if >= 70% of the requests share it. */
#define DEFAULT_OBSERVE_SHARE 0.7

static uint64_t mono_ns(void *ctx)
{
	struct timespec ts;

	(void)ctx;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int copy_opts(struct spec_policy_exhaustive *p, const struct spec_policy_exhaustive_opts *o)
{
	p->metric = OPTS_GET(o, metric, NULL);
	p->metric_ctx = OPTS_GET(o, metric_ctx, NULL);
	p->mode = OPTS_GET(o, metric_mode, SPEC_METRIC_WINDOW);
	p->minimize = OPTS_GET(o, minimize, false);
	p->prepare_ahead = OPTS_GET(o, prepare_ahead, false);
	p->dwell = OPTS_GET(o, dwell_ns, 0);
	if (!p->dwell)
		p->dwell = DEFAULT_DWELL_NS;
	p->warmup = OPTS_GET(o, warmup_ns, 0);
	p->period = OPTS_GET(o, period_ns, 0);
	p->threshold = OPTS_GET(o, threshold, 0.0);
	p->windows = OPTS_GET(o, windows, 0);
	if (!p->windows)
		p->windows = 1;
	p->confirm = OPTS_GET(o, confirm_windows, 0);
	if (!p->confirm)
		p->confirm = 1;
	p->observe_ns = OPTS_GET(o, observe_ns, 0);
	if (!p->observe_ns)
		p->observe_ns = p->dwell;
	p->observe_every = OPTS_GET(o, observe_every, 0);
	if (!p->observe_every)
		p->observe_every = DEFAULT_OBSERVE_EVERY;
	p->observe_share = OPTS_GET(o, observe_share, 0.0);
	if (p->observe_share == 0.0)
		p->observe_share = DEFAULT_OBSERVE_SHARE;
	p->clock = OPTS_GET(o, clock, NULL);
	if (!p->clock)
		p->clock = mono_ns;
	p->clock_ctx = OPTS_GET(o, clock_ctx, NULL);
	p->report = OPTS_GET(o, report, NULL);
	p->report_ctx = OPTS_GET(o, report_ctx, NULL);
	if (!p->metric) {
		pr_warn(&p->log, "policy: opts.metric is required");
		return -EINVAL;
	}
	if (p->mode != SPEC_METRIC_WINDOW && p->mode != SPEC_METRIC_COUNTER) {
		pr_warn(&p->log, "policy: opts.metric_mode %d is not a spec_metric_mode",
			(int)p->mode);
		return -EINVAL;
	}
	if (!(p->threshold >= 0.0) || isinf(p->threshold)) {
		pr_warn(&p->log, "policy: opts.threshold %g must be a finite fraction >= 0",
			p->threshold);
		return -EINVAL;
	}
	if (p->windows > POLICY_MAX_WINDOWS) {
		pr_warn(&p->log, "policy: opts.windows %u is more than %d", p->windows,
			POLICY_MAX_WINDOWS);
		return -EINVAL;
	}
	if (!(p->observe_share > 0.0 && p->observe_share <= 1.0)) {
		pr_warn(&p->log, "policy: opts.observe_share %g must be in (0, 1]",
			p->observe_share);
		return -EINVAL;
	}
	return 0;
}

/* Owned copy of a label array; NULL entries stay NULL (reported later). */
static int strv_dup(const struct libspec_log *log, const char *const *v, size_t n, const char *what,
		    const char *const **out)
{
	char **copy;
	size_t i;

	*out = NULL;
	if (!n)
		return 0;
	if (!v) {
		pr_warn(log, "policy: opts.%s is NULL with a non-zero count", what);
		return -EINVAL;
	}
	copy = calloc(n, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	*out = (const char *const *)copy;
	for (i = 0; i < n; i++)
		if (v[i] && !(copy[i] = strdup(v[i])))
			return -ENOMEM;
	return 0;
}

static void strv_free(const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free((char *)v[i]);
	free((void *)v);
}

static int copy_extra(const struct libspec_log *log, struct policy_space_opts *so,
		      const struct spec_policy_exhaustive_opts *o)
{
	const struct spec_config *const *extra = OPTS_GET(o, extra, NULL);
	struct spec_config **copy;
	size_t i;

	so->extra = NULL;
	if (!so->nr_extra)
		return 0;
	if (!extra) {
		pr_warn(log, "policy: opts.extra is NULL with a non-zero count");
		return -EINVAL;
	}
	copy = calloc(so->nr_extra, sizeof(*copy));
	if (!copy)
		return -ENOMEM;
	so->extra = (const struct spec_config *const *)copy;
	for (i = 0; i < so->nr_extra; i++) {
		if (!extra[i]) {
			pr_warn(log, "policy: opts.extra[%zu] is NULL", i);
			return -EINVAL;
		}
		copy[i] = spec_config__dup(extra[i]);
		if (!copy[i])
			return -ENOMEM;
	}
	return 0;
}

static void space_opts_free(struct policy_space_opts *so)
{
	size_t i;

	strv_free(so->labels, so->nr_labels);
	strv_free(so->noguard, so->nr_noguard);
	strv_free(so->observe, so->nr_observe);
	for (i = 0; so->extra && i < so->nr_extra; i++)
		spec_config__free((struct spec_config *)so->extra[i]);
	free((void *)so->extra);
	memset(so, 0, sizeof(*so));
}

/* The policy keeps what spans the search: it is built again each time. */
static int copy_space_opts(const struct libspec_log *log, struct policy_space_opts *so,
			   const struct spec_policy_exhaustive_opts *o)
{
	int ret;

	so->nr_labels = OPTS_GET(o, nr_labels, 0);
	so->nr_noguard = OPTS_GET(o, nr_noguard_labels, 0);
	so->nr_observe = OPTS_GET(o, nr_observe_labels, 0);
	so->nr_extra = OPTS_GET(o, nr_extra, 0);
	so->max_range_values = OPTS_GET(o, max_range_values, 0);
	if (!so->max_range_values)
		so->max_range_values = DEFAULT_MAX_RANGE;
	so->max_candidates = OPTS_GET(o, max_candidates, 0);
	if (!so->max_candidates)
		so->max_candidates = DEFAULT_MAX_CANDIDATES;
	so->include_generic = OPTS_GET(o, include_generic, false);
	ret = strv_dup(log, OPTS_GET(o, labels, NULL), so->nr_labels, "labels", &so->labels);
	if (!ret)
		ret = strv_dup(log, OPTS_GET(o, noguard_labels, NULL), so->nr_noguard,
			       "noguard_labels", &so->noguard);
	if (!ret)
		ret = strv_dup(log, OPTS_GET(o, observe_labels, NULL), so->nr_observe,
			       "observe_labels", &so->observe);
	if (!ret)
		ret = copy_extra(log, so, o);
	return ret;
}

static void policy_destroy(struct spec_policy_exhaustive *p)
{
	policy_candidates_free(p->c, p->nr);
	space_opts_free(&p->so);
	spec_config__free(p->best_cfg);
	free(p->best_text);
	free(p->prev);
	free(p);
}

struct spec_policy_exhaustive *
spec_policy_exhaustive__new(struct spec_runtime *rt, const struct spec_policy_exhaustive_opts *opts)
{
	struct libspec_log log = LIBSPEC_LOG_OPTS(opts);
	struct spec_policy_exhaustive *p;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int ret;

	if (rt)
		log = libspec_log_or(log, &rt->log);
	if (!rt || !OPTS_VALID(&log, opts, spec_policy_exhaustive_opts)) {
		pr_warn(&log, "policy: %s", rt ? "bad opts" : "runtime is NULL");
		return libspec_err_ptr(-EINVAL);
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return libspec_err_ptr(-ENOMEM);
	p->rt = rt;
	p->log = log;
	p->best_score = NAN;
	ret = copy_opts(p, opts);
	if (!ret)
		ret = copy_space_opts(&p->log, &p->so, opts);
	/* Observed points have no values before the first search. */
	if (!ret)
		ret = policy_step_build(p, NULL, 0);
	if (ret) {
		policy_destroy(p);
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
	rt_get(rt);
	return p;
}

size_t spec_policy_exhaustive__nr_candidates(const struct spec_policy_exhaustive *p)
{
	return p ? p->nr : 0;
}

int spec_policy_exhaustive__step(struct spec_policy_exhaustive *p, uint64_t *next_ns)
{
	uint64_t next;
	int ret;

	if (!p)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&p->lock);
	ret = policy_step_run(p, &next);
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
		now = policy_step_now(p);
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
	if (!p->best_cfg) {
		ret = -ENOENT;
		goto out;
	}
	if (cfg) {
		*cfg = spec_config__dup(p->best_cfg);
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
	struct spec_runtime *rt;

	if (!p)
		return;
	rt = p->rt;
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
	policy_destroy(p);
	spec_runtime__close(rt);
}
