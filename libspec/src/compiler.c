// SPDX-License-Identifier: GPL-2.0
/*
 * The compile thread: specializations are validated in the caller, queued,
 * and built (or taken from the cache) and installed here, so callers never
 * wait for LLVM unless they ask to.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "log.h"
#include "runtime_error.h"
#include "compiler.h"
#include "sampler.h"
#include "tier.h"
#include "validate.h"
#include "variant.h"

#define MAX_CASES SPEC_CUSTOM_MAX_CASES
/* How often the idle thread retries freeing retired variants. */
#define RECLAIM_POLL_NS 2000000

static int by_in(const void *a, const void *b)
{
	const struct spec_case *x = a, *y = b;

	return x->in < y->in ? -1 : x->in > y->in;
}

/* Ask the generator of custom point @p for its cases (sorted, unique). */
static int gen_cases(struct spec_runtime *rt, struct spec_point *p, struct jit_setting *s)
{
	struct spec_observed hot[32];
	struct spec_case *cases = calloc(MAX_CASES, sizeof(*cases));
	spec_custom_gen_fn gen;
	void *ctx;
	size_t nhot, i, n = 0;
	int ret;

	if (!cases)
		return -ENOMEM;
	pthread_mutex_lock(&rt->lock);
	gen = p->gen;
	ctx = p->gen_ctx;
	pthread_mutex_unlock(&rt->lock);
	nhot = sampler_merge(&rt->dom, p->idx, hot, 32, NULL);
	ret = gen ? gen(ctx, p->label, hot, nhot, cases, MAX_CASES) : 0;
	if (ret < 0 || ret > MAX_CASES) {
		free(cases);
		return ret < 0 ? ret : -EINVAL;
	}
	qsort(cases, (size_t)ret, sizeof(*cases), by_in);
	for (i = 0; i < (size_t)ret; i++) {
		if (!n || cases[n - 1].in != cases[i].in)
			cases[n++] = cases[i];
	}
	s->cases = cases;
	s->nr_cases = n;
	return 0;
}

/* A spec_gen point: its generator and the hot inputs with their answers. */
static int gen_setting(struct spec_runtime *rt, struct spec_point *p, struct jit_setting *s)
{
	struct spec_observed *hot = calloc(SPEC_HOT_MAX, sizeof(*hot));

	if (!hot)
		return -ENOMEM;
	pthread_mutex_lock(&rt->lock);
	s->emit = p->emit;
	s->emit_ctx = p->emit_ctx;
	pthread_mutex_unlock(&rt->lock);
	s->nr_hot = sampler_merge(&rt->dom, p->idx, hot, SPEC_HOT_MAX, NULL);
	s->hot = hot;
	return 0;
}

static void free_settings(struct spec_runtime *rt, struct jit_setting *s)
{
	size_t i;

	for (i = 0; s && i < rt->pts.n; i++) {
		free((void *)s[i].cases);
		free((void *)s[i].hot);
	}
	free(s);
}

static int build_settings(struct spec_runtime *rt, const struct spec_config *cfg,
			  struct jit_setting **out, char *err, size_t errsz)
{
	struct jit_setting *s = calloc(rt->pts.n ? rt->pts.n : 1, sizeof(*s));
	size_t i;

	if (!s)
		return -ENOMEM;
	for (i = 0; i < cfg->n; i++) {
		const struct cfg_entry *e = &cfg->e[i];
		struct spec_point *p = points_find(&rt->pts, e->label);
		struct jit_setting *ps;
		int ret;

		if (!p)
			continue;
		ps = &s[p->idx];
		ps->mode = e->mode;
		ps->value = e->value;
		ps->guard = !e->noguard;
		ps->every = e->every;
		ps->param = e->param;
		if (e->mode != CFG_DISABLED && p->kind == SPEC_POINT_GEN) {
			ret = gen_setting(rt, p, ps);
			if (ret) {
				free_settings(rt, s);
				return ret;
			}
		}
		if (e->mode == CFG_ENABLED && p->kind == SPEC_POINT_CUSTOM) {
			ret = gen_cases(rt, p, ps);
			if (ret) {
				snprintf(err, errsz, "generator of custom point '%s' failed: %s",
					 p->label, strerror(-ret));
				free_settings(rt, s);
				return ret;
			}
		}
	}
	*out = s;
	return 0;
}

