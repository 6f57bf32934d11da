/* SPDX-License-Identifier: GPL-2.0 */
/* The sampled event graph: recording on the raise path, snapshots, export. */
#ifndef LIBSPEC_EVENT_GRAPH_H
#define LIBSPEC_EVENT_GRAPH_H

#include "events/event_registry.h"

/* Calls until this thread's next sample (shared by every event system). */
extern _Thread_local uint32_t ev_countdown;

static inline _Atomic uint64_t *ev_edge(struct spec_events *evs, uint32_t from, uint32_t to,
					enum spec_ev_edge_kind kind)
{
	size_t row = from == SPEC_EV_ROOT ? evs->max_events : from;

	return &evs->edges[(row * evs->max_events + to) * 2 + kind];
}

/*
 * Count one raise in every sample_every into the edge from -> to and, when
 * a handler (index @by, UINT32_MAX: none) raised it, into by -> to.
 */
static inline void ev_sample(struct spec_events *evs, uint32_t from, uint32_t by, uint32_t to,
			     enum spec_ev_edge_kind kind)
{
	/* A countdown left by a system sampling less often restarts here. */
	if (__builtin_expect(ev_countdown > 1 && ev_countdown <= evs->sample_every, 1)) {
		ev_countdown--;
		return;
	}
	ev_countdown = evs->sample_every;
	atomic_fetch_add_explicit(ev_edge(evs, from, to, kind), 1, memory_order_relaxed);
	if (by < evs->nr_handlers)
		atomic_fetch_add_explicit(
			&evs->hedges[((size_t)by * evs->max_events + to) * 2 + kind], 1,
			memory_order_relaxed);
}

/* Sampled raises of every event into @counts[nr_events] (incoming edges). */
void ev_graph_counts(struct spec_events *evs, uint64_t *counts, uint32_t nr_events);

#endif /* LIBSPEC_EVENT_GRAPH_H */
