/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon loop, the only place that does I/O:
 *   Get Tenant Info → LLC Alloc → (Poll → check → FSM → Re-alloc →
 *   shuffle → apply → wait)*
 * It runs on any struct platform (simulator or real host), logs one line
 * per interval through a callback, optionally writes a CSV trace, and can
 * collect per-interval records in memory (what the scenario tests read).
 *
 * Every socket with tenants is managed on its own (its own LLC, DDIO
 * mask, FSM state, history and plan) from one sample stream; the plan
 * handed to the platform covers them all. One record, log line and trace
 * row per socket per interval.
 *
 * Trace CSV (one header line, then one row per socket per interval):
 *   interval,socket,t_s,state,reason,ddio_ways,ddio_mask,ddio_hits,ddio_misses,
 *   ddio_outside, then per tenant of the starting config, in config order:
 *   <tenant>_ways,<tenant>_mask,<tenant>_ipc,<tenant>_llc_refs,<tenant>_llc_misses
 * interval counts from 0; socket is the socket's id; t_s is platform time
 * in seconds; state and reason
 * are fsm_state_name()/decide_reason_name(); masks are 0x-hex; hits, misses,
 * refs are counts within the interval; ipc = instructions/cycles;
 * ddio_outside is the mask iocad believed (0x-hex) when the platform's
 * turned out to have been changed by someone else this interval, else empty. A tenant
 * on another socket, or removed by a reload, leaves its cells empty; one
 * added later is not traced. ddio_hits and ddio_misses are empty in an
 * interval without DDIO counts (no DDIO decision was made).
 * Then the platform's own columns, if it has any (platform_ops.trace_columns;
 * the simulator's are listed in SIMULATOR.md).
 */
#ifndef IOCAD_LOOP_H
#define IOCAD_LOOP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "decide/decide.h"
#include "platform.h"

struct loop_tenant_record {
	char name[PLATFORM_NAME_LEN];
	unsigned int ways;
	uint32_t mask;
	double ipc;
	uint64_t llc_refs;   /* within the interval */
	uint64_t llc_misses; /* within the interval */
	enum config_prio prio;
	bool antagonist; /* judged one this interval (loop_antagonist.c) */
};

/* A [device ADDR] of the socket (its `socket`, else its tenant's, else 0). */
struct loop_device_record {
	char addr[PLATFORM_PCI_ADDR_LEN];
	int setting; /* enum config_dev_ddio: on, off, full-off, auto */
	/* enum platform_dev_ddio in force: as set, auto's current decision; 0: not set by iocad */
	int mode;
	bool refused; /* the platform refused it */
};

/* Everything one interval decided and saw on one socket, after its decision. */
struct loop_record {
	uint64_t index;	       /* 0, 1, ... */
	unsigned int socket;   /* the socket's id */
	unsigned int llc_ways; /* of the socket's LLC */
	uint64_t t_ns;	       /* platform time at the end of the interval */
	enum fsm_state_id prev_state;
	enum fsm_state_id state;
	struct decide_out decision; /* reason, action, stability verdict */
	unsigned int ddio_ways;
	uint32_t ddio_mask;
	uint64_t ddio_hits;   /* within the interval */
	uint64_t ddio_misses; /* within the interval */
	bool applied;	      /* the plan reached the platform (not dry-run) */
	/* The platform's DDIO mask was changed outside iocad (read back at poll). */
	bool ddio_outside;
	uint32_t ddio_outside_from; /* what iocad believed before adopting it */
	/* The sample had no DDIO counts for the socket: no decision was made. */
	bool ddio_missing;
	uint64_t lost_samples; /* samples lost before this interval's poll */
	bool apply_failed;     /* the platform refused this interval's plan */
	/* [device ADDR]: bit i set when device i of the config has DDIO off */
	unsigned int ndevices;
	uint32_t devices_off;
	unsigned int ndev; /* the devices of this socket, in config order */
	struct loop_device_record dev[PLATFORM_MAX_DEVICES];
	unsigned int ntenants;
	struct loop_tenant_record tenant[PLATFORM_MAX_TENANTS];
};

enum loop_log_level {
	LOOP_LOG_ERROR,
	LOOP_LOG_INFO,	   /* startup, reload, restore */
	LOOP_LOG_INTERVAL, /* the one line per interval */
};

typedef void (*loop_log_fn)(void *arg, enum loop_log_level level, const char *msg);

/*
 * Re-reads the config on SIGHUP: fill @out and return 0, or return
 * -errno with @err set (the running config then stays).
 */
typedef int (*loop_reload_fn)(void *arg, struct config *out, char *err, size_t errlen);

struct loop_opts {
	size_t sz; /* sizeof(struct loop_opts) */
	/* Parsed config (config_parse_*); the loop resolves a copy of it. */
	const struct config *cfg;
	enum iocad_mode mode;
	bool dry_run;		/* decide and log, never apply */
	uint64_t max_intervals; /* 0: until the platform ends or a stop */
	FILE *trace;		/* CSV trace, or NULL */
	loop_log_fn log;	/* NULL: silent */
	void *log_arg;
	/* Set asynchronously (signal handlers); the loop polls and clears. */
	volatile sig_atomic_t *stop;   /* SIGTERM/SIGINT: restore and return */
	volatile sig_atomic_t *reload; /* SIGHUP: call reload_fn */
	loop_reload_fn reload_fn;
	void *reload_arg;
	/* No LOOP_LOG_INTERVAL lines: the loop does not even format them. */
	bool quiet;
	/*
	 * Set to true once the starting plan is in force (NULL: not said).
	 * A run that fails with it false was refused before it changed
	 * anything: the config does not fit the platform.
	 */
	bool *started;
	/* Called once per socket per interval with its record (metrics); NULL: none. */
	void (*record_fn)(void *arg, const struct loop_record *r);
	void *record_arg;
	size_t : 0;
};
#define loop_opts__last_field record_arg

/*
 * Run the loop on @pf (opened, not destroyed here). Records, if @out is
 * not NULL, the first @max records (one per socket per interval, sockets
 * ascending within an interval) into @out and their number into @nout. The platform is restored
 * before return in every case except dry-run (which never changed it). Returns 0 when the run ended
 * (max_intervals, PLATFORM_END, stop), or -errno (-EINVAL bad opts or config that does not fit the
 * platform, or the platform's error); failures are also logged.
 */
int loop_run(const struct loop_opts *opts, struct platform *pf, struct loop_record *out, size_t max,
	     size_t *nout);

/* Write the trace header for @cfg's tenants, then @extra (may be NULL). */
int loop_trace_header(FILE *f, const struct config *cfg, const char *extra);

/* Format the one log line of @r into @buf. */
void loop_format_line(const struct loop_record *r, char *buf, size_t len);

#endif /* IOCAD_LOOP_H */
