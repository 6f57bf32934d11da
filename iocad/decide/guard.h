/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The harm guard (FSM.md, "Never worse for a PS tenant"): every layout
 * change is judged by what it did. The layout in force before a series of
 * changes, and each PS tenant's IPC under it, are kept; once the last
 * change has settled (one interval for the cache to refill, one to
 * measure), a PS tenant whose own workload and the socket's DDIO traffic
 * did not change but whose IPC fell by more than GUARD_LOSS gets the
 * series undone, and every change is refused for a hold that doubles
 * each time (GUARD_HOLD_MIN .. GUARD_HOLD_MAX intervals) and starts over
 * once a change holds. Pure: measurements come in as arguments.
 */
#ifndef IOCAD_GUARD_H
#define IOCAD_GUARD_H

#include <stdbool.h>

#include "decide/fsm.h"
#include "decide/planner.h"
#include "decide/tenant.h"

#define GUARD_LOSS 0.05	   /* a PS tenant's IPC may fall by this much, no more */
#define GUARD_SETTLE 2	   /* intervals after a change before it is judged */
#define GUARD_HOLD_MIN 20  /* intervals a harmful layout is refused, first time */
#define GUARD_HOLD_MAX 160 /* and at most, doubling in between */

struct guard_state {
	bool static_start;	   /* iocad started from static's layout */
	bool watching;		   /* a change is waiting to be judged */
	unsigned int since;	   /* intervals since the last change */
	struct planner_alloc base; /* the settled layout before the changes */
	enum fsm_state_id base_state;
	bool base_measured; /* ipc/rpi below were taken under base, settled */
	double ipc[PLATFORM_MAX_TENANTS];
	double rpi[PLATFORM_MAX_TENANTS]; /* LLC references per instruction: the workload */
	double ddio_traffic;		  /* DDIO hits + misses per second */
	/* the layout that hurt, refused while hold > 0 */
	bool banned_set;
	struct planner_alloc banned;
	unsigned int hold, backoff;
};

enum guard_verdict {
	GUARD_OK,
	GUARD_UNDO, /* the changes hurt a PS tenant: go back to state->base */
};

/*
 * Start of an interval measured under the layout in force: judge the
 * pending change. GUARD_UNDO names the PS tenant that lost in *@victim.
 */
enum guard_verdict guard_judge(struct guard_state *g, const struct config *cfg,
			       const struct tenant_delta *d, int *victim);

/* Undo: @a back to the base layout, the harmful @a refused for a hold. */
void guard_undo(struct guard_state *g, struct planner_alloc *a, enum fsm_state_id *state);

/* True if the guard refuses a change to @a now (a hold is running). */
bool guard_refuses(const struct guard_state *g, const struct planner_alloc *a);

/*
 * The interval's decision changed the layout from @before (in force, with
 * @state, while @d was measured): watch it.
 */
void guard_changed(struct guard_state *g, const struct config *cfg,
		   const struct planner_alloc *before, enum fsm_state_id state,
		   const struct tenant_delta *d);

/*
 * The inclusive-ways pass, held back in @a, is let in once the layout
 * without it is settled and measured and no harmful layout is on hold.
 */
void guard_offer_inclusive(const struct guard_state *g, struct planner_alloc *a);

/* The masks of @x and @y are the same (DDIO's included). */
bool guard_same_layout(const struct planner_alloc *x, const struct planner_alloc *y);

#endif /* IOCAD_GUARD_H */
