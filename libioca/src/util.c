// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "util.h"
#include "ways.h"

LIBIOCA_API bool libioca_mask_contiguous(uint32_t mask)
{
	return ways_contiguous(mask);
}

LIBIOCA_API uint32_t libioca_top_ways(uint32_t llc_ways, uint32_t ways)
{
	return ways_top(llc_ways, ways);
}

static const char *const kind_names[] = {
	[IOCA_EVENT_KIND_INSTRUCTIONS] = "instructions",
	[IOCA_EVENT_KIND_CYCLES] = "cycles",
	[IOCA_EVENT_KIND_LLC_REFERENCES] = "llc-references",
	[IOCA_EVENT_KIND_LLC_MISSES] = "llc-misses",
	[IOCA_EVENT_KIND_RAW] = "raw",
	[IOCA_EVENT_KIND_CPU_CLOCK] = "cpu-clock",
	[IOCA_EVENT_KIND_TASK_CLOCK] = "task-clock",
	[IOCA_EVENT_KIND_DDIO_HIT_EMULATED] = "ddio-hit-emulated",
	[IOCA_EVENT_KIND_DDIO_MISS_EMULATED] = "ddio-miss-emulated",
};

LIBIOCA_API const char *libioca_event_kind_name(uint32_t kind)
{
	if (kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return NULL;
	return kind_names[kind];
}

/* The LIBIOCA_0.1 names (libioca.h), one call each. */
LIBIOCA_API bool ioca_mask_contiguous(uint32_t mask)
{
	return libioca_mask_contiguous(mask);
}

LIBIOCA_API uint32_t ioca_top_ways(uint32_t llc_ways, uint32_t ways)
{
	return libioca_top_ways(llc_ways, ways);
}

LIBIOCA_API const char *ioca_event_kind_name(uint32_t kind)
{
	return libioca_event_kind_name(kind);
}
