// SPDX-License-Identifier: GPL-2.0
/*
 * DDIO's ways are one contiguous range anywhere in the LLC (the top ways
 * by default, wherever an operator, another tool or AMD's io_alloc put
 * them). Tenants that do not share DDIO's ways sit below and above it;
 * the sharers fill the ways on both sides next to DDIO, then DDIO's own,
 * so the overlap is max(0, tenant ways + DDIO ways - LLC ways) whenever
 * the non-sharers fit beside DDIO. Who sits next to and on DDIO is the
 * whole of "shuffling".
 */
#include <errno.h>
#include <string.h>

#include "decide/planner.h"
#include "decide/planner_inclusive.h"
#include "ways.h"

uint32_t planner_ddio_mask(unsigned int llc_ways, unsigned int ddio_ways)
{
	if (ddio_ways > llc_ways)
		ddio_ways = llc_ways;
	return ways_top(llc_ways, ddio_ways);
}

uint32_t planner_ddio_at(uint32_t prev, uint32_t origin, unsigned int llc_ways,
			 unsigned int ddio_ways)
{
	uint32_t all = ways_mask(0, llc_ways);
	unsigned int lo, n, olo, ohi;

	if (ddio_ways > llc_ways)
		ddio_ways = llc_ways;
	if (!ddio_ways || !ways_contiguous(prev) || (prev & ~all))
		return planner_ddio_mask(llc_ways, ddio_ways);
	if (!ways_contiguous(origin) || (origin & ~all))
		origin = prev;
	lo = (unsigned int)__builtin_ctz(prev);
	n = (unsigned int)__builtin_popcount(prev);
	olo = (unsigned int)__builtin_ctz(origin);
	ohi = olo + (unsigned int)__builtin_popcount(origin);
	/* grow at the top end; once at the top way, at the bottom end */
	for (; n < ddio_ways; n++)
		if (lo + n >= llc_ways)
			lo--;
	/*
	 * shrink undoing the grows (the ways below the origin first, then
	 * those above it); inside the origin at the bottom end while it holds
	 * the top way (the hardware's alignment), else at the top end
	 */
	for (; n > ddio_ways; n--)
		if (lo < olo || (lo + n <= ohi && lo + n >= llc_ways))
			lo++;
	return ways_mask(lo, n);
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

/* Ways between tenant @i's mask and DDIO's (0: adjacent or on them; unplaced: far). */
static unsigned int ddio_gap(const struct planner_alloc *a, unsigned int i)
{
	unsigned int lo = (unsigned int)__builtin_ctz(a->ddio_mask);
	unsigned int hi = lo + (unsigned int)__builtin_popcount(a->ddio_mask);
	unsigned int mlo, mhi;

	if (!a->mask[i])
		return 64;
	mlo = (unsigned int)__builtin_ctz(a->mask[i]);
	mhi = 32 - (unsigned int)__builtin_clz(a->mask[i]);
	return mhi <= lo ? lo - mhi : mlo >= hi ? mlo - hi : 0;
}

/*
 * True if tenant @u is a better sharing candidate than @v. On equal
 * references (none known yet, at a first start) the one nearer DDIO's
 * ways shares: the fewest others move to make room.
 */
static bool shares_before(const struct planner_alloc *a, const bool *prot, const double *key,
			  unsigned int u, unsigned int v)
{
	bool pu = prot[u], pv = prot[v];

	if (pu != pv)
		return !pu;
	if (key[u] != key[v])
		return key[u] < key[v];
	if (ddio_gap(a, u) != ddio_gap(a, v))
		return ddio_gap(a, u) < ddio_gap(a, v);
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

		while (j > 0 && !shares_before(a, prot, key, idx[j - 1], v)) {
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

/* Ways below and above DDIO's range. */
static void ddio_sides(const struct planner_alloc *a, unsigned int *below, unsigned int *above)
{
	unsigned int lo = (unsigned int)__builtin_ctz(a->ddio_mask);

	*below = lo;
	*above = a->llc_ways - lo - (unsigned int)__builtin_popcount(a->ddio_mask);
}

/* Where the non-sharers go: masks, who had to share after all, ways used per side. */
struct keep_layout {
	uint32_t mask[PLATFORM_MAX_TENANTS];
	bool share[PLATFORM_MAX_TENANTS];
	unsigned int nb, na; /* ways used below and above DDIO */
	unsigned int lost;   /* ways demoted to sharing; a protected tenant's as 64 */
};

/*
 * The non-sharers, taken in @order, each to the side of DDIO it is on now
 * (a new one below first), else the other side; one that fits on neither
 * becomes a sharer. Then each side is laid out in @pos order (by current
 * position, so nobody moves for nothing): below from way 0 up, above
 * packed against the top way.
 */
static void place_keepers(const struct config *cfg, const struct planner_alloc *a,
			  const unsigned int *order, const unsigned int *pos, unsigned int nk,
			  const bool *share, struct keep_layout *out)
{
	unsigned int below, above, lo, hi;
	unsigned int lo_ddio = (unsigned int)__builtin_ctz(a->ddio_mask);
	bool up[PLATFORM_MAX_TENANTS] = {false};

	ddio_sides(a, &below, &above);
	memcpy(out->mask, a->mask, sizeof(out->mask));
	memcpy(out->share, share, sizeof(out->share));
	out->nb = out->na = out->lost = 0;
	for (unsigned int k = 0; k < nk; k++) {
		unsigned int i = order[k], w = a->ways[i];
		bool now_up = a->mask[i] && (unsigned int)__builtin_ctz(a->mask[i]) >= lo_ddio;
		bool fb = out->nb + w <= below, fa = out->na + w <= above;

		if (fb && (!now_up || !fa)) {
			out->nb += w;
		} else if (fa) {
			up[i] = true;
			out->na += w;
		} else {
			out->share[i] = true;
			out->lost += protected_tenant(cfg, a, i) ? 64 : w;
		}
	}
	lo = 0;
	hi = a->llc_ways - out->na;
	for (unsigned int k = 0; k < nk; k++) {
		unsigned int i = pos[k], w = a->ways[i];

		if (out->share[i])
			continue;
		if (up[i]) {
			out->mask[i] = ways_mask(hi, w);
			hi += w;
		} else {
			out->mask[i] = ways_mask(lo, w);
			lo += w;
		}
	}
}

/* Protected first, then the most ways first: first-fit decreasing. */
static void sort_for_fit(const struct config *cfg, const struct planner_alloc *a, unsigned int *idx,
			 unsigned int n)
{
	for (unsigned int k = 1; k < n; k++) {
		unsigned int v = idx[k], j = k;
		bool pv = protected_tenant(cfg, a, v);

		while (j > 0) {
			unsigned int u = idx[j - 1];
			bool pu = protected_tenant(cfg, a, u);

			if (pu > pv || (pu == pv && a->ways[u] >= a->ways[v]))
				break;
			idx[j] = u;
			j--;
		}
		idx[j] = v;
	}
}

/*
 * The sharers (best sharer first in @cand) between the keepers below and
 * above: the worst goes farthest from DDIO, each on the side with more
 * free ways next to DDIO left (below on a tie), so the best sharers end up
 * on DDIO's ways.
 */
static void place_sharers(struct planner_alloc *a, const unsigned int *cand, unsigned int ns,
			  unsigned int nb, unsigned int na)
{
	unsigned int lo_ddio = (unsigned int)__builtin_ctz(a->ddio_mask);
	unsigned int hi_ddio = lo_ddio + (unsigned int)__builtin_popcount(a->ddio_mask);
	unsigned int up = nb, down = a->llc_ways - na;

	for (unsigned int k = ns; k-- > 0;) {
		unsigned int i = cand[k], w = a->ways[i];
		unsigned int pad_lo = lo_ddio > up ? lo_ddio - up : 0;
		unsigned int pad_hi = down > hi_ddio ? down - hi_ddio : 0;

		if (pad_hi > pad_lo && w <= down - up) {
			down -= w;
			a->mask[i] = ways_mask(down, w);
		} else {
			a->mask[i] = ways_mask(up, w);
			up += w;
		}
	}
}

/*
 * The ways the non-sharers (@share false) leave for the inclusive ways:
 * those of the keepers that may sit there (BE or I/O-heavy,
 * planner_inclusive_shy) and the free ways beside DDIO. Fewer than the
 * inclusive ways beside DDIO, and a PS tenant ends up on them.
 */
static unsigned int incl_cover(const struct config *cfg, const struct planner_alloc *a,
			       const bool *share)
{
	unsigned int keep = 0, cover = 0, shw = 0, side, room = a->llc_ways - a->ddio_ways;

	for (unsigned int i = 0; i < a->ntenants; i++) {
		if (planner_leader(a, i) != i)
			continue;
		if (share[i]) {
			shw += a->ways[i];
			continue;
		}
		keep += a->ways[i];
		if (!planner_inclusive_shy(cfg, a, i))
			cover += a->ways[i];
	}
	/* the sharers' ways beyond DDIO's are taken from the sides too */
	side = shw > a->ddio_ways ? shw - a->ddio_ways : 0;
	return cover + (room > keep + side ? room - keep - side : 0);
}

/*
 * The sharers by @cand's order leave only PS tenants to cover the
 * inclusive ways: a BE sharer kept off DDIO's ways (the worst sharer
 * first), the others by @cand's order still giving the @need ways, covers
 * them instead (FSM.md row 29). @share is changed only when one does.
 */
static void keep_be_for_inclusive(const struct config *cfg, const struct planner_alloc *a,
				  const unsigned int *cand, unsigned int n, unsigned int need,
				  bool *share)
{
	uint32_t side = cfg->inclusive_mask & ~a->ddio_mask & ways_mask(0, a->llc_ways);
	unsigned int inc = (unsigned int)__builtin_popcount(side), below, above;

	/*
	 * with ways on both sides of DDIO the keepers are two bins: other
	 * sharers may leave one out and share more (not counted here)
	 */
	ddio_sides(a, &below, &above);
	if (!inc || a->incl_deferred || (below && above) || incl_cover(cfg, a, share) >= inc)
		return;
	for (unsigned int j = n; j-- > 0;) {
		bool alt[PLATFORM_MAX_TENANTS] = {false};
		unsigned int got = 0;

		if (!share[cand[j]] || protected_tenant(cfg, a, cand[j]))
			continue;
		for (unsigned int k = 0; k < n && got < need; k++) {
			if (k == j)
				continue;
			if (protected_tenant(cfg, a, cand[k]))
				break; /* a PS tenant on DDIO's ways is worse */
			alt[cand[k]] = true;
			got += a->ways[cand[k]];
		}
		if (got >= need && incl_cover(cfg, a, alt) >= inc) {
			memcpy(share, alt, sizeof(alt));
			return;
		}
	}
}

/* The I/O-aware layout of @n leaders (config order in @order) around DDIO's mask. */
static void aware_place(const struct config *cfg, struct planner_alloc *a, const double *refs,
			double hyst, const unsigned int *order, unsigned int n)
{
	unsigned int w = planner_tenant_ways(a), room = a->llc_ways - a->ddio_ways;
	unsigned int cand[PLATFORM_MAX_TENANTS], keep[PLATFORM_MAX_TENANTS],
		sh[PLATFORM_MAX_TENANTS];
	bool share[PLATFORM_MAX_TENANTS] = {false};
	unsigned int nk = 0, ns = 0, need, got = 0;
	struct keep_layout l1, l2;

	memcpy(cand, order, n * sizeof(*cand));
	need = w > room ? w - room : 0;
	sort_sharers(cfg, a, refs, hyst, cand, n);
	for (unsigned int k = 0; k < n && got < need; k++) {
		share[cand[k]] = true;
		got += a->ways[cand[k]];
	}
	keep_be_for_inclusive(cfg, a, cand, n, need, share);
	for (unsigned int k = 0; k < n; k++)
		if (!share[order[k]])
			keep[nk++] = order[k];
	sort_by_position(a, keep, nk);
	place_keepers(cfg, a, keep, keep, nk, share, &l1);
	/*
	 * With DDIO between tenants the two sides are two bins: when the
	 * current order leaves a non-sharer out, first-fit decreasing
	 * (protected first) may not; the one that demotes less is taken, each
	 * side still laid out by current position
	 */
	if (l1.lost) {
		unsigned int fit[PLATFORM_MAX_TENANTS];

		memcpy(fit, keep, nk * sizeof(*fit));
		sort_for_fit(cfg, a, fit, nk);
		place_keepers(cfg, a, fit, keep, nk, share, &l2);
		if (l2.lost < l1.lost)
			l1 = l2;
	}
	memcpy(a->mask, l1.mask, sizeof(a->mask));
	memcpy(share, l1.share, sizeof(share));
	/* the sharers, best first (cand order), demoted non-sharers among them */
	for (unsigned int k = 0; k < n; k++)
		if (share[cand[k]])
			sh[ns++] = cand[k];
	place_sharers(a, sh, ns, l1.nb, l1.na);
	if (!a->incl_deferred)
		planner_inclusive_arrange(cfg, a, share);
	for (unsigned int i = 0; i < a->ntenants; i++)
		a->mask[i] = a->mask[planner_leader(a, i)];
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
	/* sharers are chosen against the DDIO mask being planned, where it is */
	b.ddio_mask = planner_ddio_at(a->ddio_mask, a->ddio_origin, b.llc_ways, b.ddio_ways);
	b.incl_fallback = 0;
	if (pol == PLANNER_IO_AWARE)
		aware_place(cfg, &b, llc_refs, hysteresis, order, n);
	else
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

bool planner_ddio_grow_partial(const struct config *cfg, const struct planner_alloc *a,
			       const double *llc_refs, double hysteresis)
{
	struct planner_alloc b = *a;

	b.ddio_ways++;
	if (planner_plan(cfg, PLANNER_IO_AWARE, llc_refs, hysteresis, &b))
		return false;
	for (unsigned int i = 0; i < b.ntenants; i++)
		if (planner_leader(&b, i) == i && protected_tenant(cfg, &b, i) &&
		    planner_ddio_overlap(&b, i) >= b.ways[i])
			return false;
	return true;
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
