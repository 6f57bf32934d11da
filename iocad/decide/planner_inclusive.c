// SPDX-License-Identifier: GPL-2.0
/*
 * Once every non-sharer has its side of DDIO and the sharers their ways,
 * each side's block (its non-sharers and its free ways, one contiguous
 * run of ways) that has a PS tenant on the inclusive ways, or I/O-heavy
 * tenants none of which is there, is laid out again (any other stays as
 * it is: nobody moves for nothing), walked from its far end from DDIO as
 * the planner packs it: the PS tenants are split between the ways before
 * and after the inclusive ways (an exact subset sum, as many before as
 * fit, in their current order); the others cover the inclusive ways,
 * I/O-heavy first, then free ways if they do not reach their end; the
 * others not needed there and the rest of the free ways go next to DDIO,
 * after the PS tenants, as without the rule. A block whose PS tenants
 * cannot all be kept off the inclusive ways keeps the layout it had:
 * the fallback, which a->incl_fallback shows.
 */
#include <string.h>

#include "decide/planner_inclusive.h"
#include "ways.h"

/* The vswitch, or in slicing a networking tenant: A4's I/O-heavy tenant. */
static bool io_heavy(const struct config *cfg, unsigned int i)
{
	const struct config_tenant *t = &cfg->tenant[i];

	return t->vswitch || (cfg->model == CONFIG_MODEL_SLICING && t->networking);
}

static bool group_io_heavy(const struct config *cfg, const struct planner_alloc *a, unsigned int l)
{
	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == l && io_heavy(cfg, i))
			return true;
	return false;
}

bool planner_inclusive_shy(const struct config *cfg, const struct planner_alloc *a, unsigned int i)
{
	unsigned int l = planner_leader(a, i);
	bool ps = false;

	for (unsigned int j = 0; j < a->ntenants; j++) {
		if (planner_leader(a, j) != l)
			continue;
		if (io_heavy(cfg, j))
			return false;
		ps = ps || cfg->tenant[j].prio == CONFIG_PRIO_PS;
	}
	return ps;
}

/* Ways [s, e) of one side; @up: above DDIO, walked from the top way down. */
struct block {
	unsigned int s, e;
	bool up;
};

/* Offset of way @w from the block's far end from DDIO. */
static unsigned int voff(const struct block *b, unsigned int w)
{
	return b->up ? b->e - 1 - w : w - b->s;
}

/* The @n ways at offset @v from the far end. */
static uint32_t vmask(const struct block *b, unsigned int v, unsigned int n)
{
	return b->up ? ways_mask(b->e - v - n, n) : ways_mask(b->s + v, n);
}

/*
 * The largest sum of a subset of @w (@n widths) within @lo..@hi, taken into
 * @pick; false if there is none.
 */
static bool split(const unsigned int *w, unsigned int n, unsigned int lo, unsigned int hi,
		  bool *pick)
{
	int from[33], best;
	unsigned int x;

	if (lo > hi || hi > 32)
		return false;
	for (x = 0; x <= 32; x++)
		from[x] = -1;
	from[0] = (int)n; /* reached with nothing */
	for (unsigned int k = 0; k < n; k++)
		for (x = hi; x >= w[k] && x > 0; x--)
			if (from[x] < 0 && from[x - w[k]] >= 0)
				from[x] = (int)k;
	best = -1;
	for (x = lo; x <= hi; x++)
		if (from[x] >= 0)
			best = (int)x;
	if (best < 0)
		return false;
	x = (unsigned int)best;
	memset(pick, 0, n * sizeof(*pick));
	while (x > 0) {
		unsigned int k = (unsigned int)from[x];

		pick[k] = true;
		x -= w[k];
	}
	return true;
}

