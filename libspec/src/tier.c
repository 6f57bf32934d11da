// SPDX-License-Identifier: GPL-2.0
/*
 * Measured compile tiers. Medians of at most JIT_TIMER_RING sampled calls
 * per window, so one preempted call does not decide; a tier pays when it
 * is TIER_MARGIN_PCT faster, so equal code measured twice never does.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "jit/jit_timer.h"
#include "log.h"
#include "tier.h"
#include "variant.h"

#define TIER_MIN_SAMPLES 16
#define TIER_WINDOW_NS 250000000ull
/* How long a window measured while compiling may take to fill. */
#define TIER_FILL_NS 10000000ull
#define TIER_POLL_NS 1000000ull
#define TIER_MARGIN_PCT 5
/* A final tier that won nothing this many times in a row is not compiled. */
#define TIER_FINAL_TIES 2
/* One call in 8 of a handler known to be fast is timed; every call of
 * one slower than TIER_SLOW_CYCLES (where two cycle reads cost nothing in
 * comparison) or not timed yet, so that slow handlers fill a window soon.
 */
#define TIER_MASK_FAST 7
#define TIER_SLOW_CYCLES 4096
/* Every this many jobs of a handler compile both tiers again. */
#define TIER_RECHECK 8

struct tier_hist {
	unsigned int final_ties;   /* comparisons in a row the final tier did not win */
	unsigned int first_losses; /* times in a row the first tier was slower than before */
	unsigned int jobs;	   /* tiered jobs that changed this handler */
	uint64_t last_cycles;	   /* median of its last filled window */
};

struct tier {
	struct jit_timer *timers; /* [nr_handlers], written by calling threads */
	void **fns;		  /* timer functions, NULL until built */
	bool *armed;
	struct tier_hist *hist;
};

int tier_open(struct spec_runtime *rt)
{
	size_t n = rt->nr_handlers ? rt->nr_handlers : 1;
	struct tier *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	/* Apart from everything else: calling threads write them. */
	t->timers = aligned_alloc(64, (n * sizeof(*t->timers) + 63) & ~(size_t)63);
	t->fns = calloc(n, sizeof(*t->fns));
	t->armed = calloc(n, sizeof(*t->armed));
	t->hist = calloc(n, sizeof(*t->hist));
	rt->tier = t;
	if (!t->timers || !t->fns || !t->armed || !t->hist) {
		tier_close(rt);
		return -ENOMEM;
	}
	/* Mask 0: every call is timed until a window shows the handler is fast. */
	memset(t->timers, 0, n * sizeof(*t->timers));
	return 0;
}

void tier_close(struct spec_runtime *rt)
{
	struct tier *t = rt->tier;

	if (!t)
		return;
	free(t->timers);
	free(t->fns);
	free(t->armed);
	free(t->hist);
	free(t);
	rt->tier = NULL;
}

int tier_build_timer(struct spec_runtime *rt, size_t i, char *err, size_t errsz)
{
	struct tier *t = rt->tier;
	uint64_t addr;
	int ret;

	if (!t || t->fns[i])
		return 0;
	ret = jit_build_timer(rt->jit, i, &t->timers[i], &addr, err, errsz);
	if (!ret) {
		/* Read under lock by the compile thread's plans and routes. */
		pthread_mutex_lock(&rt->lock);
		t->fns[i] = (void *)(uintptr_t)addr;
		pthread_mutex_unlock(&rt->lock);
	}
	return ret;
}

void *tier_route(struct spec_runtime *rt, size_t i, void *fn)
{
	struct tier *t = rt->tier;

	if (!t || !t->armed[i])
		return fn;
	atomic_store_explicit(&t->timers[i].target, fn, memory_order_release);
	return t->fns[i];
}

static bool skips_first(const struct tier_hist *h)
{
	return h->first_losses > 0;
}

static bool skips_final(const struct tier_hist *h)
{
	return h->final_ties >= TIER_FINAL_TIES;
}

