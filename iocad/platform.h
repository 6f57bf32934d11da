/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one interface between iocad's loop and a platform: the simulator
 * (sim_platform.c, the default) or the real host (kmod + resctrl). The loop
 * is the only caller; everything behind it does the I/O.
 *
 * Counters are cumulative since the platform was opened, like the module's
 * samples, so the loop takes deltas and a lost poll loses nothing.
 */
#ifndef IOCAD_PLATFORM_H
#define IOCAD_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLATFORM_MAX_CPUS 256
#define PLATFORM_MAX_TENANTS 64
#define PLATFORM_NAME_LEN 32

/* poll() returns this (positive) when a finite run, e.g. a scenario, is over. */
#define PLATFORM_END 1

struct platform_info {
	unsigned int llc_ways;	 /* ways of the managed socket's LLC */
	unsigned int ncpus;	 /* cpu ids are 0 .. ncpus-1 */
	uint32_t ddio_mask;	 /* DDIO way mask found at open (restored on exit) */
	uint32_t ddio_boot_mask; /* the platform's default mask */
	bool ddio_counters;	 /* false: ddio_hits/misses are not measured */
};

struct platform_cpu_counters {
	bool online;
	uint64_t instructions;
	uint64_t cycles;
	uint64_t llc_refs;
	uint64_t llc_misses;
};

struct platform_sample {
	uint64_t seq;  /* consecutive; a gap means a lost sample */
	uint64_t t_ns; /* platform time at the end of the interval */
	unsigned int ncpus;
	struct platform_cpu_counters cpu[PLATFORM_MAX_CPUS];
	uint64_t ddio_hits;   /* socket-wide, cumulative */
	uint64_t ddio_misses; /* socket-wide, cumulative */
	/*
	 * The DDIO mask read back from the platform at the end of the
	 * interval. It differs from the last applied one when someone else
	 * (an operator, another tool, a scenario event) changed it; the loop
	 * adopts it, it never writes its own belief back. 0: not read this
	 * interval (the loop then keeps what it knows).
	 */
	uint32_t ddio_mask;
};

/* One tenant's CAT assignment; the platform finds the tenant by name. */
struct platform_tenant_mask {
	char name[PLATFORM_NAME_LEN];
	uint32_t mask;
};

struct platform_plan {
	uint32_t ddio_mask;
	unsigned int ntenants;
	struct platform_tenant_mask tenant[PLATFORM_MAX_TENANTS];
};

struct platform_ops {
	const char *name;
	/* Static facts; valid right after open. */
	int (*info)(void *ctx, struct platform_info *out);
	/*
	 * Counters at the end of the current interval. A simulator advances
	 * its clock by one interval here; a real platform reads what the
	 * module published. 0, PLATFORM_END, or -errno.
	 */
	int (*poll)(void *ctx, struct platform_sample *out);
	/* Apply a validated plan whole, or change nothing and return -errno. */
	int (*apply)(void *ctx, const struct platform_plan *plan);
	/* Wait out the rest of the interval (the simulator returns at once). */
	int (*wait)(void *ctx, uint64_t interval_ns);
	/* Put back what open found (DDIO mask, CAT groups). */
	int (*restore)(void *ctx);
	void (*destroy)(void *ctx);
	/*
	 * Optional (may be NULL): what the last failing call was about, naming
	 * the tenant, group or file, e.g. "tenant 'web' is not in the
	 * scenario"; "" if nothing to add. Valid until the next call.
	 */
	const char *(*last_error)(void *ctx);
	/*
	 * Optional (may be NULL): more trace columns the platform measures.
	 * @header true: the CSV header fragment, each column preceded by a
	 * comma; false: the values of the interval the last poll() ended, in
	 * the same order. Fixed from open on. 0, or -ENOSPC if @len is short.
	 */
	int (*trace_columns)(void *ctx, bool header, char *buf, size_t len);
};

struct platform {
	const struct platform_ops *ops;
	void *ctx;
};

#endif /* IOCAD_PLATFORM_H */
