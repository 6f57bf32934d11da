// SPDX-License-Identifier: GPL-2.0
/*
 * The demand signals beyond the paper's DDIO counters (FSM.md): whether a
 * DDIO way or a tenant's way just granted paid, a networking tenant's own
 * demand, and the guard that no grow costs a PS tenant its isolation.
 */
#include "decide/demand.h"

double demand_miss_ratio(const struct tenant_interval *iv)
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
bool demand_ddio_way_paid(struct decide_ctx *ctx, const struct tenant_delta *d,
			  struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	struct planner_alloc *a = &ctx->alloc;
	double traffic = d->cur.ddio_hits + d->cur.ddio_misses;

	/*
	 * more traffic, or a larger share of it missing (the buffers' footprint
	 * grew at the same rate): another way may pay again. Not in the
	 * interval that refills the cache after the way went back: what moved
	 * there is the move's own, and reading it as more I/O flapped DDIO
	 * and the tenants around it every other interval
	 */
	if (a->ddio_cap && a->ddio_cap_age > 1 &&
	    (traffic > a->ddio_cap_traffic * (1.0 + cfg->threshold_stable) ||
	     demand_miss_ratio(&d->cur) > a->ddio_cap_ratio * (1.0 + cfg->threshold_stable)))
		a->ddio_cap = 0;
	if (!a->ddio_probe)
		return false;
	a->ddio_probe = false;
	if (cfg->ddio_grow_to_max || ctx->state != FSM_IO_DEMAND ||
	    demand_miss_ratio(&d->cur) < (1.0 - cfg->threshold_stable) * a->ddio_probe_ratio)
		return false;
	a->ddio_ways--;
	a->ddio_cap = a->ddio_ways;
	a->ddio_cap_age = 0;
	a->ddio_cap_traffic = traffic;
	/* the ratio at the capped count, measured the interval that asked for the way */
	a->ddio_cap_ratio = a->ddio_probe_ratio;
	a->ddio_grant_ways = a->ddio_ways;
	a->ddio_grant_traffic = traffic;
	ctx->state = FSM_HIGH_KEEP;
	out->reason = DECIDE_R_FSM;
	out->fsm_reason = FSM_R_NO_GAIN;
	out->action = FSM_ACT_RECLAIM;
	return true;
}

/* In aggregation only the vswitch counts (it holds the rings and the flow table). */
static bool own_candidate(const struct config *cfg, unsigned int i)
{
	return cfg->tenant[i].networking &&
	       (cfg->model != CONFIG_MODEL_AGGREGATION || cfg->tenant[i].vswitch);
}

/*
 * DDIO misses are high and rose over the same span: the tenant's new
 * misses may be the leaked buffers it reads, which is I/O Demand's case.
 */
static bool io_explains(const struct config *cfg, double ddio0, double ddio)
{
	return ddio > cfg->threshold_miss_low && ddio > ddio0 &&
	       fsm_changed(ddio0, ddio, cfg->threshold_stable, cfg->threshold_min_rate);
}

/* IPC down and miss rate up by THRESHOLD_STABLE, misses up past the noise floor. */
static bool own_worse(const struct config *cfg, double ipc0, double mr0, double miss0,
		      const struct tenant_rates *c)
{
	double rel = cfg->threshold_stable;

	return c->ipc < (1.0 - rel) * ipc0 && c->miss_rate > (1.0 + rel) * mr0 &&
	       c->llc_misses > miss0 &&
	       fsm_changed(miss0, c->llc_misses, rel, cfg->threshold_min_rate);
}

/*
 * FSM.md, "Core Demand from a networking tenant's own cores": its IPC fell
 * and its LLC miss rate rose, both by THRESHOLD_STABLE, with its misses
 * up by more than the noise floor, against the previous interval.
 */
bool demand_own(const struct config *cfg, const struct tenant_delta *d)
{
	if (!d->have_prev || io_explains(cfg, d->prev.ddio_misses, d->cur.ddio_misses))
		return false;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct tenant_rates *p = &d->prev.tenant[i];

		if (own_candidate(cfg, i) &&
		    own_worse(cfg, p->ipc, p->miss_rate, p->llc_misses, &d->cur.tenant[i]))
			return true;
	}
	return false;
}

void demand_window_push(struct decide_ctx *ctx, const struct tenant_delta *d)
{
	struct decide_window *w = &ctx->win;

	for (unsigned int i = 0; i < ctx->cfg->ntenants; i++) {
		w->ipc[w->next][i] = d->cur.tenant[i].ipc;
		w->miss_rate[w->next][i] = d->cur.tenant[i].miss_rate;
		w->misses[w->next][i] = d->cur.tenant[i].llc_misses;
	}
	w->ddio_misses[w->next] = d->cur.ddio_misses;
	w->next = (w->next + 1) % DECIDE_WINDOW;
	if (w->n < DECIDE_WINDOW)
		w->n++;
}

/*
 * The same test as demand_own, against the oldest sample of the window:
 * a flow table growing a few per cent per interval never moves one
 * interval by THRESHOLD_STABLE, but does over several.
 */
bool demand_own_window(const struct decide_ctx *ctx, const struct tenant_delta *d)
{
	const struct decide_window *w = &ctx->win;
	const struct config *cfg = ctx->cfg;
	unsigned int o = (w->next + DECIDE_WINDOW - w->n) % DECIDE_WINDOW;

	if (w->n < 2 || io_explains(cfg, w->ddio_misses[o], d->cur.ddio_misses))
		return false;
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (own_candidate(cfg, i) && own_worse(cfg, w->ipc[o][i], w->miss_rate[o][i],
						       w->misses[o][i], &d->cur.tenant[i]))
			return true;
	return false;
}

/*
 * In Core Demand, the way just granted paid: the grown tenant's LLC misses
 * fell significantly, so its own demand is not met yet (FSM.md).
 */
bool demand_last_grow_paid(const struct decide_ctx *ctx, const struct tenant_delta *d)
{
	const struct planner_alloc *a = &ctx->alloc;
	double now;

	if (ctx->state != FSM_CORE_DEMAND || a->grow_probe < 0 || !d->have_prev)
		return false;
	now = d->cur.tenant[a->grow_probe].llc_misses;
	return now < a->grow_probe_misses &&
	       fsm_changed(a->grow_probe_misses, now, ctx->cfg->threshold_stable,
			   ctx->cfg->threshold_min_rate);
}

/*
 * A tenant's grow that would put a PS tenant on DDIO's ways is refused, and
 * a DDIO grow that would leave a PS tenant no way off DDIO's (the paper
 * accepts a partial overlap there): leave the state.
 */
bool demand_grow_blocked(struct decide_ctx *ctx, int i, const struct tenant_delta *d,
			 enum fsm_state_id way_out, struct decide_out *out)
{
	double refs[PLATFORM_MAX_TENANTS];

	if (i >= 0 && (ctx->mode != IOCAD_MODE_IOCA ||
		       planner_grow_keeps_isolation(ctx->cfg, &ctx->alloc, i)))
		return false;
	for (unsigned int k = 0; i == -1 && k < ctx->cfg->ntenants; k++)
		refs[k] = d->cur.tenant[k].llc_refs;
	if (i == -1 &&
	    planner_ddio_grow_partial(ctx->cfg, &ctx->alloc, refs, ctx->cfg->threshold_stable))
		return false;
	out->blocked = true;
	out->fsm_reason = FSM_R_GROW_BLOCKED;
	ctx->state = way_out;
	return true;
}
