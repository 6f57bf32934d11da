// SPDX-License-Identifier: GPL-2.0
/*
 * The merge policy. Every period the optimizer thread reads how many raises
 * each event had in that period (graph deltas) and merges the events with
 * at least hot_share of them. Events of the current build stay while they
 * keep half that share or while the event they are subsumed into stays
 * hot: subsumed raises run inlined and are no longer sampled, so without
 * this their count would drop and the set would flap. A rebinding of a
 * merged event wakes the thread at once, which rebuilds the same set.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events/event_graph.h"
#include "events/event_merge.h"
#include "events/event_policy.h"
#include "log.h"

/* Fewer sampled raises in a period than this say nothing: keep the set. */
#define MIN_PERIOD_SAMPLES 32

struct ev_optimizer {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop, dirty;
	uint64_t *prev; /* graph counts at the last period */
	/* metric check of the last build */
	bool judging;
	double before;
	unsigned int hold; /* periods to wait after a rejected build */
};

struct spec_event **ev_policy_choose(struct spec_events *evs, size_t *n)
{
	uint32_t i, nr = atomic_load(&evs->nr_events);
	struct spec_event **set = calloc(nr + 1, sizeof(*set));
	uint64_t *counts = calloc(nr + 1, sizeof(*counts)), total = 0;

	*n = 0;
	if (!set || !counts) {
		free(set);
		free(counts);
		return NULL;
	}
	ev_graph_counts(evs, counts, nr);
	for (i = 0; i < nr; i++)
		total += counts[i];
	for (i = 0; i < nr; i++) {
		struct spec_event *ev = evs->events[i];

		if (!spec_event__nr_bindings(ev))
			continue;
		if (!total || (double)counts[i] >= evs->hot_share * (double)total)
			set[(*n)++] = ev;
	}
	free(counts);
	return set;
}

/* The registry's on_rebind hook: a merged event changed, rebuild now. */
static void rebound(struct spec_events *evs, struct spec_event *ev)
{
	struct ev_optimizer *o = evs->opt;

	if (!o || !atomic_load_explicit(&ev->merged, memory_order_relaxed))
		return;
	pthread_mutex_lock(&o->lock);
	o->dirty = true;
	pthread_cond_signal(&o->cond);
	pthread_mutex_unlock(&o->lock);
}

static bool in(const uint32_t *idx, size_t n, uint32_t x)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (idx[i] == x)
			return true;
	}
	return false;
}

/* The set for this period into @want; returns its size. */
static size_t choose(struct spec_events *evs, const uint64_t *delta, uint32_t nr,
		     const uint32_t *cur, const uint32_t *into, size_t ncur, uint32_t *want)
{
	uint64_t total = 0;
	size_t n = 0, i;
	bool grew;
	uint32_t e;

	for (e = 0; e < nr; e++)
		total += delta[e];
	if (total < MIN_PERIOD_SAMPLES) {
		memcpy(want, cur, ncur * sizeof(*cur));
		return ncur;
	}
	for (e = 0; e < nr; e++) {
		double share = (double)delta[e] / (double)total;
		bool was = in(cur, ncur, e);

		if (share >= evs->hot_share || (was && share >= evs->hot_share / 2))
			want[n++] = e;
	}
	/* Chains: keep what is inlined into a kept event, to a fixpoint. */
	for (grew = true; grew;) {
		grew = false;
		for (i = 0; i < ncur; i++) {
			if (into[i] != SPEC_EV_ROOT && in(want, n, into[i]) &&
			    !in(want, n, cur[i])) {
				want[n++] = cur[i];
				grew = true;
			}
		}
	}
	/* Events without handlers have nothing to merge. */
	for (i = 0; i < n;) {
		if (!spec_event__nr_bindings(evs->events[want[i]]))
			want[i] = want[--n];
		else
			i++;
	}
	return n;
}

static bool same_set(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	size_t i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		if (!in(b, nb, a[i]))
			return false;
	}
	return true;
}

/* Judge the last build by the metric; true when it was rejected. */
static bool metric_rejects(struct spec_events *evs, struct ev_optimizer *o)
{
	double now;

	if (!evs->metric || !o->judging)
		return false;
	now = evs->metric(evs->metric_ctx);
	o->judging = false;
	if (now >= 0.95 * o->before)
		return false;
	pr_info(&evs->log, "events: merged code lowered the metric (%g -> %g): back to generic",
		o->before, now);
	spec_events__unmerge(evs);
	o->hold = 2;
	return true;
}

