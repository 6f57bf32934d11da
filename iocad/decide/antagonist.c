// SPDX-License-Identifier: GPL-2.0
#include "decide/antagonist.h"

#include "decide/tenant.h"

void antagonist_defaults(struct antagonist_params *p)
{
	p->l2_high = 0.9;
	p->llc_high = 0.9;
	p->l2_low = 0.7;
	p->llc_low = 0.7;
	p->min_l2_refs = 1e6;
	p->confirm = 3;
}

bool antagonist_step(const struct antagonist_params *p, struct antagonist_state *st,
		     const struct tenant_rates *r, bool eligible)
{
	bool want;

	if (!eligible) {
		bool was = st->on;

		st->on = false;
		st->streak = 0;
		return was;
	}
	st->l2_ratio = r->l2_refs > 0 ? r->l2_misses / r->l2_refs : 0.0;
	st->llc_ratio = r->llc_refs > 0 ? r->llc_misses / r->llc_refs : 0.0;
	if (r->l2_refs < p->min_l2_refs)
		want = false;
	else if (!st->on)
		want = st->l2_ratio >= p->l2_high && st->llc_ratio >= p->llc_high;
	else
		want = st->l2_ratio >= p->l2_low && st->llc_ratio >= p->llc_low;
	if (want == st->on) {
		st->streak = 0;
		return false;
	}
	if (++st->streak < p->confirm)
		return false;
	st->on = want;
	st->streak = 0;
	return true;
}

/* The lowest run of @n contiguous ways inside @in, or 0. */
static uint32_t lowest_run(uint32_t in, unsigned int n)
{
	uint32_t run = n >= 32 ? ~0u : (1u << n) - 1;

	for (unsigned int lo = 0; lo + n <= 32; lo++)
		if (((run << lo) & in) == run << lo)
			return run << lo;
	return 0;
}

uint32_t antagonist_zone(uint32_t mask, uint32_t avoid, unsigned int nways)
{
	uint32_t z;

	if (!nways || (unsigned int)__builtin_popcount(mask) <= nways)
		return mask;
	z = lowest_run(mask & ~avoid, nways);
	return z ? z : lowest_run(mask, nways);
}
