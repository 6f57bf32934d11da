/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's samples as iocad's platform_sample: per-CPU counters of the
 * four CPU events iocad configures (in this order: instructions, cycles,
 * LLC references, LLC misses), the two raw L2 events after them where the
 * CPU has them (L2 requests, L2 misses: host_counters_l2_events()), and
 * each socket's DDIO hits/misses, all kept
 * cumulative across everything that restarts the module's counts (a CPU
 * going offline and back, a new sampler configuration after SIGHUP), so
 * the loop's deltas never go backwards. Sequence numbers are iocad's own:
 * each sample advances by one plus the samples lost before it, so a gap
 * lengthens an interval and is seen, never corrupts one; what the loop
 * sees (host_counters_poll_seq) advances by one per poll plus the samples
 * lost, however many arrived samples that poll folded.
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
#define HOST_NR_L2_EVENTS 2 /* L2 requests, L2 misses: indexes 4 and 5 */
#define HOST_MAX_CPU_EVENTS (HOST_NR_CPU_EVENTS + HOST_NR_L2_EVENTS)
#define HOST_L2_WHY_LEN 160

/* The CPU events, by index in the sampler configuration. */
extern const uint32_t host_cpu_event_kinds[HOST_NR_CPU_EVENTS];

/*
 * The raw L2 events of CPU @family/@model: L2_RQSTS.REFERENCES (event
 * 0x24, umask 0xff) and L2_RQSTS.MISS (0x24, umask 0x3f) on the Intel
 * server cores whose event lists have both (Skylake-SP/Cascade Lake,
 * Sapphire Rapids, Emerald Rapids, Granite Rapids). True with @ev filled
 * (PERF_TYPE_RAW, config umask << 8 | event); false with @why saying why
 * this CPU gets no L2 counts.
 */
bool host_counters_l2_events(uint32_t family, uint32_t model, struct ioca_event *ev, char *why,
			     size_t len);

/*
 * The module's word on the L2 events of a started sampler (INFO's
 * per-event status): true only if events @first and @first + 1 are the raw
 * events @ev asked for and count as themselves, no substitute
 * (effective_kind). False with @why.
 */
bool host_counters_l2_live(const struct ioca_sampler_info *si, uint32_t first,
			   const struct ioca_event *ev, char *why, size_t len);

struct host_cpu_acc {
	bool seen;
	uint32_t generation;
	uint64_t last[HOST_MAX_CPU_EVENTS]; /* raw values of the last sample */
	uint64_t base[HOST_MAX_CPU_EVENTS]; /* added to raw: earlier epochs */
};

struct host_counters {
	uint64_t seq; /* iocad's sequence number of the last sample */
	uint64_t lost;
	uint64_t poll_seq; /* the loop's: one per poll, plus the samples lost */
	bool new_epoch;	   /* next sample's counts start again from zero */
	/* the sampler run samples must carry (ioca_sample.epoch); 0: not known */
	uint32_t run_epoch;
	uint64_t stale; /* samples of an earlier run dropped */
	bool l2;	/* samples carry the L2 events (indexes 4, 5) */
	struct host_cpu_acc cpu[PLATFORM_MAX_CPUS];
	struct host_ddio_acc {
		uint64_t last[2], base[2]; /* hits, misses */
	} ddio[PLATFORM_MAX_SOCKETS];
};

/* One socket's cumulative DDIO counts in a sample, if it has them. */
struct host_ddio_counts {
	bool have;
	uint64_t hit, miss;
};

void host_counters_init(struct host_counters *hc);

/*
 * The sampler was configured anew: every count restarts from zero. @l2:
 * its events 4 and 5 are the L2 events, live (host_counters_l2_live());
 * else l2_refs and l2_misses stay 0. @epoch: the new run's epoch
 * (ioca_info.sampler_epoch after the start), 0 from a module without
 * epochs (then the next sample, whatever its run, starts the counts).
 */
void host_counters_new_epoch(struct host_counters *hc, bool l2, uint32_t epoch);

/*
 * Whether sample @s belongs to a run before the one in force (a sample
 * of the old run still queued after a restart): the caller drops it
 * (counted in stale), never folds it. A later run than the one known
 * (someone restarted the sampler) is taken as a restart of the counts.
 */
bool host_counters_stale(struct host_counters *hc, const struct ioca_sample *s);

/*
 * The DDIO mask socket sample @ss says the socket has, or 0 when it says
 * nothing new: no mask sent, or collected before iocad's own write whose
 * DDIO epoch was @written (ioca_ddio_opts.epochs; 0: none or unknown).
 * A stale copy of iocad's own write is not an outside change.
 */
uint32_t host_counters_seen_mask(const struct ioca_socket_sample *ss, uint32_t written);

/*
 * Fold sample @s into @out. @ddio: each socket's DDIO counts in @s
 * (PLATFORM_MAX_SOCKETS, by socket id); a socket without them is marked
 * ddio_missing and keeps its last counts. Every socket's DDIO mask is
 * cleared (0: nothing read) for the caller to set from the newest sample,
 * so a poll whose samples say nothing new leaves no older poll's mask
 * behind. Returns the number of samples lost before @s.
 */
uint64_t host_counters_fold(struct host_counters *hc, const struct ioca_sample *s,
			    const struct host_ddio_counts *ddio, struct platform_sample *out);

/*
 * The seq of a poll that folded one or more samples, @lost of them lost
 * before they came (the sum of host_counters_fold's returns): one more
 * than the last poll's plus @lost. Samples that arrived together (iocad
 * was late) make one longer interval, and are not lost.
 */
uint64_t host_counters_poll_seq(struct host_counters *hc, uint64_t lost);

#endif /* IOCAD_HOST_COUNTERS_H */
