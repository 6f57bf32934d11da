// SPDX-License-Identifier: GPL-2.0
/*
 * The equilibrium is found by progressive filling: raise one common T for
 * every agent not yet settled until the demanded lines no longer fit into
 * the ways their masks allow (a max-flow from agents to ways tells), settle
 * the agents of the saturated set (the source side of the minimum cut) at
 * that T, take their ways away, and go on with the rest. Agents left when
 * everything fits hold all the lines they use.
 */
#include "sim_pool.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>

#include "ways.h"

#define FLOW_INF 1e300
#define T_START 1e-7 /* s; far below any reuse time the model produces */
#define T_LIMIT 1e15 /* s; beyond it a T is as good as infinite */
#define T_STEP 8.0
/* Geometric bisection within a factor of 8: 2^-32 of it is 5e-10 relative. */
#define BISECT_STEPS 32

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

static int add_edge(struct sim_pool *p, int u, int v, double c)
{
	int e = p->nedges;

	p->to[e] = v;
	p->cap[e] = c;
	p->nxt[e] = p->head[u];
	p->head[u] = e;
	p->to[e + 1] = u;
	p->cap[e + 1] = 0.0;
	p->nxt[e + 1] = p->head[v];
	p->head[v] = e + 1;
	p->nedges += 2;
	return e;
}

/* Breadth-first search in the residual graph; marks prev_edge (-2: unseen). */
static bool bfs(struct sim_pool *p, int s, int t, int nnodes, double eps)
{
	int qh = 0, qt = 0, i;

	for (i = 0; i < nnodes; i++)
		p->prev_edge[i] = -2;
	p->prev_edge[s] = -1;
	p->queue[qt++] = s;
	while (qh < qt) {
		int u = p->queue[qh++];
		int e;

		for (e = p->head[u]; e >= 0; e = p->nxt[e]) {
			int v = p->to[e];

			if (p->prev_edge[v] != -2 || p->cap[e] - p->flow[e] <= eps)
				continue;
			p->prev_edge[v] = e;
			p->queue[qt++] = v;
		}
	}
	return t >= 0 && p->prev_edge[t] != -2;
}

static double max_flow(struct sim_pool *p, int s, int t, int nnodes, double eps)
{
	double total = 0.0;
	int e;

	for (e = 0; e < p->nedges; e++)
		p->flow[e] = 0.0;
	while (bfs(p, s, t, nnodes, eps)) {
		double b = FLOW_INF;
		int v;

		for (v = t; v != s; v = p->to[p->prev_edge[v] ^ 1])
			b = fmin(b, p->cap[p->prev_edge[v]] - p->flow[p->prev_edge[v]]);
		for (v = t; v != s; v = p->to[p->prev_edge[v] ^ 1]) {
			p->flow[p->prev_edge[v]] += b;
			p->flow[p->prev_edge[v] ^ 1] -= b;
		}
		total += b;
	}
	return total;
}

struct solve_ctx {
	struct sim_pool *p;
	const struct sim_agent *agents;
	unsigned int n;
	const bool *active;
	int s, t, nnodes;
	double eps, tol;
};

static bool feasible(const struct solve_ctx *c, double t)
{
	double want = 0.0;
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		if (!c->active[i])
			continue;
		c->p->cap[c->p->src_edge[i]] = sim_pool_occupancy(&c->agents[i], t);
		want += c->p->cap[c->p->src_edge[i]];
	}
	return max_flow(c->p, c->s, c->t, c->nnodes, c->eps) >= want - c->tol;
}

static void build_graph(struct solve_ctx *c, const double *way_cap, unsigned int nways)
{
	struct sim_pool *p = c->p;
	unsigned int i, w;
	int v;

	for (v = 0; v < c->nnodes; v++)
		p->head[v] = -1;
	p->nedges = 0;
	for (i = 0; i < c->n; i++) {
		p->src_edge[i] = -1;
		if (!c->active[i])
			continue;
		p->src_edge[i] = add_edge(p, c->s, 1 + (int)i, 0.0);
		for (w = 0; w < nways; w++)
			if ((c->agents[i].mask >> w & 1) && way_cap[w] > c->eps)
				add_edge(p, 1 + (int)i, 1 + (int)(c->n + w), FLOW_INF);
	}
	for (w = 0; w < nways; w++)
		if (way_cap[w] > c->eps)
			add_edge(p, 1 + (int)(c->n + w), c->t, way_cap[w]);
}

