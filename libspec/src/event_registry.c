// SPDX-License-Identifier: GPL-2.0
/*
 * Event systems, events by name, and bindings. Writers (create, bind,
 * unbind) serialize on evs->lock; raisers read the published snapshots
 * without locks inside the runtime's epoch, which is what lets a replaced
 * snapshot (or merged code) be freed once no raise can still see it.
 */
#include <stdlib.h>
#include <string.h>

#include "event_dispatch.h"
#include "event_policy.h"
#include "event_queue.h"
#include "event_registry.h"
#include "jit.h"
#include "jit_event.h"
#include "log.h"

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

struct spec_event *ev_lookup(struct spec_events *evs, const char *name)
{
	uint32_t mask = evs->name_slots - 1, i = name_hash(name) & mask;
	struct spec_event *ev;

	while ((ev = atomic_load_explicit(&evs->names[i], memory_order_acquire))) {
		if (!strcmp(ev->name, name))
			return ev;
		i = (i + 1) & mask;
	}
	return NULL;
}

static int define_helpers(struct spec_runtime *rt)
{
	static const struct {
		const char *name;
		void *addr;
	} helpers[] = {
		{"__spec_ev_raise", (void *)__spec_ev_raise},
		{"__spec_ev_raise_async", (void *)__spec_ev_raise_async},
		{"__spec_ev_raise_delayed", (void *)__spec_ev_raise_delayed},
		{"__spec_ev_raise_ev", (void *)ev_raise_from},
		{"__spec_ev_raise_ev4", (void *)ev_raise_from4},
	};
	size_t i;

	for (i = 0; i < sizeof(helpers) / sizeof(helpers[0]); i++) {
		int ret = spec_runtime__define_symbol(rt, helpers[i].name, helpers[i].addr);

		if (ret)
			return ret;
	}
	return 0;
}

static int events_init(struct spec_events *evs, struct spec_runtime *rt,
		       const struct spec_events_opts *opts)
{
	size_t nedges;

	pthread_mutex_init(&evs->lock, NULL);
	evs->rt = rt;
	evs->user = OPTS_GET(opts, user, NULL);
	evs->max_events = OPTS_GET(opts, max_events, 0) ?: 64;
	evs->sample_every = OPTS_GET(opts, sample_every, 0) ?: 64;
	evs->hot_share = OPTS_GET(opts, hot_share, 0) ?: 0.05;
	evs->period_ms = OPTS_GET(opts, period_ms, 0) ?: 50;
	evs->metric = OPTS_GET(opts, metric, NULL);
	evs->metric_ctx = OPTS_GET(opts, metric_ctx, NULL);
	if (evs->max_events > 1024 || evs->hot_share < 0 || evs->hot_share > 1) {
		pr_warn("events: max_events %u (at most 1024) or hot_share %g (0..1) out of "
			"range\n",
			evs->max_events, evs->hot_share);
		return -EINVAL;
	}
	for (evs->name_slots = 4; evs->name_slots < 2 * evs->max_events; evs->name_slots *= 2)
		;
	nedges = (size_t)(evs->max_events + 1) * evs->max_events * 2;
	evs->events = calloc(evs->max_events, sizeof(*evs->events));
	evs->names = calloc(evs->name_slots, sizeof(*evs->names));
	evs->edges = calloc(nedges, sizeof(*evs->edges));
	evs->nr_handlers = (uint32_t)jit_nr_handlers(rt->jit);
	evs->handler_ok = calloc(evs->nr_handlers + 1, sizeof(*evs->handler_ok));
	evs->hedges =
		calloc((size_t)evs->nr_handlers * evs->max_events * 2 + 1, sizeof(*evs->hedges));
	if (!evs->events || !evs->names || !evs->edges || !evs->handler_ok || !evs->hedges)
		return -ENOMEM;
	evs->next_binding = 1;
	return 0;
}

/*
 * Which functions have the handler type, found once now (no compile can
 * hold the JIT lock before the runtime loads): a bind must not wait for it.
 */
static void check_handlers(struct spec_events *evs)
{
	char msg[RT_MSG_MAX];
	uint32_t i;

	pthread_mutex_lock(&evs->rt->jit_lock);
	for (i = 0; i < evs->nr_handlers; i++)
		evs->handler_ok[i] =
			jit_event_check_handler(evs->rt->jit, i, msg, sizeof(msg)) ?: 1;
	pthread_mutex_unlock(&evs->rt->jit_lock);
}

