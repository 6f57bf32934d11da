// SPDX-License-Identifier: GPL-2.0
/*
 * Tenants are packed from way 0 upward and DDIO owns the top ways, so
 * the only ways tenants can share with DDIO are the top of the packing:
 * overlap = max(0, tenant ways + DDIO ways - LLC ways), never more. Who
 * sits on top is the whole of "shuffling".
 */
#include <errno.h>
#include <string.h>

#include "planner.h"
#include "ways.h"

uint32_t planner_ddio_mask(unsigned int llc_ways, unsigned int ddio_ways)
{
	if (ddio_ways > llc_ways)
		ddio_ways = llc_ways;
	return ways_top(llc_ways, ddio_ways);
}

unsigned int planner_ddio_overlap(const struct planner_alloc *a, unsigned int i)
{
	return (unsigned int)__builtin_popcount(a->mask[i] & a->ddio_mask);
}

unsigned int planner_leader(const struct planner_alloc *a, unsigned int i)
{
	return a->group_leader[i] ? a->group_leader[i] - 1 : i;
}

void planner_group_add(struct planner_alloc *a, unsigned int i, int delta)
{
	unsigned int l = planner_leader(a, i);

	for (unsigned int j = 0; j < a->ntenants; j++)
		if (planner_leader(a, j) == l)
			a->ways[j] = (unsigned int)((int)a->ways[j] + delta);
}

unsigned int planner_tenant_ways(const struct planner_alloc *a)
{
	unsigned int w = 0;

	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == i)
			w += a->ways[i];
	return w;
}

/* Current position of a tenant; unplaced ones sort after placed ones. */
static unsigned int position(const struct planner_alloc *a, unsigned int i)
{
	return a->mask[i] ? (unsigned int)__builtin_ctz(a->mask[i]) : 64 + i;
}

static void sort_by_position(const struct planner_alloc *a, unsigned int *idx, unsigned int n)
{
	for (unsigned int k = 1; k < n; k++) {
		unsigned int v = idx[k], j = k;

		while (j > 0 && position(a, idx[j - 1]) > position(a, v)) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

/* A group is protected if any of its tenants is PS (or the vswitch). */
static bool protected_tenant(const struct config *cfg, const struct planner_alloc *a,
			     unsigned int l)
{
	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == l &&
		    (cfg->tenant[i].prio == CONFIG_PRIO_PS || cfg->tenant[i].vswitch))
			return true;
	return false;
}

/* True if tenant @u is a better sharing candidate than @v. */
static bool shares_before(const bool *prot, const double *key, unsigned int u, unsigned int v)
{
	bool pu = prot[u], pv = prot[v];

	if (pu != pv)
		return !pu;
	if (key[u] != key[v])
		return key[u] < key[v];
	return u < v;
}

/*
 * Sharing candidates (group leaders), best first: BE before protected;
 * within a class, fewest LLC references (a group's summed), a current
 * sharer's count discounted by @hysteresis so noise does not swap sharers
 * back and forth.
 */
static void sort_sharers(const struct config *cfg, const struct planner_alloc *a,
			 const double *refs, double hyst, unsigned int *idx, unsigned int n)
{
	double key[PLATFORM_MAX_TENANTS] = {0};
	bool prot[PLATFORM_MAX_TENANTS] = {false};

	for (unsigned int i = 0; i < a->ntenants; i++)
		key[planner_leader(a, i)] += refs ? refs[i] : 0;
	for (unsigned int k = 0; k < n; k++) {
		unsigned int l = idx[k];

		if (a->mask[l] & a->ddio_mask)
			key[l] *= 1.0 - hyst;
		prot[l] = protected_tenant(cfg, a, l);
	}
	for (unsigned int k = 1; k < n; k++) {
		unsigned int v = idx[k], j = k;

		while (j > 0 && !shares_before(prot, key, idx[j - 1], v)) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = v;
	}
}

/* Pack the leaders in @order from way 0; members take their leader's mask. */
static void pack(struct planner_alloc *a, const unsigned int *order, unsigned int n)
{
	unsigned int lo = 0;

	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = order[k];

		a->mask[i] = ways_mask(lo, a->ways[i]);
		lo += a->ways[i];
	}
	for (unsigned int i = 0; i < a->ntenants; i++)
		a->mask[i] = a->mask[planner_leader(a, i)];
}

