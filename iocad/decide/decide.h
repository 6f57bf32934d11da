/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One interval's decision, pure: stability check → FSM → selection →
 * way planner (with shuffling). The loop feeds it deltas and applies what
 * it returns; the benchmark times exactly this.
 */
#ifndef IOCAD_DECIDE_H
#define IOCAD_DECIDE_H

#include <stdbool.h>

#include "decide/policy.h"
#include "decide/fsm.h"
#include "decide/guard.h"
#include "decide/planner.h"
#include "decide/stability.h"
#include "decide/tenant.h"

enum iocad_mode {
	IOCAD_MODE_IOCA,      /* everything the paper describes */
	IOCAD_MODE_CORE_ONLY, /* no I/O Demand, no shuffling (I/O-unaware) */
	IOCAD_MODE_STATIC,    /* LLC Alloc once, then never change anything */
};

enum decide_reason {
	DECIDE_R_FIRST,	       /* no previous interval to compare with */
	DECIDE_R_STATIC,       /* static mode: observe only */
	DECIDE_R_STABLE,       /* nothing moved */
	DECIDE_R_IPC_ONLY,     /* exception 1 */
	DECIDE_R_CORE_ALLOC,   /* exception 2: +1 way for a non-networking tenant */
	DECIDE_R_CORE_RELEASE, /* exception 2 the other way: its demand fell */
	DECIDE_R_CORE_NO_ROOM, /* exception 2, but no way is left */
	DECIDE_R_CORE_SETTLED, /* exception 2, demand moved but needs nothing */
	DECIDE_R_SHUFFLE,      /* exception 3: reshuffled sharers */
	DECIDE_R_RESHARE,      /* quiet, but the sharers broke the rule: corrected */
	DECIDE_R_FSM,	       /* the FSM ran; see fsm_reason */
	DECIDE_R_HARM_UNDONE,  /* the last changes cost a PS tenant: undone (guard.h) */
	DECIDE_R_HARM_HELD,    /* the decision's layout is one that hurt: refused for now */
	DECIDE_R_PROBE,	       /* static's layout in force, measured beside iocad's (guard.h) */
	DECIDE_R_PROBE_KEPT,   /* the probe found iocad's as good for every PS tenant */
	DECIDE_R_PROBE_STATIC, /* a PS tenant did better under static's: it stays, held */
};

/*
 * Own demand over a window (FSM.md): the last DECIDE_WINDOW intervals of
 * each tenant's IPC, LLC miss rate and misses, measured under the current
 * allocation (emptied whenever a mask changes), so a slow trend that no
 * single interval shows still counts.
 */
#define DECIDE_WINDOW 8

struct decide_window {
	unsigned int n;	   /* samples held, at most DECIDE_WINDOW */
	unsigned int next; /* slot the next sample goes to */
	double ipc[DECIDE_WINDOW][PLATFORM_MAX_TENANTS];
	double miss_rate[DECIDE_WINDOW][PLATFORM_MAX_TENANTS];
	double misses[DECIDE_WINDOW][PLATFORM_MAX_TENANTS];
	double ddio_misses[DECIDE_WINDOW];
};

struct decide_ctx {
	const struct config *cfg;
	enum iocad_mode mode;
	enum fsm_state_id state;
	struct planner_alloc alloc;
	struct decide_window win;
	struct guard_state guard; /* ioca mode: every change judged by what it did */
	bool adopted;		  /* an outside DDIO change was adopted since the last step */
};

struct decide_out {
	enum fsm_state_id prev_state;
	enum fsm_state_id state;
	enum decide_reason reason;
	enum fsm_reason fsm_reason; /* DECIDE_R_FSM only */
	enum fsm_action action;	    /* what the FSM asked for */
	int tenant;		    /* tenant grown/reclaimed/moved, else -1 */
	bool ddio_changed;	    /* DDIO ways changed */
	bool changed;		    /* some mask changed: apply */
	bool blocked;		    /* the action had nothing to act on */
	struct stab_out stab;
};

/* Parse a mode name ("ioca", "core-only", "static"); -EINVAL if unknown. */
int decide_mode_parse(const char *s, enum iocad_mode *out);
const char *decide_mode_name(enum iocad_mode m);

/*
 * Get Tenant Info + LLC Alloc: the starting allocation for @cfg (resolved
 * by config_resolve) with @ddio_ways DDIO ways, state Low Keep. @last,
 * the latest interval's counters for @cfg's tenants (NULL: none yet),
 * chooses who shares DDIO's ways (fewest LLC references on top).
 * Returns 0 or -ENOSPC.
 */
int decide_init(struct decide_ctx *ctx, const struct config *cfg, enum iocad_mode mode,
		unsigned int ddio_ways, const struct tenant_interval *last);

/*
 * decide_init with DDIO's ways where @ddio_mask is (the platform's, or the
 * running allocation's at a reload), grown or shrunk to @ddio_ways at its
 * ends (planner_ddio_at); 0: the top @ddio_ways ways.
 */
int decide_init_at(struct decide_ctx *ctx, const struct config *cfg, enum iocad_mode mode,
		   uint32_t ddio_mask, unsigned int ddio_ways, const struct tenant_interval *last);

/* One interval. ctx->alloc and ctx->state are updated in place. */
void decide_step(struct decide_ctx *ctx, const struct tenant_delta *d, struct decide_out *out);

/*
 * The platform's DDIO mask is @mask, not what iocad last applied (someone
 * else changed it): adopt it as the platform's state, where it is, and
 * plan the tenants around it with @d's latest LLC references, PS tenants
 * off its ways (tenants that grew give their grown ways back when the PS
 * tenants would not fit beside it otherwise). Returns true if the tenants
 * cannot all be planned around it (their masks are then kept as they were).
 */
bool decide_adopt_ddio(struct decide_ctx *ctx, uint32_t mask, const struct tenant_delta *d);

/* "stable", "core_alloc", ... or the FSM reason's name. */
const char *decide_reason_name(const struct decide_out *out);

#endif /* IOCAD_DECIDE_H */
