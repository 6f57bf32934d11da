/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's state, shared by its parts: loop.c (the intervals),
 * loop_plan.c (start, reload, apply), loop_device.c and loop_antagonist.c.
 * Internal to loop/; each part includes this, none includes another's
 * state.
 */
#ifndef IOCAD_LOOP_STATE_H
#define IOCAD_LOOP_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "decide/antagonist.h"
#include "decide/decide.h"
#include "decide/decide_device.h"
#include "loop/loop_types.h"
#include "platform.h"

struct loop_dev {
	struct config_device cfg;
	bool live;    /* in the config in force */
	bool refused; /* the platform refused it: not tried again until the config changes */
	int mode;     /* enum platform_dev_ddio in force (0: not set by iocad) */
	struct decide_device_state st;
	uint64_t bytes; /* device_writes() at the last interval */
	bool have_bytes;
	bool said_unmeasured;
};

struct loop_devices {
	unsigned int n;
	struct loop_dev d[CONFIG_MAX_DEVICES];
	struct platform_sample prev; /* the sample the last interval ended at */
	bool have_prev;
};

/* One managed socket: everything the paper's loop keeps, per socket. */
struct loop_sock {
	bool used;	   /* has tenants in the config in force */
	struct config cfg; /* its tenants and settings, resolved */
	struct decide_ctx ctx;
	struct tenant_delta delta;
	/* The samples its last interval started and ended at. */
	struct platform_sample base, pbase;
	bool have_base, have_pbase;
	/* The DDIO mask the platform has as far as iocad knows: found at
	 * open, then each applied plan's. A poll reading another one means
	 * someone else changed it. */
	uint32_t known_ddio;
	bool pending_apply; /* the belief differs from the platform: apply next */
	uint64_t incl_said; /* the alloc's incl_fallback last logged (say_inclusive) */
	struct antagonist_state ant[PLATFORM_MAX_TENANTS]; /* by cfg's tenant (loop_antagonist.c) */
	/* reload scratch */
	bool next_used, next_changed;
	struct config next;
	struct decide_ctx next_ctx;
	struct tenant_interval last;
};

struct loop {
	const struct loop_opts *o;
	struct platform *pf;
	struct platform_info info;
	/*
	 * The CPU map the config in force was placed with (loop_plan.c): what
	 * a reload of it falls back to while one of its CPUs is offline. Not
	 * info's, which every reload refreshes, refused ones too.
	 */
	int placed_cpu_socket[PLATFORM_MAX_CPUS];
	unsigned int placed_ncpus;
	bool split_by_placed; /* the last split() took the placed map */
	struct config cfg;    /* the whole config in force, placed */
	struct config newcfg; /* reload scratch */
	struct config traced; /* tenants of the trace columns */
	struct loop_sock s[PLATFORM_MAX_SOCKETS];
	struct platform_sample cur;
	uint64_t last_seq;
	bool have_seq;
	uint64_t lost_unsaid;	   /* samples lost since the last time it was said */
	uint64_t lost_now;	   /* samples lost before this interval's poll */
	bool apply_failed_now;	   /* this interval's plan was refused */
	uint64_t lost_said_ns;	   /* platform time it was said, 0: never */
	struct platform_plan plan; /* scratch */
	bool trace_failed;	   /* a write failed: tracing stopped, the loop goes on */
	/*
	 * Apply failures in a row, and the interval the plan is tried again:
	 * 1, 2, 4 ... 64 intervals after each failure. Until then the
	 * sockets decide again each interval, but nothing is applied.
	 */
	unsigned int apply_failures;
	uint64_t retry_at;
	bool must_apply; /* the plan in force may not be the platform's: apply it */
	bool changed_platform;
	char extra[4096];	   /* the platform's trace columns */
	struct loop_devices dev;   /* [device ADDR] settings (loop_device.c) */
	bool l2_said;		   /* "no L2 counts" said (loop_antagonist.c) */
	struct loop_status status; /* published each turn (loop.c) */
	char cat_waiting[256];	   /* status.cat_waiting's text */
};

void loop_say(struct loop *l, enum loop_log_level lvl, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* IOCAD_LOOP_STATE_H */
