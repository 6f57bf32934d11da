/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one interface between iocad's loop and a platform: the simulator
 * (sim/) or the real host (host/: ioca.ko + resctrl). The loop is the only
 * caller; everything behind it does the I/O. Platforms include this
 * header and nothing else of the core: what they apply comes whole in a
 * struct platform_plan, never from a config they keep themselves.
 *
 * Counters are cumulative since the platform was opened, like the module's
 * samples, so the loop takes deltas and a lost poll loses nothing.
 * Sockets are named by their id (the physical package id), 0 ..
 * PLATFORM_MAX_SOCKETS-1, and every per-socket array is indexed by it.
 */
#ifndef IOCAD_PLATFORM_H
#define IOCAD_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLATFORM_MAX_CPUS 256
#define PLATFORM_MAX_TENANTS 64
#define PLATFORM_MAX_SOCKETS 8
#define PLATFORM_NAME_LEN 32
#define PLATFORM_WHY_LEN 160
#define PLATFORM_MAX_DEVICES 16	 /* PCI devices with a DDIO setting */
#define PLATFORM_PCI_ADDR_LEN 16 /* "DDDD:BB:DD.F" and its NUL */

/* DDIO of the writes of one PCI device's root port (platform_ops.device_ddio). */
enum platform_dev_ddio {
	PLATFORM_DEV_DDIO_FOUND,    /* as the platform found it (restore one device) */
	PLATFORM_DEV_DDIO_ON,	    /* allocating writes: DDIO */
	PLATFORM_DEV_DDIO_OFF,	    /* non-allocating writes: straight to DRAM */
	PLATFORM_DEV_DDIO_FULL_OFF, /* off, and no-snoop writes and TPH off too */
};

/* poll() returns this (positive) when a finite run, e.g. a scenario, is over. */
#define PLATFORM_END 1

/* platform_info.cpu_socket[] of a CPU that is on no socket now. */
#define PLATFORM_CPU_ABSENT (-1)
#define PLATFORM_CPU_OFFLINE (-2)

struct platform_cpuset {
	uint64_t w[PLATFORM_MAX_CPUS / 64];
};

static inline void platform_cpuset_add(struct platform_cpuset *s, unsigned int cpu)
{
	if (cpu < PLATFORM_MAX_CPUS)
		s->w[cpu / 64] |= 1ull << (cpu % 64);
}

