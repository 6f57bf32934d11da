/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stability check of Poll Prof Data: did any counter move by more
 * than THRESHOLD_STABLE since the previous interval, and if so, is it one
 * of the paper's three cases that must not reach the FSM?
 */
#ifndef IOCAD_STABILITY_H
#define IOCAD_STABILITY_H

#include <stdbool.h>

#include "decide/policy.h"
#include "decide/planner.h"
#include "decide/tenant.h"

enum stab_verdict {
	STAB_STABLE,	 /* nothing moved: sleep */
	STAB_IPC_ONLY,	 /* exception 1: IPC moved alone: sleep */
	STAB_CORE_ALLOC, /* exception 2: a non-networking tenant's own demand */
	STAB_SHUFFLE,	 /* exception 3: same, but it shares DDIO: shuffle first */
	STAB_SHARER,	 /* as exception 2, but the tenant shares DDIO: not exception 2 */
	STAB_UNSTABLE,	 /* anything else: run the FSM */
};

struct stab_out {
	enum stab_verdict verdict;
	int tenant; /* CORE_ALLOC/SHUFFLE/SHARER: the tenant concerned, else -1 */
	bool ipc_changed;
	bool llc_changed;  /* some tenant's LLC refs or misses */
	bool ddio_changed; /* socket DDIO hits or misses */
};

/*
 * Classify one delta. @a tells which tenants overlap DDIO. Without a
 * previous interval everything counts as stable.
 */
void stability_check(const struct config *cfg, const struct planner_alloc *a,
		     const struct tenant_delta *d, struct stab_out *out);

#endif /* IOCAD_STABILITY_H */
