// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "util.h"

LIBIOCA_API bool ioca_mask_contiguous(uint32_t mask)
{
	uint32_t low;

	if (!mask)
		return false;
	low = mask & -mask;
	/* Adding the lowest set bit clears a contiguous run entirely. */
	return ((mask + low) & mask) == 0;
}

LIBIOCA_API uint32_t ioca_top_ways(uint32_t llc_ways, uint32_t ways)
{
	uint32_t run;

	if (llc_ways < 1 || llc_ways > 32 || ways < 1 || ways > llc_ways)
		return 0;
	run = ways == 32 ? 0xffffffffu : (1u << ways) - 1;
	return run << (llc_ways - ways);
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

LIBIOCA_API const char *ioca_event_kind_name(uint32_t kind)
{
	if (kind >= sizeof(kind_names) / sizeof(kind_names[0]))
		return NULL;
	return kind_names[kind];
}
