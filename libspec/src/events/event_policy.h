/* SPDX-License-Identifier: GPL-2.0 */
/* What to merge, and the optimizer thread that keeps merged code current. */
#ifndef LIBSPEC_EVENT_POLICY_H
#define LIBSPEC_EVENT_POLICY_H

#include "events/event_registry.h"

int ev_policy_start(struct spec_events *evs);
void ev_policy_stop(struct spec_events *evs);

/*
 * Hot events of the whole sampled graph (share of sampled raises at least
 * hot_share, with bindings); every bound event when nothing was sampled.
 * Returns an array to free, its length in @n, or NULL (ENOMEM).
 */
struct spec_event **ev_policy_choose(struct spec_events *evs, size_t *n);

#endif /* LIBSPEC_EVENT_POLICY_H */