int tier_plan(struct spec_runtime *rt, const struct spec_config *cfg, struct tier_plan *p)
{
	struct jit_setting *s = calloc(rt->pts.n ? rt->pts.n : 1, sizeof(*s));
	struct tier *t = rt->tier;
	bool recheck = false, all_ties = true, all_losses = true;
	size_t i;
	int ret;

	memset(p, 0, sizeof(*p));
	p->changed = calloc(rt->nr_handlers ? rt->nr_handlers : 1, sizeof(*p->changed));
	if (!s || !p->changed) {
		free(s);
		tier_plan_free(p);
		return -ENOMEM;
	}
	/* Which functions change depends on modes and sampling only. */
	for (i = 0; i < cfg->n; i++) {
		const struct spec_point *pt = points_find(&rt->pts, cfg->e[i].label);

		if (pt) {
			s[pt->idx].mode = cfg->e[i].mode;
			s[pt->idx].every = cfg->e[i].every;
		}
	}
	/* Callers installing from the cache need not wait for this scan. */
	pthread_mutex_lock(&rt->jit_lock);
	ret = jit_changed_handlers(rt->jit, s, p->changed);
	pthread_mutex_unlock(&rt->jit_lock);
	free(s);
	pthread_mutex_lock(&rt->lock);
	for (i = 0; !ret && t && i < rt->nr_handlers; i++) {
		struct tier_hist *h = &t->hist[i];

		if (!p->changed[i] || !t->fns[i])
			continue;
		p->measure = true;
		recheck |= ++h->jobs % TIER_RECHECK == 0;
		all_ties &= skips_final(h);
		all_losses &= skips_first(h);
	}
	pthread_mutex_unlock(&rt->lock);
	if (ret) {
		tier_plan_free(p);
		return ret;
	}
	if (p->measure && !recheck) {
		/* Both would leave nothing: the final tier is the safe one. */
		p->skip_first = all_losses;
		p->skip_final = all_ties && !all_losses;
	}
	return 0;
}

void tier_plan_free(struct tier_plan *p)
{
	free(p->changed);
	p->changed = NULL;
}

/* Slots hold what the current variant routes to now (lock held). */
static void reroute(struct spec_runtime *rt)
{
	if (rt->current)
		variant_install(rt, rt->current);
}

void tier_arm(struct spec_runtime *rt, const struct tier_plan *p)
{
	struct tier *t = rt->tier;
	size_t i;

	for (i = 0; i < rt->nr_handlers; i++) {
		t->armed[i] = p->changed[i] && t->fns[i];
		atomic_store_explicit(&t->timers[i].samples, 0, memory_order_relaxed);
	}
	reroute(rt);
}