/*
 * The cache key (lock held): canonical text, pipeline, and the data version
 * of every enabled point whose code a generator made, so that a variant
 * compiled from data since invalidated is never found again.
 */
static void cache_key(struct spec_runtime *rt, const struct spec_config *cfg, const char *text,
		      const char *pipeline, bool fast, char *key, size_t size)
{
	size_t i, len = (size_t)snprintf(key, size, "%s|%s%s", text, pipeline,
					 fast ? "|codegen=O0" : "");

	for (i = 0; i < cfg->n && len < size; i++) {
		const struct spec_point *p = points_find(&rt->pts, cfg->e[i].label);

		if (p && cfg->e[i].mode != CFG_DISABLED &&
		    (p->kind == SPEC_POINT_GEN || p->kind == SPEC_POINT_CUSTOM))
			len += (size_t)snprintf(key + len, size - len, "|%zu@%" PRIu64, p->idx,
						p->version);
	}
}

/* Points a variant compiled from data (invalidated together with it). */
static bool *data_deps(struct spec_runtime *rt, const struct spec_config *cfg)
{
	bool *deps = calloc(rt->pts.n ? rt->pts.n : 1, sizeof(*deps));
	size_t i;

	for (i = 0; deps && i < cfg->n; i++) {
		const struct spec_point *p = points_find(&rt->pts, cfg->e[i].label);

		if (p && cfg->e[i].mode != CFG_DISABLED &&
		    (p->kind == SPEC_POINT_GEN || p->kind == SPEC_POINT_CUSTOM))
			deps[p->idx] = true;
	}
	return deps;
}

/*
 * What a job leaves for the measured choice of tiers (tier.h): the plan,
 * the windows before and under the first tier, the two tiers installed.
 */
struct tier_job {
	struct tier_plan plan;
	struct tier_window old, first_w;
	struct variant *first, *final;
	bool armed;
};

/* Install the variant of @text under @pipeline if it is cached. */
static struct variant *install_if_cached(struct spec_runtime *rt, struct job *job, const char *text,
					 const char *pipeline, bool fast, struct tier_window *snap)
{
	char key[2 * RT_MSG_MAX];
	struct variant *v;

	pthread_mutex_lock(&rt->lock);
	cache_key(rt, job->cfg, text, pipeline, fast, key, sizeof(key));
	v = variant_find(rt, key);
	if (v && !job->prepare) {
		rt->stats.cache_hits++;
		tier_next_window(rt, snap);
		variant_install(rt, v);
		rt_clear_error(rt);
	}
	pthread_mutex_unlock(&rt->lock);
	return v;
}

static int build_install(struct spec_runtime *rt, struct job *job, const char *text,
			 const char *pipeline, bool fast, struct tier_window *snap,
			 struct variant **out)
{
	char key[2 * RT_MSG_MAX], now[2 * RT_MSG_MAX], err[RT_MSG_MAX] = "";
	struct jit_setting *settings = NULL;
	struct variant *v;
	int ret;

