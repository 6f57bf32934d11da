// SPDX-License-Identifier: GPL-2.0
/*
 * The FSM of the paper's Fig. 6. Where the paper says "decrease" or
 * "large amount" without numbers, FSM.md records the reading used here.
 */
#include "decide/fsm.h"

static const char *const state_names[FSM_NSTATES] = {
	[FSM_LOW_KEEP] = "low_keep",	   [FSM_IO_DEMAND] = "io_demand",
	[FSM_CORE_DEMAND] = "core_demand", [FSM_HIGH_KEEP] = "high_keep",
	[FSM_RECLAIM] = "reclaim",
};

static const char *const reason_names[FSM_NREASONS] = {
	[FSM_R_NONE] = "stay",
	[FSM_R_IO_PRESSURE] = "io_pressure",
	[FSM_R_CORE_CONTENTION] = "core_contention",
	[FSM_R_BALANCED] = "balanced",
	[FSM_R_IO_NOT_CORE] = "io_not_core",
	[FSM_R_STILL_MISSING] = "still_missing",
	[FSM_R_DDIO_MAX] = "ddio_max",
	[FSM_R_OVERPROVISIONED] = "overprovisioned",
	[FSM_R_HITS_DOWN] = "hits_down",
	[FSM_R_NO_MISS_INCREASE] = "no_miss_increase",
	[FSM_R_RECLAIM_DONE] = "reclaim_done",
	[FSM_R_IO_DISABLED] = "io_disabled",
	[FSM_R_NOTHING_IDLE] = "nothing_idle",
	[FSM_R_IDLE_WAYS] = "idle_ways",
	[FSM_R_NO_GAIN] = "no_gain",
	[FSM_R_OWN_DEMAND] = "own_demand",
	[FSM_R_GROW_BLOCKED] = "grow_blocked",
};

const char *fsm_state_name(enum fsm_state_id s)
{
	return (unsigned int)s < FSM_NSTATES ? state_names[s] : "?";
}

const char *fsm_reason_name(enum fsm_reason r)
{
	return (unsigned int)r < FSM_NREASONS ? reason_names[r] : "?";
}

bool fsm_state_is_keep(enum fsm_state_id s)
{
	return s == FSM_LOW_KEEP || s == FSM_HIGH_KEEP;
}

bool fsm_changed(double prev, double cur, double rel, double floor)
{
	double d = cur > prev ? cur - prev : prev - cur;

	return d > rel * prev && d > floor;
}

static bool went_up(double prev, double cur, double rel, double floor)
{
	return cur > prev && fsm_changed(prev, cur, rel, floor);
}

static bool went_down(double prev, double cur, double rel, double floor)
{
	return cur < prev && fsm_changed(prev, cur, rel, floor);
}

void fsm_signals(const struct fsm_state *s, const struct tenant_delta *d, struct fsm_signals *out)
{
	const struct tenant_interval *c = &d->cur, *p = &d->prev;
	double rel = s->threshold_stable, fl = s->threshold_min_rate;
	double ct = c->ddio_hits + c->ddio_misses, pt = p->ddio_hits + p->ddio_misses;
	double cr = ct > 0 ? c->ddio_misses / ct : 0, pr = pt > 0 ? p->ddio_misses / pt : 0;

	/* the band between settled and high keeps noise from flapping states */
	*out = (struct fsm_signals){
		.miss_high = c->ddio_misses > s->threshold_miss_low,
		.miss_settled = c->ddio_misses <= (1.0 - rel) * s->threshold_miss_low,
	};
	if (!d->have_prev)
		return;
	out->miss_up = went_up(p->ddio_misses, c->ddio_misses, rel, fl);
	out->miss_down = went_down(p->ddio_misses, c->ddio_misses, rel, fl);
	out->hits_down = went_down(p->ddio_hits, c->ddio_hits, rel, fl);
	out->refs_up = went_up(p->llc_refs, c->llc_refs, rel, fl);
	out->miss_rate_down =
		went_down(pr, cr, rel, 0) && (fsm_changed(p->ddio_misses, c->ddio_misses, 0, fl) ||
					      fsm_changed(p->ddio_hits, c->ddio_hits, 0, fl));
	/*
	 * the same DMA traffic, more of it missing, and no core references
	 * more: the buffers outgrew DDIO's ways (longer rings, more queues),
	 * which hits_down alone cannot tell from a contending core
	 */
	out->footprint_up = went_up(pr, cr, rel, 0) && out->miss_up && !out->refs_up &&
			    !fsm_changed(pt, ct, rel, fl);
}

/* Fewer hits with misses not down, and not the I/O footprint's growth. */
static bool core_contends(const struct fsm_signals *g)
{
	return g->hits_down && !g->miss_down && !g->footprint_up;
}

static void set(struct fsm_out *o, enum fsm_state_id n, enum fsm_reason r, enum fsm_action a)
{
	o->next = n;
	o->reason = r;
	o->action = a;
}

/* Enter I/O Demand, or High Keep if DDIO cannot grow any more. */
static void to_io_demand(const struct fsm_state *s, struct fsm_out *o, enum fsm_reason r)
{
	if (!s->io_demand_enabled)
		set(o, s->state, FSM_R_IO_DISABLED, FSM_ACT_NONE);
	else if (s->ddio_capped)
		set(o, FSM_HIGH_KEEP, FSM_R_NO_GAIN, FSM_ACT_NONE);
	else if (s->ddio_ways >= s->ddio_ways_max)
		set(o, FSM_HIGH_KEEP, FSM_R_DDIO_MAX, FSM_ACT_NONE);
	else
		set(o, FSM_IO_DEMAND, r, FSM_ACT_DDIO_GROW);
}

