/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event system's objects, shared by the event*.c files: events by name,
 * their bindings as immutable snapshots (readers never lock; a rebinding
 * publishes a new snapshot and retires the old one to the runtime's epoch),
 * and the merged code installed per event.
 */
#ifndef LIBSPEC_EVENT_REGISTRY_H
#define LIBSPEC_EVENT_REGISTRY_H

#include <pthread.h>
#include <stdatomic.h>

#include "libspec/events.h"
#include "runtime.h"

struct ev_binding {
	int64_t id;
	int order;
	uint64_t seq;	       /* binding time: ties of order */
	uint32_t handler;      /* index in the runtime's handler table */
	spec_ev_handler_fn fn; /* the handler's stable entry stub */
	int64_t args[SPEC_EV_MAX_ARGS];
};

struct ev_bindings {
	uint64_t version;
	uint64_t retired_at;
	struct ev_bindings *next; /* on the retired list */
	size_t n;
	struct ev_binding b[];
};

typedef void (*ev_merged_fn)(struct spec_ev_ctx *ctx, int64_t a0, int64_t a1, int64_t a2,
			     int64_t a3);

/* One event's entry point in a merged build, valid for one bindings version. */
struct ev_merged {
	ev_merged_fn fn;
	uint64_t version;
};

struct spec_event {
	struct spec_events *evs;
	uint32_t idx;
	char *name;
	/* Read by JIT guards at this fixed address; equals bindings->version
	 * once a rebinding is complete.
	 */
	_Atomic uint64_t version;
	_Atomic(struct ev_bindings *) bindings;
	_Atomic(struct ev_merged *) merged;
};

/* One merged build: its code and its per-event entries. */
struct ev_code {
	struct jit_code *code;
	struct ev_merged *entries;
	struct spec_event **events; /* [n]: what entries[i] belongs to */
	uint32_t *subsumed_into;    /* [n]: raiser event idx, or SPEC_EV_ROOT */
	size_t n;
	uint64_t retired_at;
	struct ev_code *next;
};

struct ev_queue;
struct ev_optimizer;

struct spec_events {
	struct spec_runtime *rt;
	void *user;
	uint32_t max_events, sample_every;
	double hot_share;
	uint32_t period_ms;
	spec_metric_fn metric;
	void *metric_ctx;
	struct libspec_log log; /* opts.print, else the runtime's */

	/* Creation and names: lookups are lock-free (entries only appear). */
	_Atomic uint32_t nr_events;
	struct spec_event **events;	     /* [max_events] */
	_Atomic(struct spec_event *) *names; /* open addressing, [name_slots] */
	uint32_t name_slots;

	/* Per handler of the runtime: 0 not checked yet, 1 has the handler
	 * type, -EINVAL not (checked once: binds must not wait for the JIT
	 * lock a background build holds).
	 */
	_Atomic int *handler_ok;

	/* Graph counters, [(max_events + 1) * max_events * 2]: row
	 * max_events is the service (root); relaxed adds on sampled raises.
	 */
	_Atomic uint64_t *edges;
	/* The same by raising handler, [nr_handlers * max_events * 2]. */
	_Atomic uint64_t *hedges;
	uint32_t nr_handlers;

	/*
	 * Lock order: lock, then the optimizer's. lock is the bindings'
	 * writers' own: merges, the optimizer and reclamation of code never
	 * take it (a build copies the bindings inside the runtime's epoch), so
	 * a bind waits at most for another rebinding, not for a merge's
	 * bookkeeping. code_lock is that bookkeeping's. Neither is held while
	 * taking rt->lock or rt->jit_lock (runtime.h).
	 */
	pthread_mutex_t lock; /* bindings writers, creation, retired snapshots */
	int64_t next_binding;
	uint64_t bind_seq;
	struct ev_bindings *retired;
	size_t nr_retired;
	pthread_mutex_t code_lock; /* the two below, stats, last_ir */
	struct ev_code *code;	   /* installed build, or NULL */
	struct ev_code *retired_code;

	struct ev_queue *queue;
	struct ev_optimizer *opt;
	/* Hook: a rebinding of an event happened (lock held). The optimizer
	 * sets it; the registry only calls it.
	 */
	void (*on_rebind)(struct spec_events *evs, struct spec_event *ev);

	_Atomic uint64_t guard_fails;
	_Atomic uint64_t unknown_raises;
	struct spec_events_stats stats; /* the rest, under code_lock */

	/* Tests only: keep the last build's optimized IR (last_ir, under
	 * code_lock), and mutate the generated code (JIT_EV_MUT_*).
	 */
	bool keep_ir;
	unsigned int test_mutate;
	char *last_ir;
};

/* Event by name without creating it (lock-free), or NULL. */
struct spec_event *ev_lookup(struct spec_events *evs, const char *name);
/* Free retired merged code and bindings snapshots no thread can still use
 * (code_lock, then the JIT lock, not nested; lock briefly).
 */
void ev_reclaim(struct spec_events *evs);
/*
 * What bind and unbind do: free retired snapshots once EV_RECLAIM_BATCH
 * have gathered. Finding what no raise can still read costs a
 * membarrier(2), which waits for every CPU running the process's threads
 * (milliseconds when a compile keeps them busy on a loaded machine): paid
 * once per batch, and by merges and the optimizer meanwhile, never under
 * a lock.
 */
void ev_reclaim_bindings(struct spec_events *evs);
/* Retired snapshots a rebinding lets gather before it frees them itself. */
#define EV_RECLAIM_BATCH 64
/* Retire @c's code (code_lock held); entries must already be unlinked. */
void ev_retire_code(struct spec_events *evs, struct ev_code *c);
void ev_free_code(struct spec_events *evs, struct ev_code *c);

#endif /* LIBSPEC_EVENT_REGISTRY_H */
