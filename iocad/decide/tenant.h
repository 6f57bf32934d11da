/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tenant table's counters: per-core cumulative counters folded into
 * per-tenant rates for one interval, and the pair (this interval, previous
 * interval) that the stability check, the FSM and selection compare.
 * Rates are per second so thresholds do not depend on the interval length.
 */
#ifndef IOCAD_TENANT_H
#define IOCAD_TENANT_H

#include <stdbool.h>
#include <stdint.h>

#include "decide/policy.h"
#include "platform.h"

struct tenant_rates {
	double ipc;
	double instructions; /* per second */
	double cycles;
	double llc_refs;
	double llc_misses;
	double miss_rate; /* llc_misses / llc_refs, 0 when idle */
	double l2_refs;	  /* per second, where the platform measures L2 */
	double l2_misses;
};

/* One interval of one socket (the config's), as rates. */
struct tenant_interval {
	uint64_t t_ns;
	uint64_t dt_ns;
	unsigned int ntenants;
	struct tenant_rates tenant[PLATFORM_MAX_TENANTS];
	double ddio_hits;   /* per second */
	double ddio_misses; /* per second */
	double llc_refs;    /* sum over tenants */
	double llc_misses;
	/* Raw counts of this interval, for logs and traces. */
	uint64_t ddio_hits_n;
	uint64_t ddio_misses_n;
	uint64_t llc_refs_n[PLATFORM_MAX_TENANTS];
	uint64_t llc_misses_n[PLATFORM_MAX_TENANTS];
};

/* What the decision logic compares: now against the interval before. */
struct tenant_delta {
	struct tenant_interval cur;
	struct tenant_interval prev;
	bool have_prev; /* false on the first interval after (re)allocation */
};

/*
 * Fold two cumulative samples into one interval for the tenants of @cfg.
 * A counter that went backwards (platform reset) yields a zero delta.
 * Returns 0, or -EINVAL if @now is not later than @before.
 */
int tenant_interval(const struct config *cfg, const struct platform_sample *before,
		    const struct platform_sample *now, struct tenant_interval *out);

/* Shift @d: the current interval becomes the previous one, @next current. */
void tenant_delta_push(struct tenant_delta *d, const struct tenant_interval *next);

#endif /* IOCAD_TENANT_H */