	pthread_mutex_lock(&rt->lock);
	cache_key(rt, job->cfg, text, pipeline, fast, key, sizeof(key));
	pthread_mutex_unlock(&rt->lock);
	ret = build_settings(rt, job->cfg, &settings, err, sizeof(err));
	if (!ret)
		ret = variant_build(rt, settings, pipeline, fast, true, &v, err, sizeof(err));
	free_settings(rt, settings);
	if (!ret) {
		v->key = strdup(key);
		v->text = strdup(text);
		v->deps = data_deps(rt, job->cfg);
		if (!v->key || !v->text || !v->deps) {
			pthread_mutex_lock(&rt->jit_lock);
			variant_free(rt, v);
			pthread_mutex_unlock(&rt->jit_lock);
			ret = -ENOMEM;
			snprintf(err, sizeof(err), "out of memory");
		}
	}
	if (ret)
		return validate_fail(rt, ret, "compiling \"%s\" failed, current variant kept: %s",
				     text, err);
	pthread_mutex_lock(&rt->lock);
	cache_key(rt, job->cfg, text, pipeline, fast, now, sizeof(now));
	if (strcmp(now, key)) {
		/* The data was invalidated while its generator ran. */
		pthread_mutex_unlock(&rt->lock);
		pthread_mutex_lock(&rt->jit_lock);
		variant_free(rt, v);
		pthread_mutex_unlock(&rt->jit_lock);
		return validate_fail(rt, -ESTALE,
				     "compiling \"%s\": its data was invalidated meanwhile, "
				     "current variant kept",
				     text);
	}
	variant_add(rt, v);
	if (job->prepare) {
		rt->stats.prepared++;
	} else {
		tier_next_window(rt, snap);
		variant_install(rt, v);
	}
	variant_evict(rt);
	rt_clear_error(rt);
	pthread_mutex_unlock(&rt->lock);
	if (out)
		*out = v;
	return 0;
}

/* Plan a tiered job of a runtime that measures its tiers; false: unmeasured. */
static bool tier_start(struct spec_runtime *rt, struct job *job, struct tier_job *tj)
{
	if (!rt->tier || !job->first || tier_plan(rt, job->cfg, &tj->plan))
		return false;
	if (tj->plan.skip_first || !tj->plan.measure)
		return true;
	if (tier_window_alloc(rt, &tj->old) || tier_window_alloc(rt, &tj->first_w)) {
		tj->plan.measure = false;
		return true;
	}
	pthread_mutex_lock(&rt->lock);
	tier_arm(rt, &tj->plan);
	tj->armed = true;
	pthread_mutex_unlock(&rt->lock);
	return true;
}

/*
 * A tiered job installs the cheap variant as soon as it is built, so the
 * service runs specialized code early, then the final one; only the final
 * pipeline's variant is looked up first, so a configuration seen before
 * goes straight to its final code and is never compiled again. Measured,
 * a tier that has not paid for the handlers the job changes is left out.
 */
static int run_job(struct spec_runtime *rt, struct job *job, struct tier_job *tj)
{
	char text[RT_MSG_MAX];
	uint64_t t0 = clock_mono_ns(), first_ns = 0;
	bool first, final = true;
	int ret, ret1 = -EINVAL;

	ret = spec_config__format(job->cfg, text, sizeof(text));
	if (ret < 0 || (size_t)ret >= sizeof(text))
		return validate_fail(rt, -ENAMETOOLONG, "configuration text too long");
	if (install_if_cached(rt, job, text, job->pipeline, job->fast, NULL))
		return 0;
	first = job->first != NULL;
	if (tier_start(rt, job, tj)) {
		first = !tj->plan.skip_first;
		final = !tj->plan.skip_final;
	}
	if (first) {
		tj->first = install_if_cached(rt, job, text, job->first, job->first_fast,
					      tj->armed ? &tj->old : NULL);
		ret1 = tj->first ? 0
				 : build_install(rt, job, text, job->first, job->first_fast,
						 tj->armed ? &tj->old : NULL, &tj->first);
		if (!ret1)
			first_ns = clock_mono_ns() - t0;
		/* A first tier that failed alone would leave nothing new. */
		final |= ret1 != 0;
	}
	ret = final ? build_install(rt, job, text, job->pipeline, job->fast,
				    tj->armed && tj->first ? &tj->first_w : NULL, &tj->final)
		    : ret1;
	if (job->first) {
		pthread_mutex_lock(&rt->lock);
		if (first_ns) {
			rt->stats.tier_first++;
			rt->stats.last_first_install_ns = first_ns;
		}
		if (final && !ret) {
			rt->stats.tier_final++;
			rt->stats.last_final_install_ns = clock_mono_ns() - t0;
		}
		rt->stats.tier_first_skipped += job->first && !first;
		rt->stats.tier_final_skipped += !final;
		pthread_mutex_unlock(&rt->lock);
	}
	return ret;
}

