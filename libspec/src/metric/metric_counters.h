/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The arithmetic of libspec/metric.h, apart from the sockets so tests can
 * feed it samples: per-CPU deltas of the metric's events between two reads
 * (a CPU whose counters were re-created, new generation, starts over).
 */
#ifndef LIBSPEC_METRIC_COUNTERS_H
#define LIBSPEC_METRIC_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

#include "libspec/metric.h"

#define COUNTERS_MAX_CPUS 256
#define COUNTERS_EVENTS 3 /* instructions, cycles, LLC misses */

struct counters_cpu {
	bool seen;
	uint32_t generation;
	uint64_t v[COUNTERS_EVENTS];
};

struct counters_window {
	struct counters_cpu cpu[COUNTERS_MAX_CPUS];
	uint64_t ops; /* the service's operation count at the last read */
	bool started;
};

/* One CPU's cumulative values in a sample. */
struct counters_reading {
	uint32_t cpu, generation;
	uint64_t v[COUNTERS_EVENTS];
};

/*
 * Close the window at these readings (the CPUs the service runs on) and
 * open the next: the metric @what over the deltas, NaN when the window
 * just started or saw no activity.
 */
double counters_window_close(struct counters_window *w, enum spec_counter_metric what,
			     const struct counters_reading *r, size_t n, uint64_t ops, bool negate);

#endif /* LIBSPEC_METRIC_COUNTERS_H */