/* The runtime's load hook: every handler's stub, built before any bind. */
static void build_stubs(void *arg)
{
	struct spec_events *evs = arg;
	uint32_t i;

	for (i = 0; i < evs->nr_handlers; i++) {
		if (atomic_load(&evs->handler_ok[i]) == 1 &&
		    !spec_runtime__handler(evs->rt, jit_handler_name(evs->rt->jit, i)))
			pr_warn("events: no stub for handler '%s': %s\n",
				jit_handler_name(evs->rt->jit, i), strerror(errno));
	}
}

struct spec_events *spec_events__new(struct spec_runtime *rt, const struct spec_events_opts *opts)
{
	struct spec_events *evs;
	int ret;

	if (!rt || !OPTS_VALID(opts, spec_events_opts))
		return libspec_err_ptr(-EINVAL);
	if (rt->load_hook) {
		pr_warn("events: the runtime has an event system already (one per runtime)\n");
		return libspec_err_ptr(-EBUSY);
	}
	evs = calloc(1, sizeof(*evs));
	if (!evs)
		return libspec_err_ptr(-ENOMEM);
	ret = events_init(evs, rt, opts);
	if (!ret)
		ret = define_helpers(rt);
	if (!ret) {
		check_handlers(evs);
		rt->load_hook_ctx = evs;
		rt->load_hook = build_stubs;
	}
	if (!ret)
		ret = ev_queue_start(evs, OPTS_GET(opts, dispatch_thread, false));
	if (!ret && OPTS_GET(opts, optimize, false))
		ret = ev_policy_start(evs);
	if (ret) {
		if (ret == -EBUSY)
			pr_warn("events: create the event system before spec_runtime__load()\n");
		spec_events__free(evs);
		return libspec_err_ptr(ret);
	}
	return evs;
}

void spec_events__free(struct spec_events *evs)
{
	uint32_t i;

	if (!evs)
		return;
	if (evs->rt->load_hook_ctx == evs) {
		evs->rt->load_hook = NULL;
		evs->rt->load_hook_ctx = NULL;
	}
	ev_policy_stop(evs);
	ev_queue_stop(evs);
	if (evs->code) {
		for (i = 0; i < evs->code->n; i++)
			atomic_store(&evs->code->events[i]->merged, NULL);
		ev_retire_code(evs, evs->code);
		evs->code = NULL;
	}
	/* No raise may run any more: everything retired can go. */
	while (evs->retired_code) {
		struct ev_code *c = evs->retired_code;

		evs->retired_code = c->next;
		ev_free_code(evs, c);
	}
	while (evs->retired) {
		struct ev_bindings *b = evs->retired;

		evs->retired = b->next;
		free(b);
	}
	for (i = 0; evs->events && i < atomic_load(&evs->nr_events); i++) {
		free(atomic_load(&evs->events[i]->bindings));
		free(evs->events[i]->name);
		free(evs->events[i]);
	}
	pthread_mutex_destroy(&evs->lock);
	free(evs->events);
	free(evs->names);
	free(evs->edges);
	free(evs->handler_ok);
	free(evs->hedges);
	free(evs->last_ir);
	free(evs);
}

static struct spec_event *event_create(struct spec_events *evs, const char *name, int *err)
{
	uint32_t n = atomic_load_explicit(&evs->nr_events, memory_order_relaxed);
	uint32_t mask = evs->name_slots - 1, i = name_hash(name) & mask;
	struct spec_event *ev;

	if (n == evs->max_events) {
		pr_warn("events: cannot create '%s': max_events (%u) reached\n", name,
			evs->max_events);
		*err = -ENOSPC;
		return NULL;
	}
	ev = calloc(1, sizeof(*ev));
	if (ev) {
		ev->name = strdup(name);
		ev->bindings = calloc(1, sizeof(struct ev_bindings));
	}
	if (!ev || !ev->name || !ev->bindings) {
		if (ev) {
			free(ev->name);
			free(ev->bindings);
		}
		free(ev);
		*err = -ENOMEM;
		return NULL;
	}
	ev->evs = evs;
	ev->idx = n;
	evs->events[n] = ev;
	atomic_store_explicit(&evs->nr_events, n + 1, memory_order_release);
	while (atomic_load_explicit(&evs->names[i], memory_order_relaxed))
		i = (i + 1) & mask;
	atomic_store_explicit(&evs->names[i], ev, memory_order_release);
	return ev;
}