static void step(struct spec_events *evs, struct ev_optimizer *o, bool dirty)
{
	uint32_t nr = atomic_load(&evs->nr_events), *cur, *into, *want;
	uint64_t *counts = calloc(nr + 1, sizeof(*counts));
	struct spec_event **set = calloc(nr + 1, sizeof(*set));
	size_t ncur, nwant, i;
	bool stale = false;

	cur = calloc(3 * (size_t)(nr + 1), sizeof(*cur));
	if (!counts || !set || !cur)
		goto out;
	into = cur + nr + 1;
	want = into + nr + 1;
	ev_graph_counts(evs, counts, nr);
	for (i = 0; i < nr; i++) {
		uint64_t c = counts[i];

		counts[i] = c - o->prev[i];
		o->prev[i] = c;
	}
	if (metric_rejects(evs, o) || (o->hold && o->hold--))
		goto out;
	pthread_mutex_lock(&evs->code_lock);
	ncur = ev_merged_set(evs, cur, into, nr);
	pthread_mutex_unlock(&evs->code_lock);
	nwant = choose(evs, counts, nr, cur, into, ncur, want);
	if (!dirty && same_set(cur, ncur, want, nwant))
		goto out;
	for (i = 0; i < nwant; i++)
		set[i] = evs->events[want[i]];
	pr_debug(&evs->log, "events: policy: %zu events (was %zu)%s", nwant, ncur,
		 dirty ? ", rebound" : "");
	for (i = 0; i < nwant; i++)
		pr_debug(&evs->log, "events: policy:  %s", set[i]->name);
	if (evs->metric) {
		o->before = evs->metric(evs->metric_ctx);
		o->judging = true;
	}
	if (nwant)
		ev_build(evs, set, nwant, true, &stale);
	else
		spec_events__unmerge(evs);
	if (stale) {
		pthread_mutex_lock(&o->lock);
		o->dirty = true;
		pthread_mutex_unlock(&o->lock);
	}
out:
	free(counts);
	free(set);
	free(cur);
}

static void *optimizer(void *arg)
{
	struct spec_events *evs = arg;
	struct ev_optimizer *o = evs->opt;
	struct timespec ts;
	bool dirty;

	pthread_mutex_lock(&o->lock);
	while (!o->stop) {
		if (!o->dirty) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			ts.tv_nsec += (long)(evs->period_ms % 1000) * 1000000;
			ts.tv_sec += evs->period_ms / 1000 + ts.tv_nsec / 1000000000;
			ts.tv_nsec %= 1000000000;
			pthread_cond_timedwait(&o->cond, &o->lock, &ts);
		}
		if (o->stop)
			break;
		dirty = o->dirty;
		o->dirty = false;
		pthread_mutex_unlock(&o->lock);
		step(evs, o, dirty);
		ev_reclaim(evs);
		pthread_mutex_lock(&o->lock);
	}
	pthread_mutex_unlock(&o->lock);
	return NULL;
}

int ev_policy_start(struct spec_events *evs)
{
	struct ev_optimizer *o = calloc(1, sizeof(*o));
	pthread_condattr_t ca;

	if (!o)
		return -ENOMEM;
	o->prev = calloc(evs->max_events + 1, sizeof(*o->prev));
	if (!o->prev) {
		free(o);
		return -ENOMEM;
	}
	pthread_mutex_init(&o->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&o->cond, &ca);
	pthread_condattr_destroy(&ca);
	evs->opt = o;
	evs->on_rebind = rebound;
	if (pthread_create(&o->thread, NULL, optimizer, evs)) {
		evs->opt = NULL;
		evs->on_rebind = NULL;
		pthread_cond_destroy(&o->cond);
		pthread_mutex_destroy(&o->lock);
		free(o->prev);
		free(o);
		return -EAGAIN;
	}
	return 0;
}

void ev_policy_stop(struct spec_events *evs)
{
	struct ev_optimizer *o = evs->opt;

	if (!o)
		return;
	/* Rebindings (under evs->lock) stop calling in before o goes. */
	pthread_mutex_lock(&evs->lock);
	evs->on_rebind = NULL;
	pthread_mutex_unlock(&evs->lock);
	pthread_mutex_lock(&o->lock);
	o->stop = true;
	pthread_cond_signal(&o->cond);
	pthread_mutex_unlock(&o->lock);
	pthread_join(o->thread, NULL);
	evs->opt = NULL;
	pthread_cond_destroy(&o->cond);
	pthread_mutex_destroy(&o->lock);
	free(o->prev);
	free(o);
}
