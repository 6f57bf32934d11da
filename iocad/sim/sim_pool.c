// SPDX-License-Identifier: GPL-2.0
/*
 * Each group's T is found on its own: the lines its agents keep there grow
 * with T, so a geometric search, then a bisection, finds the T at which
 * they fill its ways (SIMULATOR.md, "Sharing ways").
 */
#include "sim_pool.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "ways.h"

#define T_START 1e-7 /* s; far below any reuse time the model produces */
#define T_LIMIT 1e15 /* s; beyond it a T is as good as infinite */
#define T_STEP 8.0
/* Geometric bisection within a factor of 8: 2^-40 of it is 2e-12 relative. */
#define BISECT_STEPS 40
#define MEMBER_WORDS ((SIM_POOL_MAX_AGENTS + 63) / 64)

double sim_pool_hit(double rate, double t)
{
	if (rate <= 0.0)
		return 0.0;
	if (isinf(t))
		return 1.0;
	return -expm1(-rate * t);
}

double sim_pool_occupancy(const struct sim_agent *a, double t)
{
	double occ = 0.0;
	unsigned int k;

	for (k = 0; k < a->nclass; k++)
		occ += a->cls[k].lines * sim_pool_hit(a->cls[k].rate, t);
	return occ;
}

void sim_mix_one(struct sim_mix *m, double t)
{
	m->n = 1;
	m->f[0] = 1.0;
	m->t[0] = t;
}

double sim_mix_hit(const struct sim_mix *m, double rate)
{
	double h = 0.0;
	unsigned int g;

	for (g = 0; g < m->n; g++)
		h += m->f[g] * sim_pool_hit(rate, m->t[g]);
	return h;
}

struct group_ctx {
	const struct sim_agent *agents;
	const double *share; /* per agent: its share of fills in this group */
	unsigned int n;
};

/* Lines the group's agents keep in it at time @t. */
static double group_lines(const struct group_ctx *c, double t)
{
	double sum = 0.0;
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->share[i] > 0)
			sum += c->share[i] * sim_pool_occupancy(&c->agents[i], t);
	return sum;
}

/* The T at which the group's lines fill @cap (INFINITY if all fit). */
static double group_time(const struct group_ctx *c, double cap)
{
	double lo = 0.0, hi = T_START;
	int k;

	if (group_lines(c, INFINITY) <= cap)
		return INFINITY;
	while (group_lines(c, hi) <= cap) {
		lo = hi;
		hi *= T_STEP;
		if (hi > T_LIMIT)
			return INFINITY;
	}
	for (k = 0; k < BISECT_STEPS; k++) {
		double mid = lo > 0 ? sqrt(lo * hi) : 0.5 * hi;

		if (group_lines(c, mid) <= cap)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* Which of @n agents (those with lines) allocate into way @w. */
static void members(const struct sim_agent *agents, const bool *active, unsigned int n,
		    unsigned int w, uint64_t out[MEMBER_WORDS])
{
	unsigned int i;

	memset(out, 0, sizeof(uint64_t) * MEMBER_WORDS);
	for (i = 0; i < n; i++)
		if (active[i] && (agents[i].mask >> w & 1))
			out[i / 64] |= UINT64_C(1) << (i % 64);
}

/* Group the ways by the agents that share them; returns how many groups. */
static unsigned int group_ways(struct sim_pool *p, const struct sim_agent *agents,
			       const bool *active, unsigned int n, unsigned int nways)
{
	uint64_t sig[SIM_POOL_MAX_WAYS][MEMBER_WORDS];
	unsigned int w, v, ng = 0;

	for (w = 0; w < nways; w++) {
		members(agents, active, n, w, sig[w]);
		p->group[w] = -1;
		for (v = 0; v < MEMBER_WORDS && !sig[w][v]; v++)
			;
		if (v == MEMBER_WORDS)
			continue; /* nobody allocates here */
		for (v = 0; v < w; v++)
			if (p->group[v] >= 0 && !memcmp(sig[v], sig[w], sizeof(sig[w]))) {
				p->group[w] = p->group[v];
				p->group_ways[p->group[w]]++;
				break;
			}
		if (p->group[w] < 0) {
			p->group[w] = (int)ng;
			p->group_ways[ng++] = 1;
		}
	}
	return ng;
}

int sim_pool_solve(struct sim_pool *p, const struct sim_agent *agents, unsigned int n,
		   unsigned int nways, double way_lines)
{
	bool active[SIM_POOL_MAX_AGENTS];
	double share[SIM_POOL_MAX_AGENTS];
	unsigned int nw[SIM_POOL_MAX_AGENTS];
	uint32_t valid;
	unsigned int i, w, g;

	if (n > SIM_POOL_MAX_AGENTS || nways == 0 || nways > SIM_POOL_MAX_WAYS || !(way_lines > 0))
		return -EINVAL;
	valid = ways_all(nways);
	for (i = 0; i < n; i++) {
		nw[i] = (unsigned int)__builtin_popcount(agents[i].mask & valid);
		active[i] = nw[i] > 0 && sim_pool_occupancy(&agents[i], INFINITY) > 0.0;
		p->mix[i].n = 0;
		p->occ[i] = 0.0;
		/* lines it may keep nowhere: T 0; nothing used: everything fits */
		p->t[i] = nw[i] ? INFINITY : 0.0;
		if (!nw[i])
			sim_mix_one(&p->mix[i], 0.0);
		else if (!active[i])
			sim_mix_one(&p->mix[i], INFINITY);
	}
	p->ngroups = group_ways(p, agents, active, n, nways);
	for (g = 0; g < p->ngroups; g++) {
		struct group_ctx c = {.agents = agents, .share = share, .n = n};
		uint32_t gmask = 0;

		for (w = 0; w < nways; w++)
			if (p->group[w] == (int)g)
				gmask |= 1u << w;
		for (i = 0; i < n; i++)
			share[i] = active[i] && (agents[i].mask & gmask)
					   ? (double)p->group_ways[g] / nw[i]
					   : 0.0;
		p->group_t[g] = group_time(&c, p->group_ways[g] * way_lines);
		for (i = 0; i < n; i++) {
			struct sim_mix *m = &p->mix[i];

			if (!(share[i] > 0))
				continue;
			m->f[m->n] = share[i];
			m->t[m->n++] = p->group_t[g];
			p->occ[i] += share[i] * sim_pool_occupancy(&agents[i], p->group_t[g]);
			p->t[i] = fmin(p->t[i], p->group_t[g]);
		}
	}
	return 0;
}