/* Printable ASCII, at most 255 bytes (DOT and JSON escape quotes). */
static bool name_ok(const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			pr_warn("events: bad event name \"%.64s\": byte %d at %zu (printable "
				"ASCII only)\n",
				name, *p, (size_t)(p - name));
			return false;
		}
	}
	if (p - name > 255) {
		pr_warn("events: event name \"%.32s...\" is %zu bytes long (at most 255)\n", name,
			(size_t)(p - name));
		return false;
	}
	return true;
}

struct spec_event *spec_events__event(struct spec_events *evs, const char *name)
{
	struct spec_event *ev;
	int err = 0;

	if (!evs || !name || !*name)
		return libspec_err_ptr(-EINVAL);
	ev = ev_lookup(evs, name);
	if (ev)
		return ev;
	if (!name_ok(name))
		return libspec_err_ptr(-EINVAL);
	pthread_mutex_lock(&evs->lock);
	ev = ev_lookup(evs, name);
	if (!ev)
		ev = event_create(evs, name, &err);
	pthread_mutex_unlock(&evs->lock);
	return ev ? ev : libspec_err_ptr(err);
}

struct spec_event *spec_events__find(struct spec_events *evs, const char *name)
{
	struct spec_event *ev;

	if (!evs || !name)
		return libspec_err_ptr(-EINVAL);
	ev = ev_lookup(evs, name);
	return ev ? ev : libspec_err_ptr(-ENOENT);
}

const char *spec_event__name(const struct spec_event *ev)
{
	return ev ? ev->name : NULL;
}

void ev_retire_code(struct spec_events *evs, struct ev_code *c)
{
	c->retired_at = epoch_retire(&evs->rt->dom);
	c->next = evs->retired_code;
	evs->retired_code = c;
}

void ev_free_code(struct spec_events *evs, struct ev_code *c)
{
	if (c->code) {
		pthread_mutex_lock(&evs->rt->jit_lock);
		jit_free_code(evs->rt->jit, c->code);
		pthread_mutex_unlock(&evs->rt->jit_lock);
	}
	free(c->entries);
	free(c->events);
	free(c->subsumed_into);
	free(c);
}

static void reclaim(struct spec_events *evs, bool code)
{
	struct ev_bindings **bp, *bdead = NULL;
	struct ev_code **cp, *cdead = NULL;
	uint64_t oldest;

	pthread_mutex_lock(&evs->lock);
	if (!evs->retired && (!code || !evs->retired_code)) {
		pthread_mutex_unlock(&evs->lock);
		return;
	}
	oldest = epoch_oldest(&evs->rt->dom);
	for (bp = &evs->retired; *bp;) {
		struct ev_bindings *b = *bp;

		if (b->retired_at < oldest) {
			*bp = b->next;
			b->next = bdead;
			bdead = b;
		} else {
			bp = &b->next;
		}
	}
	for (cp = &evs->retired_code; code && *cp;) {
		struct ev_code *c = *cp;

		if (c->retired_at < oldest) {
			*cp = c->next;
			c->next = cdead;
			cdead = c;
		} else {
			cp = &c->next;
		}
	}
	pthread_mutex_unlock(&evs->lock);
	while (bdead) {
		struct ev_bindings *b = bdead;

		bdead = b->next;
		free(b);
	}
	while (cdead) {
		struct ev_code *c = cdead;

		cdead = c->next;
		ev_free_code(evs, c);
	}
}

void ev_reclaim(struct spec_events *evs)
{
	reclaim(evs, true);
}

void ev_reclaim_bindings(struct spec_events *evs)
{
	reclaim(evs, false);
}

int spec_events__stats(struct spec_events *evs, struct spec_events_stats *stats, size_t sz)
{
	struct spec_events_stats s;

	if (!evs || !stats || sz > sizeof(s))
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&evs->lock);
	s = evs->stats;
	pthread_mutex_unlock(&evs->lock);
	s.guard_fails = atomic_load_explicit(&evs->guard_fails, memory_order_relaxed);
	s.unknown_raises = atomic_load_explicit(&evs->unknown_raises, memory_order_relaxed);
	memcpy(stats, &s, sz);
	return 0;
}