/* After the job ended: decide between its tiers, stop timing (lock held). */
static void tier_finish(struct spec_runtime *rt, struct tier_job *tj, int ret)
{
	if (tj->armed) {
		if (!ret)
			tier_decide(rt, &tj->plan, &tj->old, &tj->first_w, tj->first, tj->final);
		else
			tier_disarm(rt);
	}
	tier_window_free(&tj->old);
	tier_window_free(&tj->first_w);
	tier_plan_free(&tj->plan);
	memset(tj, 0, sizeof(*tj));
}

static void finish(struct spec_runtime *rt, struct job *job, int ret)
{
	/* lock held */
	job->result = ret;
	job->finished = true;
	if (!job->sync) {
		pthread_mutex_unlock(&rt->lock);
		if (job->done)
			job->done(job->done_ctx, ret);
		spec_config__free(job->cfg);
		free(job->pipeline);
		free(job->first);
		free(job);
		pthread_mutex_lock(&rt->lock);
	}
	pthread_cond_broadcast(&rt->cond);
}

static void *compiler_main(void *arg)
{
	struct spec_runtime *rt = arg;
	struct tier_job tj = {0};

	pthread_mutex_lock(&rt->lock);
	while (!rt->stop) {
		struct job *job = rt->qhead;
		int ret;

		if (!job) {
			if (rt->retired) {
				struct timespec ts;

				clock_wait_until(&ts, RECLAIM_POLL_NS);
				pthread_cond_timedwait(&rt->cond, &rt->lock, &ts);
				pthread_mutex_unlock(&rt->lock);
				variant_reclaim(rt);
				pthread_mutex_lock(&rt->lock);
			} else {
				pthread_cond_wait(&rt->cond, &rt->lock);
			}
			continue;
		}
		rt->qhead = job->next;
		if (!rt->qhead)
			rt->qtail = NULL;
		rt->busy = true;
		pthread_mutex_unlock(&rt->lock);
		ret = run_job(rt, job, &tj);
		pthread_mutex_lock(&rt->lock);
		finish(rt, job, ret);
		/* A synchronous caller has its answer; wait() includes this. */
		tier_finish(rt, &tj, ret);
		pthread_mutex_unlock(&rt->lock);
		variant_reclaim(rt);
		pthread_mutex_lock(&rt->lock);
		rt->busy = false;
		pthread_cond_broadcast(&rt->cond);
	}
	/* Jobs still queued at close end as cancelled. */
	while (rt->qhead) {
		struct job *job = rt->qhead;

		rt->qhead = job->next;
		finish(rt, job, -ECANCELED);
	}
	rt->qtail = NULL;
	pthread_mutex_unlock(&rt->lock);
	return NULL;
}

int compiler_start(struct spec_runtime *rt)
{
	int err = pthread_create(&rt->thread, NULL, compiler_main, rt);

	if (err)
		return -err;
	rt->thread_started = true;
	return 0;
}

void compiler_stop(struct spec_runtime *rt)
{
	if (!rt->thread_started)
		return;
	pthread_mutex_lock(&rt->lock);
	rt->stop = true;
	pthread_cond_broadcast(&rt->cond);
	pthread_mutex_unlock(&rt->lock);
	pthread_join(rt->thread, NULL);
	rt->thread_started = false;
}

static struct job *job_new(struct spec_runtime *rt, const struct spec_config *cfg,
			   const struct spec_specialize_opts *opts, bool sync, bool prepare)
{
	struct job *job = calloc(1, sizeof(*job));
	const char *pipeline = OPTS_GET(opts, pipeline, NULL);
	bool tiered;

	if (!job)
		return NULL;
	job->cfg = spec_config__dup(cfg);
	pthread_mutex_lock(&rt->lock);
	job->pipeline = strdup(pipeline ? pipeline : rt->pipeline);
	job->fast = OPTS_GET(opts, fast_codegen, false);
	/* A level the caller names is forced: no cheap tier before it. */
	tiered = !prepare && !pipeline && !job->fast && rt->first_pipeline &&
		 (rt->first_fast_codegen || strcmp(rt->first_pipeline, rt->pipeline));
	job->prepare = prepare;
	if (tiered) {
		job->first = strdup(rt->first_pipeline);
		job->first_fast = rt->first_fast_codegen;
	}
	pthread_mutex_unlock(&rt->lock);
	if (!job->cfg || !job->pipeline || (tiered && !job->first)) {
		spec_config__free(job->cfg);
		free(job->pipeline);
		free(job->first);
		free(job);
		return NULL;
	}
	job->sync = sync;
	if (!sync) {
		job->done = OPTS_GET(opts, done, NULL);
		job->done_ctx = OPTS_GET(opts, done_ctx, NULL);
	}
	return job;
}