/* The largest common T that still fits (0 if none does). */
static double bottleneck_t(const struct solve_ctx *c, double *hi_out)
{
	double lo = 0.0, hi = T_START;
	int k;

	while (feasible(c, hi)) {
		lo = hi;
		hi *= T_STEP;
		if (hi > T_LIMIT) {
			*hi_out = hi;
			return lo;
		}
	}
	if (lo == 0.0) {
		/* Not even T_START fits: a linear search down to zero. */
		for (k = 0; k < BISECT_STEPS; k++) {
			double mid = 0.5 * (lo + hi);

			if (feasible(c, mid))
				lo = mid;
			else
				hi = mid;
		}
		*hi_out = hi;
		return lo;
	}
	for (k = 0; k < BISECT_STEPS; k++) {
		double mid = sqrt(lo * hi);

		if (feasible(c, mid))
			lo = mid;
		else
			hi = mid;
	}
	*hi_out = hi;
	return lo;
}

/* Settle the agents on the source side of the min cut at T = @t. */
static unsigned int settle(struct solve_ctx *c, bool *active, double t, double hi, double *way_cap,
			   unsigned int nways)
{
	struct sim_pool *p = c->p;
	unsigned int i, w, settled = 0;

	feasible(c, hi);
	bfs(p, c->s, -1, c->nnodes, c->eps);
	for (i = 0; i < c->n; i++) {
		if (!active[i] || p->prev_edge[1 + i] == -2)
			continue;
		active[i] = false;
		p->t[i] = t;
		p->occ[i] = sim_pool_occupancy(&c->agents[i], t);
		settled++;
	}
	for (w = 0; w < nways; w++)
		if (p->prev_edge[1 + c->n + w] != -2)
			way_cap[w] = 0.0;
	return settled;
}

int sim_pool_solve(struct sim_pool *p, const struct sim_agent *agents, unsigned int n,
		   unsigned int nways, double way_lines)
{
	double way_cap[SIM_POOL_MAX_WAYS];
	bool active[SIM_POOL_MAX_AGENTS];
	uint32_t valid;
	unsigned int i, w, left = 0;
	struct solve_ctx c = {
		.p = p,
		.agents = agents,
		.n = n,
		.active = active,
		.s = 0,
		.t = (int)(n + nways + 1),
		.nnodes = (int)(n + nways + 2),
	};

	if (n > SIM_POOL_MAX_AGENTS || nways == 0 || nways > SIM_POOL_MAX_WAYS || !(way_lines > 0))
		return -EINVAL;
	c.eps = way_lines * 1e-12;
	c.tol = way_lines * nways * 1e-9;
	valid = ways_all(nways);
	for (w = 0; w < nways; w++)
		way_cap[w] = way_lines;
	for (i = 0; i < n; i++) {
		double want = sim_pool_occupancy(&agents[i], INFINITY);

		p->t[i] = INFINITY;
		p->occ[i] = 0.0;
		active[i] = want > 0.0;
		if (active[i] && !(agents[i].mask & valid)) {
			p->t[i] = 0.0; /* lines it may keep nowhere */
			active[i] = false;
		}
		left += active[i];
	}
	while (left) {
		double t, hi;
		unsigned int got;

		build_graph(&c, way_cap, nways);
		if (feasible(&c, INFINITY)) {
			for (i = 0; i < n; i++)
				if (active[i])
					p->occ[i] = sim_pool_occupancy(&agents[i], INFINITY);
			break;
		}
		t = bottleneck_t(&c, &hi);
		got = settle(&c, active, t, hi, way_cap, nways);
		if (!got) {
			/* Rounding left no cut: settle everyone rather than loop. */
			for (i = 0; i < n; i++)
				if (active[i]) {
					active[i] = false;
					p->t[i] = t;
					p->occ[i] = sim_pool_occupancy(&agents[i], t);
				}
			break;
		}
		left -= got;
	}
	return 0;
}
