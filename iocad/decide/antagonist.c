// SPDX-License-Identifier: GPL-2.0
#include "decide/antagonist.h"

#include "decide/decide_device.h"
#include "decide/tenant.h"

#include <math.h>

void antagonist_defaults(struct antagonist_params *p)
{
	p->l2_high = 0.9;
	p->llc_high = 0.9;
	p->l2_low = 0.7;
	p->llc_low = 0.7;
	p->min_l2_refs = 1e6;
	p->confirm = 3;
	p->rule = DECIDE_RULE_IOCA;
	/* A4's scripts (scripts/configs/parameters.sh) */
	p->a4_l2 = 0.8;
	p->a4_llc = 0.9;
	p->a4_rel_l2 = 0.1;
	p->a4_rel_llc = 0.05;
}

/* |@now - @at| above @rel of @at. */
static bool moved(double now, double at, double rel)
{
	return fabs(now - at) > rel * at;
}

static bool want_of(const struct antagonist_params *p, const struct antagonist_state *st)
{
	if (p->rule == DECIDE_RULE_A4)
		return !st->on ? st->l2_ratio > p->a4_l2 && st->llc_ratio > p->a4_llc
			       : !moved(st->l2_ratio, st->l2_at, p->a4_rel_l2) &&
					 !moved(st->llc_ratio, st->llc_at, p->a4_rel_llc);
	if (!st->on)
		return st->l2_ratio >= p->l2_high && st->llc_ratio >= p->llc_high;
	return st->l2_ratio >= p->l2_low && st->llc_ratio >= p->llc_low;
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
	want = r->l2_refs >= p->min_l2_refs && want_of(p, st);
	if (want == st->on) {
		st->streak = 0;
		return false;
	}
	if (++st->streak < p->confirm)
		return false;
	st->on = want;
	st->streak = 0;
	st->l2_at = st->l2_ratio;
	st->llc_at = st->llc_ratio;
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
