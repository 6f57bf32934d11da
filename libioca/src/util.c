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

/*
 * GENL_ADMIN_PERM in the module's op table is CAP_NET_ADMIN; the handlers
 * add CAP_PERFMON (or CAP_SYS_ADMIN) for counters and CAP_SYS_RAWIO for
 * register writes (kmod/netlink.c).
 */
static const char *const cmd_caps[] = {
	[IOCA_CMD_INFO_GET] = "",
	[IOCA_CMD_DDIO_SET] = "CAP_NET_ADMIN and CAP_SYS_RAWIO",
	[IOCA_CMD_SAMPLER_SET] = "CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN)",
	[IOCA_CMD_SAMPLER_START] = "CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN)",
	[IOCA_CMD_SAMPLER_STOP] = "CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN)",
	[IOCA_CMD_SAMPLE_GET] = "CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN)",
	[IOCA_CMD_SAMPLES_SUBSCRIBE] = "CAP_PERFMON (or CAP_SYS_ADMIN)",
	[IOCA_CMD_SAMPLES_UNSUBSCRIBE] = "",
	[IOCA_CMD_DDIO_DEVICE_SET] = "CAP_NET_ADMIN and CAP_SYS_RAWIO",
};

LIBIOCA_API const char *libioca_cmd_caps(uint32_t cmd)
{
	if (cmd >= sizeof(cmd_caps) / sizeof(cmd_caps[0]))
		return NULL;
	return cmd_caps[cmd];
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
