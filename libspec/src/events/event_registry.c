// SPDX-License-Identifier: GPL-2.0
/*
 * Events by name, reclamation of what rebindings and builds replaced, and
 * the counters (the system's life is event_system.c). Writers (create, bind,
 * unbind) serialize on evs->lock, builds on evs->code_lock; raisers (and a
 * build copying the bindings) read the published snapshots
 * without locks inside the runtime's epoch, which is what lets a replaced
 * snapshot (or merged code) be freed once no raise can still see it.
 */
#include <stdlib.h>
#include <string.h>

#include "events/event_registry.h"
#include "jit/jit.h"
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

static struct spec_event *event_create(struct spec_events *evs, const char *name, int *err)
{
	uint32_t n = atomic_load_explicit(&evs->nr_events, memory_order_relaxed);
	uint32_t mask = evs->name_slots - 1, i = name_hash(name) & mask;
	struct spec_event *ev;

	if (n == evs->max_events) {
		pr_warn(&evs->log, "events: cannot create '%s': max_events (%u) reached", name,
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
static bool name_ok(struct spec_events *evs, const char *name)
{
	const char *p;

	for (p = name; *p; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			pr_warn(&evs->log,
				"events: bad event name \"%.64s\": byte %d at %zu (printable "
				"ASCII only)",
				name, *p, (size_t)(p - name));
			return false;
		}
	}
	if (p - name > 255) {
		pr_warn(&evs->log,
			"events: event name \"%.32s...\" is %zu bytes long (at most 255)", name,
			(size_t)(p - name));
		return false;
	}
	return true;
}

struct spec_event *spec_events__declare(struct spec_events *evs, const char *name)
{
	struct spec_event *ev;
	int err = 0;

	if (!evs || !name || !*name)
		return libspec_err_ptr(-EINVAL);
	ev = ev_lookup(evs, name);
	if (ev)
		return ev;
	if (!name_ok(evs, name))
		return libspec_err_ptr(-EINVAL);
	pthread_mutex_lock(&evs->lock);
	ev = ev_lookup(evs, name);
	if (!ev)
		ev = event_create(evs, name, &err);
	pthread_mutex_unlock(&evs->lock);
	return ev ? ev : libspec_err_ptr(err);
}

/*
 * A lookup that creates nothing: a misspelled name is the caller's mistake
 * and is named, so it shows before anything is bound to the wrong event.
 */
struct spec_event *spec_events__event(struct spec_events *evs, const char *name)
{
	struct spec_event *ev;

	if (!evs || !name)
		return libspec_err_ptr(-EINVAL);
	ev = ev_lookup(evs, name);
	if (ev)
		return ev;
	pr_warn(&evs->log,
		"events: no event \"%.64s\" (%u declared): declare it with "
		"spec_events__declare() first",
		name, atomic_load_explicit(&evs->nr_events, memory_order_relaxed));
	return libspec_err_ptr(-ENOENT);
}

/*
 * What binaries linked against LIBSPEC_EVENTS_0.2 call as
 * spec_events__event(): it created the event on first use, and they may
 * rely on that.
 */
struct spec_event *spec_events__event_v0_2(struct spec_events *evs, const char *name);
LIBSPEC_API struct spec_event *spec_events__event_v0_2(struct spec_events *evs, const char *name)
{
	return spec_events__declare(evs, name);
}
__asm__(".symver spec_events__event_v0_2, spec_events__event@LIBSPEC_EVENTS_0.2");

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

/* Free what of the retired snapshots (if at least @min) no raise can read. */
static void reclaim_snapshots(struct spec_events *evs, size_t min)
{
	struct ev_bindings *list, *keep = NULL, *dead = NULL, *b;
	size_t kept = 0;
	uint64_t oldest;

	pthread_mutex_lock(&evs->lock);
	if (!evs->retired || evs->nr_retired < min) {
		pthread_mutex_unlock(&evs->lock);
		return;
	}
	list = evs->retired;
	evs->retired = NULL;
	evs->nr_retired = 0;
	pthread_mutex_unlock(&evs->lock);
	oldest = epoch_oldest(&evs->rt->dom);
	while (list) {
		b = list;
		list = b->next;
		if (b->retired_at < oldest) {
			b->next = dead;
			dead = b;
		} else {
			b->next = keep;
			keep = b;
			kept++;
		}
	}
	if (keep) {
		pthread_mutex_lock(&evs->lock);
		for (b = keep; b->next; b = b->next)
			;
		b->next = evs->retired;
		evs->retired = keep;
		evs->nr_retired += kept;
		pthread_mutex_unlock(&evs->lock);
	}
	while (dead) {
		b = dead;
		dead = b->next;
		free(b);
	}
}

void ev_reclaim_bindings(struct spec_events *evs)
{
	reclaim_snapshots(evs, EV_RECLAIM_BATCH);
}

void ev_reclaim(struct spec_events *evs)
{
	struct ev_code **cp, *dead = NULL, *c;
	uint64_t oldest;

	/*
	 * Not the bindings' snapshots: that takes the bindings' lock, which a
	 * merge must never hold while a bind may want it. Binds free them in
	 * batches (ev_reclaim_bindings), the event system's free the rest.
	 */
	pthread_mutex_lock(&evs->code_lock);
	if (!evs->retired_code) {
		pthread_mutex_unlock(&evs->code_lock);
		return;
	}
	oldest = epoch_oldest(&evs->rt->dom);
	for (cp = &evs->retired_code; *cp;) {
		c = *cp;
		if (c->retired_at < oldest) {
			*cp = c->next;
			c->next = dead;
			dead = c;
		} else {
			cp = &c->next;
		}
	}
	pthread_mutex_unlock(&evs->code_lock);
	while (dead) {
		c = dead;
		dead = c->next;
		ev_free_code(evs, c);
	}
}

int spec_events__stats(struct spec_events *evs, struct spec_events_stats *stats, size_t sz)
{
	struct spec_events_stats s;

	if (!evs || !stats || sz > sizeof(s))
		return libspec_err(-EINVAL);
	pthread_mutex_lock(&evs->code_lock);
	s = evs->stats;
	pthread_mutex_unlock(&evs->code_lock);
	s.guard_fails = atomic_load_explicit(&evs->guard_fails, memory_order_relaxed);
	/* As last_error's message counts them (event_dispatch.c). */
	pthread_mutex_lock(&evs->rt->err_lock);
	s.unknown_raises = atomic_load_explicit(&evs->unknown_raises, memory_order_relaxed);
	pthread_mutex_unlock(&evs->rt->err_lock);
	memcpy(stats, &s, sz);
	return 0;
}
