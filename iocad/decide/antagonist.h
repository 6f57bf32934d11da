/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Antagonists (A4, ISCA 2025): a tenant whose L2 and LLC miss ratios are
 * both very high streams through the cache hierarchy, gains nothing from
 * the LLC ways it holds and evicts others' lines from every way it may
 * allocate into, so A4 confines it to a small zone. Pure: the verdict per
 * tenant and interval with hysteresis, and the zone within its mask.
 * FSM.md, "Antagonists", has the counters and what the host lacks.
 */
#ifndef IOCAD_ANTAGONIST_H
#define IOCAD_ANTAGONIST_H

#include <stdbool.h>
#include <stdint.h>

struct tenant_rates; /* tenant.h */

/* [platform] antagonists */
enum antagonist_mode {
	ANTAGONIST_CONFINE, /* detect, log and confine (default) */
	ANTAGONIST_OBSERVE, /* detect and log only */
	ANTAGONIST_OFF,	    /* no detection */
};

struct antagonist_params {
	double l2_high, llc_high; /* both miss ratios at least these: an antagonist */
	double l2_low, llc_low;	  /* either below: no longer one */
	double min_l2_refs;	  /* L2 requests per second below this: too idle to judge */
	unsigned int confirm;	  /* intervals a verdict holds before it changes */
};

struct antagonist_state {
	bool on;
	unsigned int streak;
	double l2_ratio, llc_ratio; /* of the last interval judged, for the log */
};

/* 0.9 / 0.9 to become one, 0.7 / 0.7 to stop, 1e6 L2 requests/s, 3 intervals. */
void antagonist_defaults(struct antagonist_params *p);

/*
 * One interval of a tenant's rates @r. @eligible false (a PS tenant, a
 * networking one, one in a group, no L2 counters) clears the verdict at
 * once. True if @st->on changed.
 */
bool antagonist_step(const struct antagonist_params *p, struct antagonist_state *st,
		     const struct tenant_rates *r, bool eligible);

/*
 * The zone an antagonist is confined to: @nways contiguous ways of @mask
 * (contiguous), the lowest run that avoids @avoid (DDIO's and the
 * inclusive ways) if there is one, else the lowest ways of @mask. @mask
 * itself when it has @nways ways or fewer.
 */
uint32_t antagonist_zone(uint32_t mask, uint32_t avoid, unsigned int nways);

#endif /* IOCAD_ANTAGONIST_H */
