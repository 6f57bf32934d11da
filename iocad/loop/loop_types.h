/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's public types: what one interval records per socket, the log
 * levels and the options loop_run() takes (loop.h). Types only, so the
 * loop's own parts and its readers (metrics/, the trace) need nothing of
 * the loop's code to name them.
 */
#ifndef IOCAD_LOOP_TYPES_H
#define IOCAD_LOOP_TYPES_H

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

/* What the loop publishes at each turn (loop_opts.status_fn). */
struct loop_status {
	uint64_t intervals; /* intervals recorded so far */
	uint64_t turns;	    /* turns of the loop: each is progress */
	/* what the platform waits for ("" while samples come: platform_ops.waiting) */
	const char *waiting;
	uint64_t waiting_since_ns; /* CLOCK_MONOTONIC it began; 0: not waiting */
	/*
	 * What CAT waits for while samples come and DDIO is managed
	 * (platform_ops.cat_waiting): PLATFORM_CAT_WAIT_* bits, 0 when CAT
	 * holds the plan, and the words for it ("" then).
	 */
	unsigned int cat_waits;
	const char *cat_waiting;
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
	/*
	 * Called at every turn of the loop (an interval, or a poll that had
	 * no sample), so a turn that never comes is a hung loop (systemd's
	 * watchdog); NULL: none.
	 */
	void (*status_fn)(void *arg, const struct loop_status *st);
	void *status_arg;
	/*
	 * Called after each reload with its outcome: true when the reloaded
	 * config is the one in force, false when it was refused at any step
	 * (parse, split, allocation, check, apply) and the running one stays;
	 * what reload_fn prepared for it (drop-ins, watches) is then dropped.
	 * NULL: none.
	 */
	void (*reloaded_fn)(void *arg, bool taken);
	size_t : 0;
};
#define loop_opts__last_field reloaded_fn

#endif /* IOCAD_LOOP_TYPES_H */