static void step_low_keep(const struct fsm_state *s, const struct fsm_signals *g, struct fsm_out *o)
{
	if (!g->miss_high) {
		/* DDIO is fine, but a networking tenant's own data outgrew its ways */
		if (s->own_demand)
			set(o, FSM_CORE_DEMAND, FSM_R_OWN_DEMAND, FSM_ACT_TENANT_GROW);
		/* what Reclaim left because it was in use has gone idle since */
		else if (s->idle)
			set(o, FSM_RECLAIM, FSM_R_IDLE_WAYS, FSM_ACT_RECLAIM);
		return;
	}
	if (g->hits_down && g->refs_up)
		set(o, FSM_CORE_DEMAND, FSM_R_CORE_CONTENTION, FSM_ACT_TENANT_GROW);
	else if (s->own_demand)
		set(o, FSM_CORE_DEMAND, FSM_R_OWN_DEMAND, FSM_ACT_TENANT_GROW);
	else
		to_io_demand(s, o, FSM_R_IO_PRESSURE);
}

static void step_core_demand(const struct fsm_state *s, const struct fsm_signals *g,
			     struct fsm_out *o)
{
	if (s->own_demand) {
		set(o, FSM_CORE_DEMAND, FSM_R_OWN_DEMAND, FSM_ACT_TENANT_GROW);
	} else if (g->miss_settled) {
		set(o, FSM_RECLAIM, FSM_R_BALANCED, FSM_ACT_RECLAIM);
	} else if (g->miss_up && (!g->hits_down || g->footprint_up) && g->miss_high) {
		to_io_demand(s, o, FSM_R_IO_NOT_CORE);
		if (o->reason == FSM_R_IO_DISABLED)
			o->action = FSM_ACT_TENANT_GROW;
	} else if (g->miss_high) {
		set(o, FSM_CORE_DEMAND, FSM_R_NONE, FSM_ACT_TENANT_GROW);
	}
}

/* I/O Demand and High Keep share their exits (the paper: "same rule"). */
static void step_io_or_high(const struct fsm_state *s, const struct fsm_signals *g,
			    struct fsm_out *o)
{
	if (g->miss_settled)
		set(o, FSM_RECLAIM, FSM_R_OVERPROVISIONED, FSM_ACT_RECLAIM);
	else if (core_contends(g))
		set(o, FSM_CORE_DEMAND, FSM_R_HITS_DOWN, FSM_ACT_TENANT_GROW);
	else if (s->own_demand)
		/* DDIO holds or cannot help, but the vswitch's own data outgrew its ways */
		set(o, FSM_CORE_DEMAND, FSM_R_OWN_DEMAND, FSM_ACT_TENANT_GROW);
	else if (!g->miss_high)
		return; /* in the band, I/O Demand holds too */
	else if (s->state == FSM_HIGH_KEEP &&
		 (s->ddio_capped || s->ddio_ways >= s->ddio_ways_max || !s->io_demand_enabled))
		return; /* High Keep holds while more ways cannot help */
	else if (s->ddio_capped)
		set(o, FSM_HIGH_KEEP, FSM_R_NO_GAIN, FSM_ACT_NONE);
	else if (s->ddio_ways >= s->ddio_ways_max)
		set(o, FSM_HIGH_KEEP, FSM_R_DDIO_MAX, FSM_ACT_NONE);
	else
		set(o, FSM_IO_DEMAND, FSM_R_STILL_MISSING, FSM_ACT_DDIO_GROW);
}

static void step_reclaim(const struct fsm_state *s, const struct fsm_signals *g, struct fsm_out *o)
{
	if (s->own_demand) {
		set(o, FSM_CORE_DEMAND, FSM_R_OWN_DEMAND, FSM_ACT_TENANT_GROW);
	} else if (g->miss_high && g->miss_up) {
		if (g->hits_down && !g->footprint_up)
			set(o, FSM_CORE_DEMAND, FSM_R_CORE_CONTENTION, FSM_ACT_TENANT_GROW);
		else
			to_io_demand(s, o, FSM_R_IO_PRESSURE);
	} else if (s->ddio_ways <= s->ddio_ways_min && !s->reclaimable) {
		set(o, FSM_LOW_KEEP, FSM_R_RECLAIM_DONE, FSM_ACT_NONE);
	} else if (!s->idle) {
		/* holding in Reclaim would be Low Keep without its name */
		set(o, FSM_LOW_KEEP, FSM_R_NOTHING_IDLE, FSM_ACT_NONE);
	} else {
		set(o, FSM_RECLAIM, FSM_R_NO_MISS_INCREASE, FSM_ACT_RECLAIM);
	}
}

void fsm_step(const struct fsm_state *s, const struct tenant_delta *d, struct fsm_out *out)
{
	struct fsm_signals g;

	fsm_signals(s, d, &g);
	set(out, s->state, FSM_R_NONE, FSM_ACT_NONE);
	switch (s->state) {
	case FSM_LOW_KEEP:
		step_low_keep(s, &g, out);
		break;
	case FSM_CORE_DEMAND:
		step_core_demand(s, &g, out);
		break;
	case FSM_IO_DEMAND:
	case FSM_HIGH_KEEP:
		step_io_or_high(s, &g, out);
		break;
	case FSM_RECLAIM:
		step_reclaim(s, &g, out);
		break;
	default:
		set(out, FSM_LOW_KEEP, FSM_R_NONE, FSM_ACT_NONE);
		break;
	}
}
