/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Who holds how much of the LLC: the occupancy equilibrium of agents
 * (tenants' cores and DDIO) that may each allocate only into the ways of
 * their mask. SIMULATOR.md derives it; in short each agent sees one
 * characteristic time T (Che's approximation of LRU: a line survives T
 * after its last access), the agent holds sum(lines * (1 - exp(-rate*T)))
 * lines, and T is the max-min fair solution: an agent's lines settle in
 * the ways of its mask where lines live longest, as LRU victim selection
 * among a mask's ways makes them do.
 */
#ifndef IOCAD_SIM_POOL_H
#define IOCAD_SIM_POOL_H

#include <stdint.h>

#include "platform.h"

/* the tenants, DDIO, and read DCA lines in the inclusive ways */
#define SIM_POOL_MAX_AGENTS (PLATFORM_MAX_TENANTS + 2)
#define SIM_POOL_MAX_WAYS 32
#define SIM_POOL_MAX_NODES (SIM_POOL_MAX_AGENTS + SIM_POOL_MAX_WAYS + 2)
#define SIM_POOL_MAX_EDGES \
	(2 * (SIM_POOL_MAX_AGENTS + SIM_POOL_MAX_AGENTS * SIM_POOL_MAX_WAYS + SIM_POOL_MAX_WAYS))

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

struct sim_pool {
	/* Results of the last solve, per agent. */
	double t[SIM_POOL_MAX_AGENTS];	 /* seconds; INFINITY: everything it uses fits */
	double occ[SIM_POOL_MAX_AGENTS]; /* lines held */
	/* Max-flow workspace (agents -> ways), kept here to avoid allocation. */
	int head[SIM_POOL_MAX_NODES];
	int prev_edge[SIM_POOL_MAX_NODES];
	int queue[SIM_POOL_MAX_NODES];
	int nxt[SIM_POOL_MAX_EDGES];
	int to[SIM_POOL_MAX_EDGES];
	double cap[SIM_POOL_MAX_EDGES];
	double flow[SIM_POOL_MAX_EDGES];
	int nedges;
	int src_edge[SIM_POOL_MAX_AGENTS]; /* edge s -> agent, or -1 */
};

/* Fraction of accesses at @rate per line that hit, given time @t. */
double sim_pool_hit(double rate, double t);

/* Lines agent @a holds at characteristic time @t (INFINITY: all it uses). */
double sim_pool_occupancy(const struct sim_agent *a, double t);

/*
 * Solve the equilibrium of @n agents on @nways ways of @way_lines lines.
 * Returns 0, or -EINVAL on a bad argument (too many agents or ways).
 */
int sim_pool_solve(struct sim_pool *p, const struct sim_agent *agents, unsigned int n,
		   unsigned int nways, double way_lines);

#endif /* IOCAD_SIM_POOL_H */
