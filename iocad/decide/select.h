/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which tenant gains a way in Core Demand and what Reclaim takes back.
 * Aggregation: the vswitch first (all rings are its). Slicing: the
 * networking tenant whose LLC miss rate rose the most.
 */
#ifndef IOCAD_SELECT_H
#define IOCAD_SELECT_H

#include "decide/policy.h"
#include "decide/planner.h"
#include "decide/tenant.h"

/* The tenant to grow in Core Demand, or -1 if none can grow. */
int select_grow(const struct config *cfg, const struct planner_alloc *a,
		const struct tenant_delta *d);

enum select_reclaim_kind {
	SELECT_RECLAIM_NONE, /* nothing is idle enough to take back */
	SELECT_RECLAIM_DDIO,
	SELECT_RECLAIM_TENANT,
};

struct select_reclaim {
	enum select_reclaim_kind kind;
	int tenant; /* SELECT_RECLAIM_TENANT only, else -1 */
};

/* What Reclaim takes this interval (FSM.md: "Reclaim choice"). */
void select_reclaim(const struct config *cfg, const struct planner_alloc *a,
		    const struct tenant_delta *d, struct select_reclaim *out);

/* True if tenant @i holds ways above its configured count. */
bool select_tenant_grown(const struct config *cfg, const struct planner_alloc *a, unsigned int i);

#endif /* IOCAD_SELECT_H */
