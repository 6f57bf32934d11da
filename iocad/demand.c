// SPDX-License-Identifier: GPL-2.0
/*
 * The demand signals beyond the paper's DDIO counters (FSM.md): whether a
 * DDIO way or a tenant's way just granted paid, a networking tenant's own
 * demand, and the guard that no grow costs a PS tenant its isolation.
 */
#include "demand.h"

double demand_miss_ratio(const struct ioca_interval *iv)
{
	double t = iv->ddio_hits + iv->ddio_misses;

	return t > 0 ? iv->ddio_misses / t : 0;
}

/*
 * A way that pays (FSM.md): the interval after a DDIO grow, the miss
 * ratio must have fallen by THRESHOLD_STABLE (relative); a way that did
 * not lower it is given back and DDIO is capped one below, until the DMA
 * traffic rises past what it was. Returns true if it took the way back.
 */
bool demand_ddio_way_paid(struct decide_ctx *ctx, const struct ioca_delta *d,
			  struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	struct alloc *a = &ctx->alloc;
	double traffic = d->cur.ddio_hits + d->cur.ddio_misses;

	if (a->ddio_cap && traffic > a->ddio_cap_traffic * (1.0 + cfg->threshold_stable))
		a->ddio_cap = 0; /* more traffic: another way may pay again */
	if (!a->ddio_probe)
		return false;
	a->ddio_probe = false;
	if (cfg->ddio_grow_to_max || ctx->state != FSM_IO_DEMAND ||
	    demand_miss_ratio(&d->cur) < (1.0 - cfg->threshold_stable) * a->ddio_probe_ratio)
		return false;
	a->ddio_ways--;
	a->ddio_cap = a->ddio_ways;
	a->ddio_cap_traffic = traffic;
	a->ddio_grant_ways = a->ddio_ways;
	a->ddio_grant_traffic = traffic;
	ctx->state = FSM_HIGH_KEEP;
	out->reason = DECIDE_R_FSM;
	out->fsm_reason = FSM_R_NO_GAIN;
	out->action = FSM_ACT_RECLAIM;
	return true;
}

/*
 * FSM.md, "Core Demand from a networking tenant's own cores": its IPC fell
 * and its LLC miss rate rose, both by THRESHOLD_STABLE, with its misses
 * up by more than the noise floor. In aggregation only the vswitch counts
 * (it holds the rings and the flow table).
 */
bool demand_own(const struct config *cfg, const struct ioca_delta *d)
{
	double rel = cfg->threshold_stable;

	if (!d->have_prev)
		return false;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct tenant_rates *c = &d->cur.tenant[i], *p = &d->prev.tenant[i];

		if (!cfg->tenant[i].networking ||
		    (cfg->model == CONFIG_MODEL_AGGREGATION && !cfg->tenant[i].vswitch))
			continue;
		if (c->ipc < (1.0 - rel) * p->ipc && c->miss_rate > (1.0 + rel) * p->miss_rate &&
		    c->llc_misses > p->llc_misses &&
		    fsm_changed(p->llc_misses, c->llc_misses, rel, cfg->threshold_min_rate))
			return true;
	}
	return false;
}

/*
 * In Core Demand, the way just granted paid: the grown tenant's LLC misses
 * fell significantly, so its own demand is not met yet (FSM.md).
 */
bool demand_last_grow_paid(const struct decide_ctx *ctx, const struct ioca_delta *d)
{
	const struct alloc *a = &ctx->alloc;
	double now;

	if (ctx->state != FSM_CORE_DEMAND || a->grow_probe < 0 || !d->have_prev)
		return false;
	now = d->cur.tenant[a->grow_probe].llc_misses;
	return now < a->grow_probe_misses &&
	       fsm_changed(a->grow_probe_misses, now, ctx->cfg->threshold_stable,
			   ctx->cfg->threshold_min_rate);
}

/* A grow that would put a PS tenant on DDIO's ways is refused: leave the state. */
bool demand_grow_blocked(struct decide_ctx *ctx, int i, enum fsm_state_id way_out,
			 struct decide_out *out)
{
	if (i >= 0 && (ctx->mode != IOCAD_MODE_IOCA ||
		       planner_grow_keeps_isolation(ctx->cfg, &ctx->alloc, i)))
		return false;
	if (i == -1 && planner_grow_keeps_isolation(ctx->cfg, &ctx->alloc, -1))
		return false;
	out->blocked = true;
	out->fsm_reason = FSM_R_GROW_BLOCKED;
	ctx->state = way_out;
	return true;
}
