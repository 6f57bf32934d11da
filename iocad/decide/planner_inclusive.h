/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The inclusive ways (A4, ISCA 2025, "Microarchitecture-aware LLC
 * management"): DCA lines move into them when a core touches them, so a
 * tenant there suffers from I/O even off DDIO's ways. The planner's
 * second pass: PS tenants off them, I/O-heavy tenants onto them, within
 * each side of DDIO, nobody's DDIO overlap changed (FSM.md, "Planner").
 */
#ifndef IOCAD_PLANNER_INCLUSIVE_H
#define IOCAD_PLANNER_INCLUSIVE_H

#include <stdbool.h>

#include "decide/policy.h"
#include "decide/planner.h"

/*
 * Rearrange the non-sharers of @a (group leaders with @share[i] false,
 * placed by the I/O-aware planner, DDIO's mask and the sharers' masks
 * final) within each side of DDIO around cfg->inclusive_mask, and set
 * a->incl_fallback. Members' masks are the caller's to copy.
 */
void planner_inclusive_arrange(const struct config *cfg, struct planner_alloc *a,
			       const bool *share);

#endif /* IOCAD_PLANNER_INCLUSIVE_H */
