/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who holds how much of the LLC: the occupancy of agents (tenants' cores,
 * DDIO, read DCA lines in the inclusive ways) that may each allocate only
 * into the ways of their mask. SIMULATOR.md, "Sharing ways", derives it:
 * the ways fall into groups, each the ways one set of agents shares; an
 * agent's fills land on its ways evenly (the replacement state, not the
 * ages in other groups, picks the victim), so group g takes n_g/|mask| of
 * them; each group is an LRU cache of its own under Che's approximation:
 * one characteristic time T_g, an agent holding there
 * n_g/|mask| * sum(lines * (1 - exp(-rate * T_g))) lines, T_g solved so
 * that its agents' lines fill its n_g ways. Who inserts more holds more:
 * a streaming tenant takes most of a way it shares.
 */
#ifndef IOCAD_SIM_POOL_H
#define IOCAD_SIM_POOL_H

#include <stdint.h>

#include "platform.h"

/* the tenants, DDIO, and read DCA lines in the inclusive ways */
#define SIM_POOL_MAX_AGENTS (PLATFORM_MAX_TENANTS + 2)
#define SIM_POOL_MAX_WAYS 32

/* A set of lines an agent accesses uniformly, each @rate times a second. */
struct sim_class {
	double lines;
	double rate;
};

struct sim_agent {
	uint32_t mask; /* ways it may allocate into */
	unsigned int nclass;
	const struct sim_class *cls;
};

/*
 * Where an agent's lines live: in @n groups of ways, share @f[g] of its
 * fills in the group of characteristic time @t[g] (INFINITY: all fit).
 */
struct sim_mix {
	unsigned int n;
	double f[SIM_POOL_MAX_WAYS];
	double t[SIM_POOL_MAX_WAYS];
};

struct sim_pool {
	/* Results of the last solve, per agent. */
	struct sim_mix mix[SIM_POOL_MAX_AGENTS];
	double t[SIM_POOL_MAX_AGENTS];	 /* its groups' shortest T, s (INFINITY: all fit) */
	double occ[SIM_POOL_MAX_AGENTS]; /* lines held */
	/* Per group of ways (the ways one set of agents shares): its T. */
	unsigned int ngroups;
	int group[SIM_POOL_MAX_WAYS]; /* per way: its group, or -1 (no agent) */
	unsigned int group_ways[SIM_POOL_MAX_WAYS];
	double group_t[SIM_POOL_MAX_WAYS];
};

/* Fraction of accesses at @rate per line that hit, given time @t. */
double sim_pool_hit(double rate, double t);

/* Lines agent @a holds at characteristic time @t (INFINITY: all it uses). */
double sim_pool_occupancy(const struct sim_agent *a, double t);

/* @m: every line in one place of time @t. */
void sim_mix_one(struct sim_mix *m, double t);

/* Fraction of accesses at @rate per line that hit, its lines placed as @m. */
double sim_mix_hit(const struct sim_mix *m, double rate);

/*
 * Solve the occupancy of @n agents on @nways ways of @way_lines lines.
 * Returns 0, or -EINVAL on a bad argument (too many agents or ways).
 */
int sim_pool_solve(struct sim_pool *p, const struct sim_agent *agents, unsigned int n,
		   unsigned int nways, double way_lines);

#endif /* IOCAD_SIM_POOL_H */