/* Lay out block @b's leaders @idx (@n, in the order they sit from the far end). */
static void arrange(const struct config *cfg, struct planner_alloc *a, const struct block *b,
		    const unsigned int *idx, unsigned int n)
{
	unsigned int len = b->e - b->s, ia, ib, ns = 0, nn = 0, ts = 0, used = 0, v = 0, gap;
	unsigned int shy[PLATFORM_MAX_TENANTS], oth[PLATFORM_MAX_TENANTS], w[PLATFORM_MAX_TENANTS];
	uint32_t inc = cfg->inclusive_mask & vmask(b, 0, len);
	bool pick[PLATFORM_MAX_TENANTS], later[PLATFORM_MAX_TENANTS];
	bool io = false, io_on = false, shy_on = false;

	if (!inc || !n)
		return;
	/* the inclusive ways of this block as offsets [ia, ib) from its far end */
	ia = voff(b, b->up ? 31u - (unsigned int)__builtin_clz(inc)
			   : (unsigned int)__builtin_ctz(inc));
	ib = ia + (unsigned int)__builtin_popcount(inc);
	for (unsigned int k = 0; k < n; k++) {
		unsigned int i = idx[k];

		used += a->ways[i];
		if (planner_inclusive_shy(cfg, a, i)) {
			w[ns] = a->ways[i];
			ts += a->ways[i];
			shy[ns++] = i;
			shy_on = shy_on || (a->mask[i] & inc);
		} else if (group_io_heavy(cfg, a, i)) {
			io = true;
			io_on = io_on || (a->mask[i] & inc);
		}
	}
	/* no PS tenant on them, an I/O-heavy one there if any: nobody moves */
	if (!shy_on && (!io || io_on))
		return;
	/* the others: I/O-heavy first, each class in its current order */
	for (int pass = 1; pass >= 0; pass--)
		for (unsigned int k = 0; k < n; k++)
			if (!planner_inclusive_shy(cfg, a, idx[k]) &&
			    group_io_heavy(cfg, a, idx[k]) == (bool)pass)
				oth[nn++] = idx[k];
	if (!split(w, ns, ts > len - ib ? ts - (len - ib) : 0, ia, pick))
		return; /* they do not fit off them: the layout stays (fallback) */
	gap = len - used;
	for (unsigned int k = 0; k < ns; k++)
		if (pick[k]) {
			a->mask[shy[k]] = vmask(b, v, w[k]);
			v += w[k];
		}
	/* the others cover the inclusive ways; those not needed there go next to DDIO */
	for (unsigned int k = 0; k < nn; k++)
		if ((later[k] = v >= ib) == false) {
			a->mask[oth[k]] = vmask(b, v, a->ways[oth[k]]);
			v += a->ways[oth[k]];
		}
	if (v < ib)
		v += ib - v < gap ? ib - v : gap;
	for (unsigned int k = 0; k < ns; k++)
		if (!pick[k]) {
			a->mask[shy[k]] = vmask(b, v, w[k]);
			v += w[k];
		}
	for (unsigned int k = 0; k < nn; k++)
		if (later[k]) {
			a->mask[oth[k]] = vmask(b, v, a->ways[oth[k]]);
			v += a->ways[oth[k]];
		}
}

/* Leaders of @keep whose masks lie in @b, by offset from its far end. */
static unsigned int in_block(const struct planner_alloc *a, const struct block *b,
			     const bool *share, unsigned int *idx)
{
	uint32_t m = vmask(b, 0, b->e - b->s);
	unsigned int n = 0;

	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == i && !share[i] && a->mask[i] && !(a->mask[i] & ~m))
			idx[n++] = i;
	for (unsigned int k = 1; k < n; k++) {
		unsigned int x = idx[k], j = k;
		unsigned int vx = voff(b, (unsigned int)__builtin_ctz(a->mask[x]));

		while (j > 0 && voff(b, (unsigned int)__builtin_ctz(a->mask[idx[j - 1]])) > vx) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = x;
	}
	return n;
}

void planner_inclusive_arrange(const struct config *cfg, struct planner_alloc *a, const bool *share)
{
	unsigned int lo = (unsigned int)__builtin_ctz(a->ddio_mask);
	unsigned int hi = lo + (unsigned int)__builtin_popcount(a->ddio_mask);
	unsigned int idx[PLATFORM_MAX_TENANTS], n;
	uint32_t used = a->ddio_mask, keep = 0;

	a->incl_fallback = 0;
	if (!cfg->inclusive_mask)
		return;
	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == i) {
			if (share[i])
				used |= a->mask[i];
			else
				keep |= a->mask[i];
		}
	/* below DDIO: from way 0 to the first way a sharer or DDIO holds past the keepers */
	if (lo) {
		struct block b = {.s = 0, .up = false};
		uint32_t kbelow = keep & ways_mask(0, lo);
		unsigned int nb = kbelow ? 32u - (unsigned int)__builtin_clz(kbelow) : 0;

		b.e = (unsigned int)__builtin_ctz(used & ~ways_mask(0, nb));
		n = in_block(a, &b, share, idx);
		arrange(cfg, a, &b, idx, n);
	}
	/* above DDIO: from the top way down to the last way a sharer or DDIO holds */
	if (hi < a->llc_ways) {
		struct block b = {.e = a->llc_ways, .up = true};
		uint32_t kabove = keep & ~ways_mask(0, hi);
		unsigned int first = kabove ? (unsigned int)__builtin_ctz(kabove) : a->llc_ways;
		uint32_t before = used & ways_mask(0, first);

		b.s = 32u - (unsigned int)__builtin_clz(before);
		n = in_block(a, &b, share, idx);
		arrange(cfg, a, &b, idx, n);
	}
	for (unsigned int i = 0; i < a->ntenants; i++)
		if (planner_leader(a, i) == i && (a->mask[i] & cfg->inclusive_mask) &&
		    planner_inclusive_shy(cfg, a, i))
			a->incl_fallback |= 1ull << i;
}