void tier_disarm(struct spec_runtime *rt)
{
	struct tier *t = rt->tier;

	if (!t)
		return;
	memset(t->armed, 0, rt->nr_handlers * sizeof(*t->armed));
	reroute(rt);
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void snapshot(struct spec_runtime *rt, struct tier_window *w)
{
	struct tier *t = rt->tier;
	uint64_t v[JIT_TIMER_RING];
	size_t i, k, n;

	for (i = 0; i < rt->nr_handlers; i++) {
		struct jit_timer *tm = &t->timers[i];

		n = atomic_load_explicit(&tm->samples, memory_order_relaxed);
		n = n < JIT_TIMER_RING ? n : JIT_TIMER_RING;
		for (k = 0; k < n; k++)
			v[k] = atomic_load_explicit(&tm->ring[k], memory_order_relaxed);
		qsort(v, n, sizeof(v[0]), by_value);
		if (w) {
			w->n[i] = t->armed[i] ? (uint32_t)n : 0;
			w->median[i] = n ? v[n / 2] : 0;
		}
		if (n >= TIER_MIN_SAMPLES && t->armed[i])
			t->hist[i].last_cycles = v[n / 2];
		if (n >= TIER_MIN_SAMPLES)
			atomic_store_explicit(&tm->mask,
					      v[n / 2] > TIER_SLOW_CYCLES ? 0 : TIER_MASK_FAST,
					      memory_order_relaxed);
		atomic_store_explicit(&tm->samples, 0, memory_order_relaxed);
	}
}

int tier_window_alloc(struct spec_runtime *rt, struct tier_window *w)
{
	size_t n = rt->nr_handlers ? rt->nr_handlers : 1;

	w->median = calloc(n, sizeof(*w->median));
	w->n = calloc(n, sizeof(*w->n));
	if (w->median && w->n)
		return 0;
	tier_window_free(w);
	return -ENOMEM;
}

void tier_window_free(struct tier_window *w)
{
	free(w->median);
	free(w->n);
	w->median = NULL;
	w->n = NULL;
}

static bool window_full(struct spec_runtime *rt)
{
	struct tier *t = rt->tier;
	size_t i;

	for (i = 0; i < rt->nr_handlers; i++) {
		if (t->armed[i] && atomic_load_explicit(&t->timers[i].samples,
							memory_order_relaxed) < TIER_MIN_SAMPLES)
			return false;
	}
	return true;
}

/*
 * Let the running window fill for up to @ns (lock held; the compile thread
 * sleeps meanwhile, which on a busy machine is when callers get to run).
 * False if it did not fill, or a job, close or another installation came.
 */
static bool wait_samples(struct spec_runtime *rt, uint64_t ns, const struct variant *expect)
{
	struct timespec end, step;

	clock_wait_until(&end, ns);
	while (!window_full(rt)) {
		if (rt->stop || rt->qhead || rt->current != expect || clock_passed(&end))
			return false;
		/* Woken by new jobs; otherwise poll the samples. */
		clock_wait_until(&step, TIER_POLL_NS);
		pthread_cond_timedwait(&rt->cond, &rt->lock, &step);
	}
	return true;
}

void tier_next_window(struct spec_runtime *rt, struct tier_window *w)
{
	if (!rt->tier || !w)
		return;
	wait_samples(rt, TIER_FILL_NS, rt->current);
	snapshot(rt, w);
}

static bool faster(uint64_t a, uint64_t b)
{
	return a * 100 < b * (100 - TIER_MARGIN_PCT);
}

static bool usable(const struct tier_window *a, const struct tier_window *b, size_t i)
{
	return a && b && a->n[i] >= TIER_MIN_SAMPLES && b->n[i] >= TIER_MIN_SAMPLES;
}

static bool cached(struct spec_runtime *rt, const struct variant *v)
{
	const struct variant *c;

	for (c = rt->cache; c; c = c->next) {
		if (c == v)
			return true;
	}
	return false;
}

/* The first tier ran faster: it is this configuration's code from now on. */
static void keep_first(struct spec_runtime *rt, struct variant *first, struct variant *final)
{
	char *key = strdup(final->key);

	if (!key)
		return;
	variant_install(rt, first);
	variant_retire(rt, final);
	free(first->key);
	first->key = key;
	rt->stats.tier_first_kept++;
}

void tier_decide(struct spec_runtime *rt, const struct tier_plan *p, struct tier_window *old,
		 struct tier_window *first_w, struct variant *first, struct variant *final)
{
	struct tier *t = rt->tier;
	struct tier_window last = {0};
	uint64_t sum_old = 0, sum_fo = 0, sum_first = 0, sum_final = 0;
	bool full;
	size_t i;

	if (!t || !p->measure || !first || tier_window_alloc(rt, &last))
		goto out;
	full = wait_samples(rt, TIER_WINDOW_NS, final ? final : first);
	snapshot(rt, &last);
	if (!full)
		goto out;
	for (i = 0; i < rt->nr_handlers; i++) {
		struct tier_hist *h = &t->hist[i];
		/* Under the first tier: its own window, or the last one. */
		const struct tier_window *fw = final ? first_w : &last;

		if (!t->armed[i])
			continue;
		if (first && usable(old, fw, i)) {
			h->first_losses =
				faster(old->median[i], fw->median[i]) ? h->first_losses + 1 : 0;
			sum_old += old->median[i];
			sum_fo += fw->median[i];
		}
		pr_debug(&rt->log,
			 "tiers of '%s': %" PRIu64 " cycles before (%u timed), first %" PRIu64
			 " (%u), final %" PRIu64 " (%u)",
			 jit_handler_name(rt->jit, i), old ? old->median[i] : 0,
			 old ? old->n[i] : 0, fw->median[i], fw->n[i], final ? last.median[i] : 0,
			 final ? last.n[i] : 0);
		if (first && final && usable(first_w, &last, i)) {
			h->final_ties =
				faster(last.median[i], first_w->median[i]) ? 0 : h->final_ties + 1;
			sum_first += first_w->median[i];
			sum_final += last.median[i];
		}
	}
	rt->stats.tier_measured++;
	rt->stats.last_old_cycles = sum_old;
	rt->stats.last_first_cycles = final ? sum_first : sum_fo;
	rt->stats.last_final_cycles = sum_final;
	if (first && final && sum_final && faster(sum_first, sum_final) && cached(rt, first) &&
	    rt->current == final) {
		tier_disarm(rt);
		keep_first(rt, first, final);
	}
out:
	tier_window_free(&last);
	tier_disarm(rt);
}

int spec_runtime__tiers(struct spec_runtime *rt, const char *name, struct spec_tiers *out,
			size_t sz)
{
	struct spec_tiers v = {0};
	struct tier_hist *h;
	int i;

	if (!rt || !name || !out || !sz)
		return libspec_err(-EINVAL);
	if (!rt->tier)
		return libspec_err(-EOPNOTSUPP);
	i = jit_handler_index(rt->jit, name);
	if (i < 0)
		return libspec_err(i);
	pthread_mutex_lock(&rt->lock);
	h = &rt->tier->hist[i];
	v.jobs = h->jobs;
	v.final_ties = h->final_ties;
	v.first_losses = h->first_losses;
	v.skip_first = skips_first(h);
	v.skip_final = skips_final(h) && !v.skip_first;
	v.last_cycles = h->last_cycles;
	pthread_mutex_unlock(&rt->lock);
	memset(out, 0, sz);
	memcpy(out, &v, sz < sizeof(v) ? sz : sizeof(v));
	return 0;
}
