/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the simulator reports beyond the counters a host has: the model's
 * figures summed over one interval (memory traffic, packets, drops, cycles
 * per packet, latency, a reader's throughput) for the trace, and the
 * warm-up after a re-allocation (SIMULATOR.md, "Warm-up", "Trace columns").
 */
#ifndef IOCAD_SIM_FIGURES_H
#define IOCAD_SIM_FIGURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scenario.h"
#include "sim_model.h"

struct sim_figures {
	struct {
		double pkts, drops, cycles, ops;
		double lat_w, lat_sum; /* latency weighted by references */
	} t[PLATFORM_MAX_TENANTS];
	double mem, secs; /* memory bytes and seconds of the interval */
};

struct sim_warmup {
	/* Until at_ns[i], tenant i runs at before[i], its rates before the plan. */
	uint64_t at_ns[PLATFORM_MAX_TENANTS];
	struct sim_tenant_rates before[PLATFORM_MAX_TENANTS];
};

/* Add @dt seconds of tenant @i's rates @r (workload @w) to @f. */
void sim_figures_add(struct sim_figures *f, unsigned int i, const struct sim_tenant_rates *r,
		     const struct sim_workload *w, double dt);

/* Add @dt seconds of the socket-wide rates @r to @f. */
void sim_figures_socket(struct sim_figures *f, const struct sim_rates *r, double dt);

/*
 * The CSV fragment for scenario @s: its header (@header true) or @f's
 * values per second. 0, or -ENOSPC if @len is short.
 */
int sim_figures_columns(const struct sim_figures *f, const struct scenario *s, bool header,
			char *buf, size_t len);

/*
 * A plan took effect at @at_ns: every tenant whose occupancy grew from
 * @old to @now runs at its old rates until its misses filled the gain.
 */
void sim_warmup_start(struct sim_warmup *w, const struct sim_rates *old,
		      const struct sim_rates *now, unsigned int n, uint64_t at_ns);

/* Seconds of [at_ns, at_ns + dt) that tenant @i still runs cold. */
double sim_warmup_cold(const struct sim_warmup *w, unsigned int i, uint64_t at_ns, double dt);

#endif /* IOCAD_SIM_FIGURES_H */
