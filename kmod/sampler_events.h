/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLER_EVENTS_H
#define _IOCA_SAMPLER_EVENTS_H

#include "sampler_state.h"
#include "topo.h"

/* Counted instead of a hardware event the PMU does not have. */
#define IOCA_FALLBACK_KIND IOCA_EVENT_KIND_CPU_CLOCK

struct perf_event *ioca_event_create(const struct ioca_event_spec *e, u32 kind,
				     int cpu);
void ioca_slot_release(struct ioca_sampler_slot *slot);
int ioca_slot_create(struct ioca_sampler *s, struct ioca_sampler_slot *slot,
		     int cpu);
int ioca_pick_kinds(struct ioca_sampler *s, int cpu);
bool ioca_uncore_pmu(const struct perf_event *ev);
bool ioca_probe_hw_counters(void);

#endif /* _IOCA_SAMPLER_EVENTS_H */
