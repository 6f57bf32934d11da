/* SPDX-License-Identifier: GPL-2.0 */
/* Building merged code for a set of events and installing it. */
#ifndef LIBSPEC_EVENT_MERGE_H
#define LIBSPEC_EVENT_MERGE_H

#include "events/event_registry.h"

/*
 * Build merged code for @set[n] from their current bindings and install it
 * in place of the previous build (events left out go back to generic
 * dispatch). Events rebound during the build are installed too: their
 * guards fail until the next build, which @stale (if not NULL) asks for.
 * Returns the number of events merged or -errno.
 */
int ev_build(struct spec_events *evs, struct spec_event *const *set, size_t n, bool subsume,
	     bool *stale);

/* Events of the installed build and what they were subsumed into
 * (SPEC_EV_ROOT: not subsumed); code_lock held. Returns how many.
 */
size_t ev_merged_set(struct spec_events *evs, uint32_t *idx, uint32_t *into, size_t max);

#endif /* LIBSPEC_EVENT_MERGE_H */