static inline bool platform_cpuset_has(const struct platform_cpuset *s, unsigned int cpu)
{
	return cpu < PLATFORM_MAX_CPUS && (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

static inline unsigned int platform_cpuset_count(const struct platform_cpuset *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < PLATFORM_MAX_CPUS / 64; i++)
		n += (unsigned int)__builtin_popcountll(s->w[i]);
	return n;
}

struct platform_socket_info {
	bool present;		 /* the platform manages a socket with this id */
	unsigned int llc_ways;	 /* ways of this socket's LLC */
	uint32_t ddio_mask;	 /* DDIO way mask found at open (restored on exit) */
	uint32_t ddio_boot_mask; /* the platform's default mask */
	bool ddio_counters;	 /* false: DDIO hits/misses are not measured */
	char ddio_counters_why[PLATFORM_WHY_LEN]; /* why not, for the operator */
	/* true: DDIO's ways cannot be changed here; iocad plans around them */
	bool ddio_fixed;
	char ddio_fixed_why[PLATFORM_WHY_LEN]; /* why, for the operator */
	bool ddio_unverified; /* settable, but not known to move DDIO on this CPU */
};

struct platform_info {
	unsigned int ncpus; /* cpu ids are 0 .. ncpus-1 */
	/* samples carry each CPU's L2 requests and misses (antagonist.h) */
	bool l2_counters;
	char l2_why[256]; /* why not, for the operator ("" if they do or nobody asked) */
	/* The socket id of each CPU, or PLATFORM_CPU_ABSENT / _OFFLINE. */
	int cpu_socket[PLATFORM_MAX_CPUS];
	struct platform_socket_info socket[PLATFORM_MAX_SOCKETS];
};

struct platform_cpu_counters {
	bool online;
	uint64_t instructions;
	uint64_t cycles;
	uint64_t llc_refs;
	uint64_t llc_misses;
	/* L2 requests and misses (0 unless platform_info.l2_counters) */
	uint64_t l2_refs;
	uint64_t l2_misses;
};

struct platform_socket_sample {
	/*
	 * This sample has no DDIO counts for the socket (the counters were
	 * not readable this time): ddio_hits/misses are the last ones and the
	 * loop makes no DDIO decision on this interval.
	 */
	bool ddio_missing;
	uint64_t ddio_hits;   /* cumulative */
	uint64_t ddio_misses; /* cumulative */
	/*
	 * The DDIO mask read back from the platform at the end of the
	 * interval. It differs from the last applied one when someone else
	 * (an operator, another tool, a scenario event) changed it; the loop
	 * adopts it, it never writes its own belief back. 0: not read this
	 * interval (the loop then keeps what it knows).
	 */
	uint32_t ddio_mask;
};

struct platform_sample {
	uint64_t seq;  /* consecutive; a gap means a lost sample */
	uint64_t t_ns; /* platform time at the end of the interval */
	unsigned int ncpus;
	struct platform_cpu_counters cpu[PLATFORM_MAX_CPUS];
	struct platform_socket_sample socket[PLATFORM_MAX_SOCKETS];
};

/* One CAT class of service: a resctrl group on one socket's cache. */
struct platform_group {
	char name[PLATFORM_NAME_LEN]; /* a tenant's or a config group's name */
	/*
	 * "" : the platform's own group for it. Else an existing class of
	 * service of that name (a container runtime's RDT class): only its
	 * mask is written, never its CPUs or tasks, and it is never made or
	 * removed (the group's cpus still say what is sampled).
	 */
	char rdt_class[PLATFORM_NAME_LEN];
	uint32_t mask;		     /* contiguous, within the socket's ways */
	struct platform_cpuset cpus; /* the CPUs whose fills it confines */
};

/* Everything iocad wants on one socket. */
struct platform_socket_plan {
	unsigned int id;
	uint32_t ddio_mask; /* the DDIO mask to have (unchanged: nothing written) */
	unsigned int ngroups;
	struct platform_group group[PLATFORM_MAX_TENANTS];
	struct platform_cpuset sample_cpus; /* CPUs whose counters samples carry */
};

/* What each sample carries, beside the time. */
#define PLATFORM_EV_INSTRUCTIONS (1u << 0)
#define PLATFORM_EV_CYCLES (1u << 1)
#define PLATFORM_EV_LLC_REFS (1u << 2)
#define PLATFORM_EV_LLC_MISSES (1u << 3)
#define PLATFORM_EV_DDIO (1u << 4) /* each socket's DDIO hits and misses */
#define PLATFORM_EV_ALL 0x1fu

/*
 * The whole state iocad wants on the platform. A socket not in the plan
 * has none of iocad's groups and its DDIO mask as found at open; a
 * group not in its socket's list is removed.
 */
struct platform_plan {
	uint64_t interval_ns; /* sampling period */
	unsigned int events;  /* PLATFORM_EV_* */
	/* dry-run: configure sampling only; write neither CAT nor DDIO */
	bool sample_only;
	unsigned int nsockets;
	struct platform_socket_plan socket[PLATFORM_MAX_SOCKETS];
};

struct platform_ops {
	const char *name;
	/* Static facts; valid right after open. */
	int (*info)(void *ctx, struct platform_info *out);
	/*
	 * Counters at the end of the current interval. A simulator advances
	 * its clock by one interval here; a real platform reads what the
	 * module published. 0, PLATFORM_END, or -errno; -EAGAIN: no sample
	 * yet (a reload was asked, or a second went by without one), no
	 * interval, poll again.
	 */
	int (*poll)(void *ctx, struct platform_sample *out);
	/*
	 * Would @plan apply? Everything that can be known without writing
	 * (CPUs online and on the socket, masks, CLOSIDs, CPUs held by groups
	 * iocad did not create). Changes nothing. 0 or -errno (last_error says
	 * what). A reload's plan is checked before the loop takes it.
	 */
	int (*check)(void *ctx, const struct platform_plan *plan);
	/*
	 * Make the platform hold @plan whole, or change nothing and return
	 * -errno. Sampling is reconfigured only when its CPUs, events or
	 * interval differ from the last applied plan's.
	 */
	int (*apply)(void *ctx, const struct platform_plan *plan);
	/* Wait out the rest of the interval (the simulator returns at once). */
	int (*wait)(void *ctx, uint64_t interval_ns);
	/* Put back what open found (DDIO masks, CAT groups). */
	int (*restore)(void *ctx);
	void (*destroy)(void *ctx);
	/*
	 * Optional (may be NULL): what the last failing call was about, naming
	 * the group, socket or file, e.g. "group 'web' on socket 0: ..."; ""
	 * if nothing to add. Valid until the next call.
	 */
	const char *(*last_error)(void *ctx);
	/*
	 * Optional (may be NULL): more trace columns the platform measures.
	 * @header true: the CSV header fragment, each column preceded by a
	 * comma; false: the values of the interval the last poll() ended, in
	 * the same order. Fixed from open on. 0, or -ENOSPC if @len is short.
	 */
	int (*trace_columns)(void *ctx, bool header, char *buf, size_t len);
	/*
	 * Optional (may be NULL: no per-device DDIO here): set DDIO for the
	 * writes of PCI device @addr ("DDDD:BB:DD.F"), enum platform_dev_ddio.
	 * The first change of a device remembers what was found; restore()
	 * puts every changed device back, PLATFORM_DEV_DDIO_FOUND one. 0 or
	 * -errno (-EOPNOTSUPP: a root port the platform cannot change;
	 * last_error says why, naming the device).
	 */
	int (*device_ddio)(void *ctx, const char *addr, int mode);
	/*
	 * Optional (may be NULL): the bytes device @addr has written by DMA
	 * since open, as of the last poll() (its IIO stack's inbound writes).
	 * 0, or -ENODATA when the platform does not measure it.
	 */
	int (*device_writes)(void *ctx, const char *addr, uint64_t *bytes);
	/*
	 * Optional (may be NULL): what poll() waits for when it returns
	 * -EAGAIN (no sample this time: the loop looks at its flags and polls
	 * again), e.g. "the sampler to start ..."; "" while samples come.
	 */
	const char *(*waiting)(void *ctx);
	/*
	 * Optional (may be NULL): what CAT waits for while samples come and
	 * DDIO is managed, as of the last poll(): a mask of
	 * PLATFORM_CAT_WAIT_*, 0 when CAT holds the plan in force, with
	 * @buf (of @len) saying what, e.g. "resctrl to be mounted again ...".
	 */
	unsigned int (*cat_waiting)(void *ctx, char *buf, size_t len);
};

/* platform_ops.cat_waiting: resctrl unmounted, or iocad's groups not made again yet */
#define PLATFORM_CAT_WAIT_RESCTRL 1u
/* a runtime's rdt_class group a tenant is placed in is not there (vanished or not yet made) */
#define PLATFORM_CAT_WAIT_CLASS 2u

struct platform {
	const struct platform_ops *ops;
	void *ctx;
};

#endif /* IOCAD_PLATFORM_H */
