/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Demand signals decide_step() uses beside the paper's (FSM.md: "A way that
 * pays", "Core Demand from a networking tenant's own cores", "No grow at a
 * PS tenant's expense"). Pure functions of the context and one delta.
 */
#ifndef IOCAD_DEMAND_H
#define IOCAD_DEMAND_H

#include <stdbool.h>

#include "decide/decide.h"

/* DDIO misses / (hits + misses) of one interval, 0 when idle. */
double demand_miss_ratio(const struct tenant_interval *iv);

/*
 * The interval after a DDIO grow: if that way did not lower the miss
 * ratio, give it back, cap DDIO below it and go to High Keep (no_gain);
 * @out then says so. Also lifts the cap once the traffic rose. Returns
 * true if it took the way back.
 */
bool demand_ddio_way_paid(struct decide_ctx *ctx, const struct tenant_delta *d,
			  struct decide_out *out);

/* A networking tenant's IPC fell and its LLC miss rate rose (own_demand). */
bool demand_own(const struct config *cfg, const struct tenant_delta *d);

/* Add @d's current interval to the window (FSM.md, "own demand over a window"). */
void demand_window_push(struct decide_ctx *ctx, const struct tenant_delta *d);

/*
 * Over the window: a networking tenant's IPC fell and its LLC miss rate
 * rose against the window's oldest sample (own_demand as a trend).
 */
bool demand_own_window(const struct decide_ctx *ctx, const struct tenant_delta *d);

/* In Core Demand, the way granted last interval cut the tenant's misses. */
bool demand_last_grow_paid(const struct decide_ctx *ctx, const struct tenant_delta *d);

/*
 * One more way for tenant @i (-2: there is no candidate) would put a PS
 * tenant on DDIO's ways, or one more DDIO way (@i = -1, laid out with @d's
 * LLC references) would leave a PS tenant no way off DDIO's, or the grow is
 * impossible: mark @out blocked (grow_blocked) and move to @way_out.
 * Returns true if blocked.
 */
bool demand_grow_blocked(struct decide_ctx *ctx, int i, const struct tenant_delta *d,
			 enum fsm_state_id way_out, struct decide_out *out);

#endif /* IOCAD_DEMAND_H */
