/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's samples as iocad's platform_sample: per-CPU counters of the
 * four CPU events iocad configures (in this order: instructions, cycles,
 * LLC references, LLC misses) and the socket's DDIO hits/misses, all kept
 * cumulative across everything that restarts the module's counts (a CPU
 * going offline and back, a new sampler configuration after SIGHUP), so
 * the loop's deltas never go backwards. Sequence numbers are iocad's own:
 * each sample advances by one plus the samples lost before it, so a gap
 * lengthens an interval and is seen, never corrupts one.
 *
 * Pure: no I/O; the caller receives and sums DDIO counters.
 */
#ifndef IOCAD_HOST_COUNTERS_H
#define IOCAD_HOST_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include <libioca.h>

#include "platform.h"

#define HOST_NR_CPU_EVENTS 4

/* The CPU events, by index in the sampler configuration. */
extern const uint32_t host_cpu_event_kinds[HOST_NR_CPU_EVENTS];

struct host_cpu_acc {
	bool seen;
	uint32_t generation;
	uint64_t last[HOST_NR_CPU_EVENTS]; /* raw values of the last sample */
	uint64_t base[HOST_NR_CPU_EVENTS]; /* added to raw: earlier epochs */
};

struct host_counters {
	uint64_t seq; /* iocad's sequence number of the last sample */
	uint64_t lost;
	bool new_epoch; /* next sample's counts start again from zero */
	struct host_cpu_acc cpu[PLATFORM_MAX_CPUS];
	bool ddio_seen;
	uint64_t ddio_last[2], ddio_base[2];
};

void host_counters_init(struct host_counters *hc);

/* The sampler was configured anew: every count restarts from zero. */
void host_counters_new_epoch(struct host_counters *hc);

/*
 * Fold sample @s into @out. @hit/@miss: the socket's cumulative DDIO
 * counts in @s (ignored unless @have_ddio). @out->ddio_mask is left to the
 * caller. Returns the number of samples lost before @s.
 */
uint64_t host_counters_fold(struct host_counters *hc, const struct ioca_sample *s, bool have_ddio,
			    uint64_t hit, uint64_t miss, struct platform_sample *out);

#endif /* IOCAD_HOST_COUNTERS_H */
