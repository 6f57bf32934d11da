// SPDX-License-Identifier: GPL-2.0
/*
 * Reclaim only takes what is idle: a tenant's extra way once its LLC
 * references fell below what they were when the way was granted, a DDIO
 * way once the DMA traffic would fit in one way fewer at the load that
 * last needed a grow. Whichever has more slack goes first (FSM.md).
 */
#include "decide/select.h"

bool select_tenant_grown(const struct config *cfg, const struct planner_alloc *a, unsigned int i)
{
	return a->ways[i] > cfg->tenant[i].ways;
}

int select_grow(const struct config *cfg, const struct planner_alloc *a,
		const struct tenant_delta *d)
{
	double best = 0;
	int who = -1;

	if (planner_tenant_ways(a) >= a->llc_ways)
		return -1;
	if (cfg->model == CONFIG_MODEL_AGGREGATION) {
		for (unsigned int i = 0; i < cfg->ntenants; i++)
			if (cfg->tenant[i].vswitch)
				return (int)i;
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		double m;

		if (!cfg->tenant[i].networking)
			continue;
		m = d->cur.tenant[i].miss_rate;
		if (d->have_prev)
			m -= d->prev.tenant[i].miss_rate;
		if (who < 0 || m > best) {
			best = m;
			who = (int)i;
		}
	}
	return who;
}

/* Relative slack of tenant @i, or a negative value if it has none. */
static double tenant_slack(const struct config *cfg, const struct planner_alloc *a,
			   const struct tenant_delta *d, unsigned int i)
{
	double g = a->grant_refs[i], now = d->cur.tenant[i].llc_refs;

	if (!select_tenant_grown(cfg, a, i) || g <= 0)
		return -1;
	return 1.0 - now / g - cfg->threshold_stable;
}

static double ddio_slack(const struct config *cfg, const struct planner_alloc *a,
			 const struct tenant_delta *d)
{
	double now = d->cur.ddio_hits + d->cur.ddio_misses, fit;

	if (a->ddio_fixed || a->ddio_ways <= cfg->ddio_ways_min)
		return -1;
	if (!a->ddio_grant_ways || a->ddio_grant_traffic <= 0)
		/* never grown here: idle if it no longer misses */
		return d->cur.ddio_misses <= cfg->threshold_miss_low ? 0 : -1;
	fit = a->ddio_grant_traffic * (a->ddio_ways - 1) / a->ddio_grant_ways;
	return 1.0 - now / fit - cfg->threshold_stable;
}

void select_reclaim(const struct config *cfg, const struct planner_alloc *a,
		    const struct tenant_delta *d, struct select_reclaim *out)
{
	double best = -1, s;

	out->kind = SELECT_RECLAIM_NONE;
	out->tenant = -1;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		s = tenant_slack(cfg, a, d, i);
		if (s < 0)
			continue;
		/* aggregation: the vswitch gives back first, as it grew first */
		if (cfg->model == CONFIG_MODEL_AGGREGATION && cfg->tenant[i].vswitch)
			s += 1.0;
		if (s > best || (s == best && out->tenant >= 0 &&
				 d->cur.tenant[i].llc_refs < d->cur.tenant[out->tenant].llc_refs)) {
			best = s;
			out->kind = SELECT_RECLAIM_TENANT;
			out->tenant = (int)i;
		}
	}
	s = ddio_slack(cfg, a, d);
	if (s >= 0 && s > best) {
		out->kind = SELECT_RECLAIM_DDIO;
		out->tenant = -1;
	}
}