/* A cache hit with nothing queued ahead is installed by the caller: a few
 * stores, no wake-up of the compile thread. To prepare, any hit will do.
 */
static bool take_cached(struct spec_runtime *rt, const struct spec_config *cfg,
			const struct spec_specialize_opts *opts, bool install)
{
	const char *pipeline = OPTS_GET(opts, pipeline, NULL);
	char text[RT_MSG_MAX], key[2 * RT_MSG_MAX];
	int n = spec_config__format(cfg, text, sizeof(text));
	struct variant *v = NULL;

	if (n < 0 || (size_t)n >= sizeof(text))
		return false;
	pthread_mutex_lock(&rt->lock);
	cache_key(rt, cfg, text, pipeline ? pipeline : rt->pipeline,
		  OPTS_GET(opts, fast_codegen, false), key, sizeof(key));
	if (!install || (!rt->qhead && !rt->busy))
		v = variant_find(rt, key);
	if (v && install) {
		rt->stats.cache_hits++;
		variant_install(rt, v);
		rt_clear_error(rt);
	}
	pthread_mutex_unlock(&rt->lock);
	return v != NULL;
}

static int submit(struct spec_runtime *rt, const struct spec_config *cfg,
		  const struct spec_specialize_opts *opts, bool sync, bool prepare)
{
	struct job *job;
	int ret;

	if (!rt || !cfg || !OPTS_VALID(&rt->log, opts, spec_specialize_opts))
		return libspec_err(-EINVAL);
	ret = spec_runtime__load(rt);
	if (ret)
		return ret;
	ret = validate_config(rt, cfg);
	if (ret)
		return ret;
	if (take_cached(rt, cfg, opts, !prepare)) {
		spec_done_fn done = sync ? NULL : OPTS_GET(opts, done, NULL);

		if (done)
			done(OPTS_GET(opts, done_ctx, NULL), 0);
		return 0;
	}
	job = job_new(rt, cfg, opts, sync, prepare);
	if (!job)
		return libspec_err(-ENOMEM);
	pthread_mutex_lock(&rt->lock);
	if (rt->qtail)
		rt->qtail->next = job;
	else
		rt->qhead = job;
	rt->qtail = job;
	pthread_cond_broadcast(&rt->cond);
	if (!sync) {
		pthread_mutex_unlock(&rt->lock);
		return 0;
	}
	while (!job->finished)
		pthread_cond_wait(&rt->cond, &rt->lock);
	pthread_mutex_unlock(&rt->lock);
	ret = job->result;
	spec_config__free(job->cfg);
	free(job->pipeline);
	free(job->first);
	free(job);
	return libspec_err(ret);
}

int spec_runtime__specialize(struct spec_runtime *rt, const struct spec_config *cfg,
			     const struct spec_specialize_opts *opts)
{
	return submit(rt, cfg, opts, false, false);
}

int spec_runtime__specialize_sync(struct spec_runtime *rt, const struct spec_config *cfg,
				  const struct spec_specialize_opts *opts)
{
	return submit(rt, cfg, opts, true, false);
}

int spec_runtime__prepare(struct spec_runtime *rt, const struct spec_config *cfg,
			  const struct spec_specialize_opts *opts)
{
	return submit(rt, cfg, opts, false, true);
}

int spec_runtime__wait(struct spec_runtime *rt)
{
	if (!rt)
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&rt->lock);
	while (rt->thread_started && (rt->qhead || rt->busy))
		pthread_cond_wait(&rt->cond, &rt->lock);
	pthread_mutex_unlock(&rt->lock);
	return 0;
}
