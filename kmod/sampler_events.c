// SPDX-License-Identifier: GPL-2.0
/*
 * The sampler's perf events: what each ioca event kind means to perf, the
 * software fallback when the PMU lacks a hardware event, and creating or
 * releasing one CPU's set as a whole.
 */
#include <linux/cpu.h>
#include <linux/perf_event.h>
#include <linux/topology.h>
#include "compat.h"
#include "sampler_events.h"

static void ioca_event_attr(const struct ioca_event_spec *e, u32 kind,
			    struct perf_event_attr *a)
{
	static const u64 hw[] = {
		[IOCA_EVENT_KIND_INSTRUCTIONS] = PERF_COUNT_HW_INSTRUCTIONS,
		[IOCA_EVENT_KIND_CYCLES] = PERF_COUNT_HW_CPU_CYCLES,
		[IOCA_EVENT_KIND_LLC_REFERENCES] = PERF_COUNT_HW_CACHE_REFERENCES,
		[IOCA_EVENT_KIND_LLC_MISSES] = PERF_COUNT_HW_CACHE_MISSES,
	};

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (kind) {
	case IOCA_EVENT_KIND_RAW:
		a->type = e->type;
		a->config = e->config;
		a->config1 = e->config1;
		break;
	case IOCA_EVENT_KIND_CPU_CLOCK:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_CPU_CLOCK;
		break;
	case IOCA_EVENT_KIND_TASK_CLOCK:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = PERF_COUNT_SW_TASK_CLOCK;
		break;
	default:
		a->type = PERF_TYPE_HARDWARE;
		a->config = hw[kind];
		break;
	}
}

struct perf_event *ioca_event_create(const struct ioca_event_spec *e, u32 kind,
				     int cpu)
{
	struct perf_event_attr attr;

	ioca_event_attr(e, kind, &attr);
	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

/*
 * Per-CPU events are pinned: never multiplexed, so while one is active it
 * has been counting since it was created (running == enabled), and the
 * collector can read it in its CPU's IPI without perf's time bookkeeping.
 */
static struct perf_event *ioca_cpu_event_create(const struct ioca_event_spec *e,
						u32 kind, int cpu)
{
	struct perf_event_attr attr;

	ioca_event_attr(e, kind, &attr);
	attr.pinned = 1;
	return perf_event_create_kernel_counter(&attr, cpu, NULL, NULL, NULL);
}

static bool ioca_missing_hw(struct perf_event *ev)
{
	return IS_ERR(ev) && (PTR_ERR(ev) == -ENOENT ||
			      PTR_ERR(ev) == -EOPNOTSUPP);
}

/* The generic hardware events, the only ones with a software stand-in. */
static bool ioca_generic_hw(u32 kind)
{
	return kind == IOCA_EVENT_KIND_INSTRUCTIONS ||
	       kind == IOCA_EVENT_KIND_CYCLES ||
	       kind == IOCA_EVENT_KIND_LLC_REFERENCES ||
	       kind == IOCA_EVENT_KIND_LLC_MISSES;
}

/*
 * An uncore event must land on a socket-scope PMU (uncore_cha_N, uncore_imc
 * ...): the type number alone cannot tell a CHA from a tracepoint or
 * kprobe PMU, whose events would count or trace on behalf of anyone.
 */
bool ioca_uncore_pmu(const struct perf_event *ev)
{
	return ev->pmu && ev->pmu->name &&
	       !strncmp(ev->pmu->name, "uncore_", strlen("uncore_"));
}

void ioca_slot_release(struct ioca_sampler_slot *slot)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_CPU_EVENTS; i++) {
		if (slot->ev[i])
			perf_event_release_kernel(slot->ev[i]);
		slot->ev[i] = NULL;
	}
}

/*
 * All of a CPU's events, or none. A pinned event the PMU cannot schedule
 * next to the others (more events than counters) is in error state from the
 * start: refused with -ENOSPC rather than reported as counting nothing.
 */
int ioca_slot_create(struct ioca_sampler *s, struct ioca_sampler_slot *slot,
		     int cpu)
{
	unsigned int i;

	for (i = 0; i < s->cfg->nr_events; i++) {
		struct perf_event *ev = ioca_cpu_event_create(&s->cfg->events[i],
							      s->eff_kind[i],
							      cpu);

		if (IS_ERR(ev)) {
			ioca_slot_release(slot);
			return PTR_ERR(ev);
		}
		slot->ev[i] = ev;
		if (READ_ONCE(ev->state) != PERF_EVENT_STATE_ACTIVE) {
			ioca_slot_release(slot);
			return -ENOSPC;
		}
	}
	slot->created_ns = ktime_get_ns();
	return 0;
}

/* Decide per event, on one online CPU, whether the PMU has it. */
int ioca_pick_kinds(struct ioca_sampler *s, int cpu)
{
	unsigned int i;

	for (i = 0; i < s->cfg->nr_events; i++) {
		const struct ioca_event_spec *e = &s->cfg->events[i];
		struct perf_event *ev = ioca_cpu_event_create(e, e->kind, cpu);

		s->eff_kind[i] = e->kind;
		if (!IS_ERR(ev)) {
			perf_event_release_kernel(ev);
			continue;
		}
		if (!ioca_missing_hw(ev) || !ioca_generic_hw(e->kind))
			return PTR_ERR(ev);
		s->eff_kind[i] = IOCA_FALLBACK_KIND;
	}
	return 0;
}

bool ioca_probe_hw_counters(void)
{
	struct ioca_event_spec e = { .kind = IOCA_EVENT_KIND_CYCLES };
	struct perf_event *ev;

	cpus_read_lock();
	ev = ioca_event_create(&e, e.kind, cpumask_first(cpu_online_mask));
	cpus_read_unlock();
	if (IS_ERR(ev))
		return false;
	perf_event_release_kernel(ev);
	return true;
}
