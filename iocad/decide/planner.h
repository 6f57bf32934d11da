/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The way planner: turns way counts (DDIO's and each tenant's) into
 * contiguous CAT masks around DDIO's contiguous range, wherever it is
 * (the most significant ways unless the platform's mask says otherwise).
 * The I/O-aware policy (ioca mode) never lets a tenant share DDIO's ways
 * while free ways exist, and when sharing is unavoidable picks the BE
 * tenant(s) with the fewest LLC references ("shuffling"); PS tenants and
 * the vswitch share only if the BE tenants cannot cover the overlap.
 * A group (config key "group") is planned as one tenant with one mask.
 * Within each side of DDIO, PS tenants are kept off the inclusive ways
 * (cfg->inclusive_mask, A4) when an arrangement allows it, and the
 * I/O-heavy tenants are put on them first; this never changes who
 * shares DDIO's ways or by how much.
 * The I/O-unaware policy (core-only, static) packs tenants in config
 * order from way 0, blind to where DDIO is.
 */
#ifndef IOCAD_PLANNER_H
#define IOCAD_PLANNER_H

#include <stdbool.h>
#include <stdint.h>

#include "decide/policy.h"
#include "platform.h"

/* The current allocation: what the loop applies and decisions change. */
struct planner_alloc {
	unsigned int llc_ways;
	unsigned int ddio_ways;
	uint32_t ddio_mask;
	uint32_t ddio_origin; /* where DDIO was adopted or started (planner_ddio_at) */
	unsigned int ntenants;
	unsigned int ways[PLATFORM_MAX_TENANTS];
	uint32_t mask[PLATFORM_MAX_TENANTS];
	/* config_tenant.group_leader, copied by planner_plan: 0 or 1 + leader */
	unsigned int group_leader[PLATFORM_MAX_TENANTS];
	/* Demand when a way was last granted; Reclaim compares against it. */
	double grant_refs[PLATFORM_MAX_TENANTS]; /* tenant LLC refs/s */
	double ddio_grant_traffic;		 /* DDIO hits+misses per s */
	unsigned int ddio_grant_ways;		 /* DDIO ways after that grant */
	/* DDIO's ways are not iocad's to reclaim (core-only, static, ddio = observe). */
	bool ddio_fixed;
	/*
	 * Whether DDIO's last grown way paid (FSM.md, "A way that pays"):
	 * the miss ratio at the grow, checked the interval after; and the
	 * ceiling set when one did not, lifted when the traffic rises.
	 */
	bool ddio_probe;
	double ddio_probe_ratio;
	unsigned int ddio_cap; /* 0: none */
	double ddio_cap_traffic;
	double ddio_cap_ratio;	   /* DDIO's miss ratio at the cap: the I/O footprint then */
	unsigned int ddio_cap_age; /* intervals since the cap was set */
	/* The tenant Core Demand last grew (-1: none) and its LLC misses/s then. */
	int grow_probe;
	double grow_probe_misses;
	/* The tenant the core-side allocator granted a way last interval (-1: none). */
	int core_probe;
	/*
	 * Group leaders (bit i: tenant i) kept off the inclusive ways
	 * (cfg->inclusive_mask) that the last I/O-aware plan could not keep
	 * off them: the fallback to DDIO's rule alone (FSM.md, "Planner").
	 */
	uint64_t incl_fallback;
	/*
	 * The inclusive-ways pass is held back: at start, until the layout
	 * without it has been measured, and after the guard undid it
	 * (guard.h), until its hold runs out. Its cost is then judged like
	 * any other change.
	 */
	bool incl_deferred;
};

enum planner_policy {
	PLANNER_IO_AWARE,
	PLANNER_IO_UNAWARE,
};

/* DDIO's mask: the @ddio_ways most significant of @llc_ways. */
uint32_t planner_ddio_mask(unsigned int llc_ways, unsigned int ddio_ways);

/*
 * DDIO's mask of @ddio_ways ways from its mask @prev, wherever that is
 * (FSM.md, "Planner"): it stays put; it grows at its top end, at its
 * bottom end once it holds the top way; it shrinks undoing those grows
 * back toward @origin (where it was adopted or started; 0: @prev), and
 * inside @origin at its bottom end while it holds the top way (the
 * hardware's alignment), else at its top end. @prev empty, not contiguous
 * or beyond @llc_ways: the top @ddio_ways ways.
 */
uint32_t planner_ddio_at(uint32_t prev, uint32_t origin, unsigned int llc_ways,
			 unsigned int ddio_ways);

/*
 * Recompute every mask of @a from a->ways[] and a->ddio_ways, DDIO's mask
 * from a->ddio_mask (planner_ddio_at). @llc_refs
 * (per tenant, may be NULL) orders BE tenants for sharing; a tenant that
 * shares now keeps its place unless another has @hysteresis (relative)
 * fewer references. Previous masks in @a keep the order of the others.
 * Returns 0, or -ENOSPC if the ways do not fit (a is then unchanged).
 */
int planner_plan(const struct config *cfg, enum planner_policy pol, const double *llc_refs,
		 double hysteresis, struct planner_alloc *a);

/*
 * True if tenant @i's group is kept off the inclusive ways: it has a PS
 * tenant and no I/O-heavy one (the vswitch; in slicing a networking tenant).
 */
bool planner_inclusive_shy(const struct config *cfg, const struct planner_alloc *a, unsigned int i);

/* Ways of tenant @i that DDIO can also allocate into. */
unsigned int planner_ddio_overlap(const struct planner_alloc *a, unsigned int i);

/* The first tenant of @i's group, or @i. */
unsigned int planner_leader(const struct planner_alloc *a, unsigned int i);

/* Add @delta ways to tenant @i and every tenant of its group. */
void planner_group_add(struct planner_alloc *a, unsigned int i, int delta);

/* Sum of the tenants' ways, a group's counted once. */
unsigned int planner_tenant_ways(const struct planner_alloc *a);

/*
 * True if one more way for tenant @i's group (or, with @i < 0, for DDIO)
 * still leaves room to keep every PS tenant and the vswitch off DDIO's
 * ways: their ways plus DDIO's fit the LLC. No grow may buy ways with a
 * PS tenant's isolation.
 */
bool planner_grow_keeps_isolation(const struct config *cfg, const struct planner_alloc *a, int i);

/*
 * True if one more DDIO way, laid out as planner_plan would (with
 * @llc_refs and @hysteresis), leaves every PS tenant and the vswitch at
 * least one way off DDIO's: the paper's partial overlap when DDIO grows
 * (FSM.md, "No grow at a PS tenant's expense").
 */
bool planner_ddio_grow_partial(const struct config *cfg, const struct planner_alloc *a,
			       const double *llc_refs, double hysteresis);

/*
 * @a as what socket cfg->socket should hold: DDIO's mask, one resctrl
 * group per tenant or config group (named after it, its members' CPUs),
 * and the CPUs to sample.
 */
void planner_socket_plan(const struct config *cfg, const struct planner_alloc *a,
			 struct platform_socket_plan *out);

#endif /* IOCAD_PLANNER_H */
