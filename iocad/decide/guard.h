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
#define GUARD_HOLD_MIN 20  /* minimum hold after a second undo in a row */
#define GUARD_HOLD_MAX 160 /* the longest hold, and the cap of the doubling minimum */
/*
 * The static probe: after a workload change iocad's settled layout is
 * measured against static's, GUARD_SETTLE intervals each; static's is kept
 * when a PS tenant has GUARD_PROBE_LOSS more IPC under it (less than
 * GUARD_LOSS, so a tenant near the bound is not left there), and no probe
 * follows another within GUARD_PROBE_GAP intervals.
 */
#define GUARD_PROBE_LOSS 0.03
/* changes in a row before the guard must judge them (the next waits for its verdict) */
#define GUARD_SERIES_MAX 3
#define GUARD_PROBE_GAP 8
/* per settled interval, a PS tenant's IPC jitter decays by this (half in about 7) */
#define GUARD_JITTER_DECAY 0.9

struct guard_state {
	bool static_start;	   /* iocad started from static's layout */
	bool watching;		   /* a change is waiting to be judged */
	unsigned int series;	   /* changes in the series being watched */
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
	unsigned int hold, backoff; /* the hold's minimum left; the next one's */
	unsigned int hold_max;	    /* intervals until it ends whatever happens */
	bool hold_moved;	    /* the workload moved since it began */
	/* static's layout, what a PS tenant must not lose against (ref_valid: known) */
	bool ref_valid;
	struct planner_alloc ref;
	bool probe_pending; /* a workload changed since iocad's layout was last set beside ref */
	bool probing;	    /* ref is in force for a measurement; iocad's layout is kept below */
	unsigned int probe_gap;
	struct planner_alloc probe_saved;
	enum fsm_state_id probe_state;
	double probe_ipc[PLATFORM_MAX_TENANTS];
	double probe_rpi[PLATFORM_MAX_TENANTS];
	double probe_ddio_traffic;
	/*
	 * ipc/rpi/ddio_traffic hold the settled measurement of the layout a
	 * kept probe restored: a change in the intervals that refill its cache
	 * is judged against it (it was measured before the probe)
	 */
	bool restored_measured;
	/*
	 * each tenant's IPC and references per instruction, and DDIO's
	 * traffic, measured under static's own layout (ref): changes in a
	 * row that each cost a PS tenant less than GUARD_LOSS are judged
	 * against it too, while no tenant's workload nor the I/O moved
	 */
	bool anchor_set;
	double anchor_ipc[PLATFORM_MAX_TENANTS];
	double anchor_rpi[PLATFORM_MAX_TENANTS];
	double anchor_ddio;
	/*
	 * each PS tenant's IPC jitter between settled intervals of a steady
	 * workload (a decaying maximum of the relative change): a probe's
	 * margin is at least twice it, so counters' noise alone neither asks
	 * for a probe nor keeps static's layout
	 */
	double jitter[PLATFORM_MAX_TENANTS];
};

enum guard_probe_verdict {
	GUARD_PROBE_NONE,   /* no probe this interval: decide as usual */
	GUARD_PROBE_START,  /* static's layout put in force to be measured */
	GUARD_PROBE_WAIT,   /* measuring it */
	GUARD_PROBE_KEPT,   /* iocad's layout is as good for every PS tenant: back to it */
	GUARD_PROBE_STATIC, /* a PS tenant does better under static's: kept, iocad's held */
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
 * @state, while @d was measured): watch it. @count: it counts toward
 * GUARD_SERIES_MAX (a reclaim, which only gives ways back, does not).
 */
void guard_changed(struct guard_state *g, const struct config *cfg,
		   const struct planner_alloc *before, enum fsm_state_id state,
		   const struct tenant_delta *d, bool count);

/*
 * GUARD_SERIES_MAX changes in a row wait to be judged: a series that never
 * settles is never judged, so the next change (a reclaim excepted) waits
 * until the guard has seen them settle.
 */
bool guard_series_full(const struct guard_state *g);

/*
 * The inclusive-ways pass, held back in @a, is let in once the layout
 * without it is settled and measured and no harmful layout is on hold.
 */
void guard_offer_inclusive(const struct guard_state *g, struct planner_alloc *a);

/*
 * The static probe (FSM.md, "Never worse for a PS tenant"), at the start
 * of an interval after guard_judge: @moved says a counter moved this
 * interval (the stability check's verdict). A move under a settled layout
 * other than static's makes a probe pending; it starts on the next
 * interval where nothing moved, putting g->ref in @a, and after
 * GUARD_SETTLE intervals ends with @a, *@state back to iocad's layout or
 * on static's for a hold. Anything but GUARD_PROBE_NONE is this
 * interval's whole decision (@a changed unless WAIT or STATIC).
 */
enum guard_probe_verdict guard_probe(struct guard_state *g, const struct config *cfg,
				     const struct tenant_delta *d, bool moved,
				     struct planner_alloc *a, enum fsm_state_id *state);

/* The masks of @x and @y are the same (DDIO's included). */
bool guard_same_layout(const struct planner_alloc *x, const struct planner_alloc *y);

#endif /* IOCAD_GUARD_H */
