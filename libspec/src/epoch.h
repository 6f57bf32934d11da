/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-thread records of one runtime: the epoch that tells when an old variant
 * can no longer be running, and the thread's sampling tables.
 *
 * Readers (the handler entry stubs) publish the global epoch on entry and 0
 * on exit. The compile thread retires a variant at the epoch current when it
 * was unlinked and frees it once every thread is outside or entered later.
 * With membarrier(2) the entry needs only a compiler barrier: the reclaimer
 * pays for the fence on every CPU instead of each call paying for one.
 */
#ifndef LIBSPEC_EPOCH_H
#define LIBSPEC_EPOCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libspec/libspec.h"

#define SAMPLER_TOPK SPEC_SAMPLE_TOPK

struct topk_slot {
	_Atomic int64_t value;
	_Atomic uint64_t count;
};

/* Beside each slot, for spec_gen() points only (a wide input's high half,
 * the answer): apart, so plain sampling scans no more memory than before.
 */
struct topk_extra {
	_Atomic int64_t value_hi;
	_Atomic int64_t out;
};

struct thread_rec {
	_Atomic uint64_t local;	 /* epoch seen at entry; 0 when outside */
	_Atomic uint64_t nested; /* where nested calls "leave": a sink */
	_Atomic int in_use;	 /* owned by a live thread */
	struct thread_rec *next;
	_Atomic uint64_t gen;	     /* sampler generation of the tables */
	_Atomic uint64_t *point_gen; /* [nr_points]: per point, as the domain's */
	uint32_t *countdown;	     /* [nr_points] calls until the next sample */
	_Atomic uint64_t *samples;   /* [nr_points] */
	struct topk_slot *topk;	     /* [nr_points][SAMPLER_TOPK] */
	struct topk_extra *extra;    /* [nr_points][SAMPLER_TOPK] */
};

struct epoch_domain {
	uint64_t id; /* unique per process lifetime, never reused */
	_Atomic uint64_t global;
	_Atomic(struct thread_rec *) head;
	pthread_key_t key;
	size_t nr_points;
	_Atomic uint64_t gen; /* bumped to reset every thread's samples */
	/* [nr_points]: bumped to reset one point's samples in every thread;
	 * allocated with the first thread record (the number of points is
	 * known only after the domain is made), so set wherever a record is.
	 */
	_Atomic(_Atomic uint64_t *) point_gen;
	bool membarrier;
};

/*
 * Where JIT code finds this thread's record without a call: the offsets of
 * the thread-local cache from the thread pointer (the same in every thread,
 * the cache being in static TLS) and of the fields it reads.
 */
struct epoch_tls {
	intptr_t off_id, off_rec;		     /* from the thread pointer (%fs on x86-64) */
	size_t off_local, off_nested, off_countdown; /* in struct thread_rec */
};

/* Fills @t; false where inline access is not supported (then JIT code calls
 * spec_rt_enter()/spec_rt_sample() for everything).
 */
bool epoch_tls_layout(struct epoch_tls *t);

int epoch_domain_init(struct epoch_domain *d, size_t nr_points);
/* No thread may be inside a handler or use the domain afterwards. */
void epoch_domain_fini(struct epoch_domain *d);

/* This thread's record, created on first use; NULL only on ENOMEM. */
struct thread_rec *epoch_rec(struct epoch_domain *d);

/*
 * Called by the JIT entry stubs before every handler call. Returns the word
 * the stub stores 0 to (release) when the call returns: the thread's epoch
 * for an outermost call, a sink for a nested one (the outer call keeps the
 * thread published). One call in and an inline store out keep the stub cheap.
 */
_Atomic uint64_t *spec_rt_enter(struct epoch_domain *d);

/* Advance the epoch after unlinking; returns the epoch to retire at. */
uint64_t epoch_retire(struct epoch_domain *d);
/*
 * Oldest epoch a thread inside a handler may have seen (UINT64_MAX when no
 * thread is inside): a variant retired at e can be freed when e < oldest.
 */
uint64_t epoch_oldest(struct epoch_domain *d);

#endif /* LIBSPEC_EPOCH_H */