/* Order of @n leaders for the I/O-aware policy: keepers by position, then sharers. */
static void aware_order(const struct config *cfg, const struct planner_alloc *a, const double *refs,
			double hyst, unsigned int *order, unsigned int n)
{
	unsigned int w = planner_tenant_ways(a), room = a->llc_ways - a->ddio_ways;
	unsigned int cand[PLATFORM_MAX_TENANTS], keep[PLATFORM_MAX_TENANTS];
	bool share[PLATFORM_MAX_TENANTS] = {false};
	unsigned int nk = 0, ns = 0, need, got = 0;

	memcpy(cand, order, n * sizeof(*cand));
	need = w > room ? w - room : 0;
	sort_sharers(cfg, a, refs, hyst, cand, n);
	for (unsigned int k = 0; k < n && got < need; k++) {
		share[cand[k]] = true;
		got += a->ways[cand[k]];
		ns++;
	}
	for (unsigned int k = 0; k < n; k++)
		if (!share[order[k]])
			keep[nk++] = order[k];
	sort_by_position(a, keep, nk);
	memcpy(order, keep, nk * sizeof(*order));
	/* the first chosen (fewest refs) goes on top, into DDIO's ways */
	for (unsigned int k = 0; k < ns; k++)
		order[nk + k] = cand[ns - 1 - k];
}

int planner_plan(const struct config *cfg, enum planner_policy pol, const double *llc_refs,
		 double hysteresis, struct planner_alloc *a)
{
	unsigned int order[PLATFORM_MAX_TENANTS], n = 0;
	struct planner_alloc b = *a;

	for (unsigned int i = 0; i < b.ntenants; i++) {
		b.group_leader[i] = cfg->tenant[i].group_leader;
		if (planner_leader(&b, i) == i)
			order[n++] = i; /* config order */
		else if (b.ways[i] != b.ways[planner_leader(&b, i)])
			return -ENOSPC; /* a group has one mask */
		if (!b.ways[i])
			return -ENOSPC;
	}
	if (!b.ddio_ways || b.ddio_ways > b.llc_ways || b.llc_ways > 32 ||
	    planner_tenant_ways(&b) > b.llc_ways)
		return -ENOSPC;
	/* sharers are chosen against the DDIO mask being planned */
	b.ddio_mask = planner_ddio_mask(b.llc_ways, b.ddio_ways);
	if (pol == PLANNER_IO_AWARE)
		aware_order(cfg, &b, llc_refs, hysteresis, order, n);
	pack(&b, order, n);
	*a = b;
	return 0;
}

bool planner_grow_keeps_isolation(const struct config *cfg, const struct planner_alloc *a, int i)
{
	unsigned int prot = 0, ddio = a->ddio_ways + (i < 0);

	for (unsigned int j = 0; j < a->ntenants; j++)
		if (planner_leader(a, j) == j && protected_tenant(cfg, a, j))
			prot += a->ways[j];
	if (i >= 0 && protected_tenant(cfg, a, planner_leader(a, (unsigned int)i)))
		prot++;
	if (i >= 0 && planner_tenant_ways(a) + 1 > a->llc_ways)
		return false;
	return prot + ddio <= a->llc_ways;
}

void planner_socket_plan(const struct config *cfg, const struct planner_alloc *a,
			 struct platform_socket_plan *out)
{
	memset(out, 0, sizeof(*out));
	out->id = cfg->socket;
	out->ddio_mask = a->ddio_mask;
	for (unsigned int i = 0; i < a->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		const char *name = t->group[0] ? t->group : t->name;
		struct platform_group *g = NULL;

		for (unsigned int k = 0; k < out->ngroups && !g; k++)
			if (!strcmp(out->group[k].name, name))
				g = &out->group[k];
		if (!g) {
			g = &out->group[out->ngroups++];
			memcpy(g->name, name, strlen(name) + 1);
			/* a group has one mask: its leader's */
			g->mask = a->mask[planner_leader(a, i)];
		}
		for (unsigned int k = 0; k < t->ncpus; k++) {
			platform_cpuset_add(&g->cpus, t->cpus[k]);
			platform_cpuset_add(&out->sample_cpus, t->cpus[k]);
		}
	}
}
