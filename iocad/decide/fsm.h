/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOCA system-level FSM (paper Fig. 6): five states, each transition
 * with a named reason, and the action the new state takes. Pure: no
 * clock, no allocation, no logging. FSM.md gives the exact conditions.
 */
#ifndef IOCAD_FSM_H
#define IOCAD_FSM_H

#include <stdbool.h>

#include "decide/tenant.h"

enum fsm_state_id {
	FSM_LOW_KEEP,	 /* start; DDIO at its minimum, nothing to do */
	FSM_IO_DEMAND,	 /* +1 DDIO way per interval */
	FSM_CORE_DEMAND, /* +1 way per interval for the selected tenant */
	FSM_HIGH_KEEP,	 /* DDIO at its maximum, hold */
	FSM_RECLAIM,	 /* -1 way per interval (DDIO or a grown tenant) */
	FSM_NSTATES
};

enum fsm_reason {
	FSM_R_NONE,		/* no transition rule fired: stay */
	FSM_R_IO_PRESSURE,	/* Low Keep/Reclaim: DDIO misses high, not core-caused */
	FSM_R_CORE_CONTENTION,	/* DDIO misses high, DDIO hits down, LLC refs up */
	FSM_R_BALANCED,		/* Core Demand: DDIO miss rate fell */
	FSM_R_IO_NOT_CORE,	/* Core Demand: DDIO misses up, hits not down */
	FSM_R_STILL_MISSING,	/* I/O Demand: DDIO misses still high */
	FSM_R_DDIO_MAX,		/* I/O Demand: DDIO_WAYS_MAX reached */
	FSM_R_OVERPROVISIONED,	/* I/O Demand/High Keep: DDIO misses fell */
	FSM_R_HITS_DOWN,	/* I/O Demand/High Keep: hits down, misses not down */
	FSM_R_NO_MISS_INCREASE, /* Reclaim: keep reclaiming */
	FSM_R_RECLAIM_DONE,	/* Reclaim: DDIO at min and no grown tenant */
	FSM_R_IO_DISABLED,	/* core-only mode: I/O Demand would fire, stay */
	FSM_R_NOTHING_IDLE,	/* Reclaim: every way above the minimum is in use: Low Keep */
	FSM_R_IDLE_WAYS,	/* Low Keep: a way above the minimum turned idle: Reclaim */
	FSM_R_NO_GAIN,		/* DDIO's last way did not lower its miss ratio: hold */
	FSM_R_OWN_DEMAND,	/* a networking tenant's cores: IPC down, miss rate up */
	FSM_R_GROW_BLOCKED,	/* no way to grant without a PS tenant on DDIO: leave */
	FSM_NREASONS
};

enum fsm_action {
	FSM_ACT_NONE,
	FSM_ACT_DDIO_GROW,   /* +1 DDIO way */
	FSM_ACT_TENANT_GROW, /* +1 way for the selected tenant */
	FSM_ACT_RECLAIM,     /* -1 way from DDIO or a tenant */
};

/* Inputs beside the two samples: where the FSM is and what it may do. */
struct fsm_state {
	enum fsm_state_id state;
	unsigned int ddio_ways;
	unsigned int ddio_ways_min;
	unsigned int ddio_ways_max;
	bool io_demand_enabled; /* false in core-only mode */
	bool reclaimable;	/* some tenant holds ways above its initial count */
	bool idle;		/* Reclaim has an idle way to take (select_reclaim) */
	bool ddio_capped;	/* more DDIO ways stopped paying at this traffic */
	bool own_demand;	/* a networking tenant's own cores want ways (FSM.md) */
	double threshold_stable;
	double threshold_miss_low;
	double threshold_min_rate;
};

struct fsm_out {
	enum fsm_state_id next;
	enum fsm_reason reason;
	enum fsm_action action;
};

/* The DDIO/LLC signals the transitions read, derived from one delta. */
struct fsm_signals {
	bool miss_high;	     /* DDIO misses/s > THRESHOLD_MISS_LOW */
	bool miss_settled;   /* DDIO misses/s <= (1 - THRESHOLD_STABLE) x MISS_LOW */
	bool miss_up;	     /* DDIO misses rose significantly */
	bool miss_down;	     /* DDIO misses fell significantly */
	bool miss_rate_down; /* DDIO miss rate misses/(hits+misses) fell */
	bool hits_down;	     /* DDIO hits fell significantly */
	bool refs_up;	     /* tenants' LLC references rose significantly */
	bool footprint_up;   /* DDIO miss ratio rose, no core's references did (FSM.md) */
};

/* True if @cur differs from @prev by more than @rel (relative) and @floor. */
bool fsm_changed(double prev, double cur, double rel, double floor);

void fsm_signals(const struct fsm_state *s, const struct tenant_delta *d, struct fsm_signals *out);

/* One step: next state, why, and the action of that state. */
void fsm_step(const struct fsm_state *s, const struct tenant_delta *d, struct fsm_out *out);

/* Keep states only step when the stability check says so. */
bool fsm_state_is_keep(enum fsm_state_id s);

const char *fsm_state_name(enum fsm_state_id s);
const char *fsm_reason_name(enum fsm_reason r);

#endif /* IOCAD_FSM_H */
