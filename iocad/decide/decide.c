// SPDX-License-Identifier: GPL-2.0
/*
 * One interval of decisions. Keep states (Low/High Keep) only act when
 * the stability check finds a change; the acting states (I/O Demand,
 * Core Demand, Reclaim) step every interval, since their whole point is
 * one way per interval until a condition ends them.
 */
#include <errno.h>
#include <string.h>

#include "decide/decide.h"
#include "decide/demand.h"
#include "decide/select.h"

static const char *const reason_names[] = {
	[DECIDE_R_FIRST] = "first",
	[DECIDE_R_STATIC] = "static",
	[DECIDE_R_STABLE] = "stable",
	[DECIDE_R_IPC_ONLY] = "ipc_only",
	[DECIDE_R_CORE_ALLOC] = "core_alloc",
	[DECIDE_R_CORE_RELEASE] = "core_release",
	[DECIDE_R_CORE_NO_ROOM] = "core_no_room",
	[DECIDE_R_CORE_SETTLED] = "core_settled",
	[DECIDE_R_SHUFFLE] = "shuffle",
	[DECIDE_R_RESHARE] = "reshare",
	[DECIDE_R_FSM] = "fsm",
	[DECIDE_R_HARM_UNDONE] = "harm_undone",
	[DECIDE_R_HARM_HELD] = "harm_held",
	[DECIDE_R_PROBE] = "probe",
	[DECIDE_R_PROBE_KEPT] = "probe_kept",
	[DECIDE_R_PROBE_STATIC] = "probe_static",
};

const char *decide_reason_name(const struct decide_out *out)
{
	if (out->reason == DECIDE_R_FSM)
		return fsm_reason_name(out->fsm_reason);
	return (unsigned int)out->reason <= DECIDE_R_PROBE_STATIC ? reason_names[out->reason] : "?";
}

int decide_mode_parse(const char *s, enum iocad_mode *out)
{
	if (!strcmp(s, "ioca"))
		*out = IOCAD_MODE_IOCA;
	else if (!strcmp(s, "core-only"))
		*out = IOCAD_MODE_CORE_ONLY;
	else if (!strcmp(s, "static"))
		*out = IOCAD_MODE_STATIC;
	else
		return -EINVAL;
	return 0;
}

const char *decide_mode_name(enum iocad_mode m)
{
	return m == IOCAD_MODE_IOCA ? "ioca" : m == IOCAD_MODE_CORE_ONLY ? "core-only" : "static";
}

static enum planner_policy policy(enum iocad_mode m)
{
	return m == IOCAD_MODE_IOCA ? PLANNER_IO_AWARE : PLANNER_IO_UNAWARE;
}

int decide_init(struct decide_ctx *ctx, const struct config *cfg, enum iocad_mode mode,
		unsigned int ddio_ways, const struct tenant_interval *last)
{
	return decide_init_at(ctx, cfg, mode, 0, ddio_ways, last);
}

/*
 * A first start takes static's layout when it keeps every PS tenant off
 * DDIO's ways: the guard then measures it before iocad's first change and
 * judges that change against static itself (guard.h).
 */
static bool start_static(const struct config *cfg, struct planner_alloc *a, struct guard_state *g)
{
	struct planner_alloc b = *a;

	if (planner_plan(cfg, PLANNER_IO_UNAWARE, NULL, 0, &b))
		return false;
	for (unsigned int i = 0; i < b.ntenants; i++)
		if (cfg->tenant[i].prio == CONFIG_PRIO_PS && (b.mask[i] & b.ddio_mask)) {
			/* the I/O-aware start moves as few tenants from static's places as it can
			 */
			memcpy(a->mask, b.mask, sizeof(a->mask));
			return false;
		}
	/*
	 * what a PS tenant is judged against (the static probe's layout); never
	 * one that puts a PS tenant on DDIO's ways, the Latent Contender
	 */
	g->ref = b;
	g->ref_valid = true;
	*a = b;
	return true;
}

int decide_init_at(struct decide_ctx *ctx, const struct config *cfg, enum iocad_mode mode,
		   uint32_t ddio_mask, unsigned int ddio_ways, const struct tenant_interval *last)
{
	struct planner_alloc *a = &ctx->alloc;
	double refs[PLATFORM_MAX_TENANTS] = {0};

	memset(ctx, 0, sizeof(*ctx));
	ctx->cfg = cfg;
	ctx->mode = mode;
	ctx->state = FSM_LOW_KEEP;
	a->llc_ways = cfg->llc_ways;
	a->ddio_ways = ddio_ways;
	/* where DDIO is now; planner_ddio_at sizes it from there */
	a->ddio_mask = a->ddio_origin = ddio_mask;
	a->ddio_fixed = mode != IOCAD_MODE_IOCA || cfg->ddio_observe;
	a->grow_probe = -1;
	a->ntenants = cfg->ntenants;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		a->ways[i] = cfg->tenant[i].ways;
		refs[i] = last ? last->tenant[i].llc_refs : 0;
	}
	/* the inclusive ways are judged by what they cost, so measured without them first */
	a->incl_deferred = mode == IOCAD_MODE_IOCA && cfg->inclusive_mask;
	/* the layout applied at start has been in force for a whole interval by the first judged */
	ctx->guard.since = GUARD_SETTLE;
	if (mode == IOCAD_MODE_IOCA && !last && start_static(cfg, a, &ctx->guard)) {
		ctx->guard.static_start = true;
		return 0;
	}
	return planner_plan(cfg, policy(mode), last ? refs : NULL, 0, a);
}

static bool any_grown(const struct config *cfg, const struct planner_alloc *a)
{
	for (unsigned int i = 0; i < a->ntenants; i++)
		if (select_tenant_grown(cfg, a, i))
			return true;
	return false;
}

/* Exception 2: the core-side allocator, for a tenant's own demand. */
static void core_side(struct decide_ctx *ctx, const struct tenant_delta *d, int i,
		      struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	struct planner_alloc *a = &ctx->alloc;
	const struct tenant_rates *c, *p;
	bool moved, paid;

	if (i < 0) {
		out->reason = DECIDE_R_CORE_SETTLED;
		return;
	}
	c = &d->cur.tenant[i];
	p = &d->prev.tenant[i];
	out->tenant = i;
	out->reason = DECIDE_R_CORE_SETTLED;
	moved = fsm_changed(p->llc_misses, c->llc_misses, cfg->threshold_stable,
			    cfg->threshold_min_rate);
	/* the way granted last interval cut its misses, its demand is still there: one more */
	paid = a->core_probe == i && moved && c->llc_misses < p->llc_misses &&
	       c->llc_refs >= a->grant_refs[i] * (1.0 - cfg->threshold_stable);
	if ((c->llc_misses > p->llc_misses && moved) || paid) {
		if (planner_tenant_ways(a) >= a->llc_ways ||
		    (ctx->mode == IOCAD_MODE_IOCA && !planner_grow_keeps_isolation(cfg, a, i))) {
			out->reason = DECIDE_R_CORE_NO_ROOM;
			out->blocked = true;
			return;
		}
		planner_group_add(a, (unsigned int)i, 1);
		a->grant_refs[i] = c->llc_refs;
		a->core_probe = i;
		out->reason = DECIDE_R_CORE_ALLOC;
	} else if (select_tenant_grown(cfg, a, i) && !ctx->adopted &&
		   c->llc_refs < a->grant_refs[i] * (1.0 - cfg->threshold_stable)) {
		planner_group_add(a, (unsigned int)i, -1);
		out->reason = DECIDE_R_CORE_RELEASE;
	}
}

static void run_fsm(struct decide_ctx *ctx, const struct tenant_delta *d, struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	struct planner_alloc *a = &ctx->alloc;
	struct fsm_state s = {
		.state = ctx->state,
		.ddio_ways = a->ddio_ways,
		.ddio_ways_min = cfg->ddio_ways_min,
		.ddio_ways_max = cfg->ddio_ways_max,
		.io_demand_enabled = ctx->mode == IOCAD_MODE_IOCA && !cfg->ddio_observe,
		.reclaimable = any_grown(cfg, a),
		.threshold_stable = cfg->threshold_stable,
		.threshold_miss_low = cfg->threshold_miss_low,
		.threshold_min_rate = cfg->threshold_min_rate,
	};
	struct select_reclaim rc;
	struct fsm_out o;
	int i;

	if (demand_ddio_way_paid(ctx, d, out))
		return;
	s.ddio_capped = a->ddio_cap && a->ddio_ways >= a->ddio_cap;
	s.own_demand =
		demand_own(cfg, d) || demand_own_window(ctx, d) || demand_last_grow_paid(ctx, d);
	a->grow_probe = -1;
	select_reclaim(cfg, a, d, &rc);
	/*
	 * in the interval that refills the cache after an outside DDIO change
	 * moved the tenants, a moved tenant's references fall with its IPC:
	 * that is the move, not idleness (Fig. 11: xmem4 lost its granted way)
	 */
	if (ctx->adopted)
		rc.kind = SELECT_RECLAIM_NONE;
	s.idle = rc.kind != SELECT_RECLAIM_NONE;
	fsm_step(&s, d, &o);
	out->reason = DECIDE_R_FSM;
	out->fsm_reason = o.reason;
	out->action = o.action;
	ctx->state = o.next;
	switch (o.action) {
	case FSM_ACT_DDIO_GROW:
		if (a->ddio_ways >= cfg->ddio_ways_max) {
			out->blocked = true;
			break;
		}
		if (demand_grow_blocked(ctx, -1, d, FSM_HIGH_KEEP, out))
			break;
		a->ddio_ways++;
		a->ddio_grant_ways = a->ddio_ways;
		a->ddio_grant_traffic = d->cur.ddio_hits + d->cur.ddio_misses;
		a->ddio_probe = true;
		a->ddio_probe_ratio = demand_miss_ratio(&d->cur);
		break;
	case FSM_ACT_TENANT_GROW:
		i = select_grow(cfg, a, d);
		out->tenant = i;
		/* no free way, or only at a PS tenant's expense: Low Keep, not a stuck Core Demand
		 */
		if (demand_grow_blocked(ctx, i < 0 ? -2 : i, d, FSM_LOW_KEEP, out))
			break;
		planner_group_add(a, (unsigned int)i, 1);
		a->grant_refs[i] = d->cur.tenant[i].llc_refs;
		a->grow_probe = i;
		a->grow_probe_misses = d->cur.tenant[i].llc_misses;
		break;
	case FSM_ACT_RECLAIM:
		if (rc.kind == SELECT_RECLAIM_TENANT) {
			out->tenant = rc.tenant;
			planner_group_add(a, (unsigned int)rc.tenant, -1);
		} else if (rc.kind == SELECT_RECLAIM_DDIO && ctx->mode == IOCAD_MODE_IOCA &&
			   !cfg->ddio_observe) {
			a->ddio_ways--;
		} else {
			out->blocked = true;
		}
		break;
	default:
		break;
	}
}

/*
 * Ways tenants grew into may leave no room for every PS tenant (and the
 * vswitch) beside @b's DDIO ways: then they give them back, down to their
 * configured ways, and grow again if their demand says so. A PS tenant is
 * never left on DDIO's ways for the sake of ways it grew into.
 */
static void give_back_grown(const struct config *cfg, struct planner_alloc *b)
{
	struct planner_alloc c = *b;

	c.ddio_ways--; /* the helper asks about one DDIO way more */
	if (planner_grow_keeps_isolation(cfg, &c, -1))
		return;
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (b->ways[i] > cfg->tenant[i].ways)
			b->ways[i] = cfg->tenant[i].ways;
}

bool decide_adopt_ddio(struct decide_ctx *ctx, uint32_t mask, const struct tenant_delta *d)
{
	const struct config *cfg = ctx->cfg;
	struct planner_alloc *a = &ctx->alloc, b = *a;
	double refs[PLATFORM_MAX_TENANTS] = {0};
	unsigned int n = (unsigned int)__builtin_popcount(mask);

	for (unsigned int i = 0; i < cfg->ntenants && d; i++)
		refs[i] = d->cur.tenant[i].llc_refs;
	b.ddio_ways = n < a->llc_ways ? n : a->llc_ways;
	/* where it is: the planner keeps it there and plans the tenants around it */
	b.ddio_mask = b.ddio_origin = mask;
	/* whoever set it decided the load needs it: Reclaim measures from here */
	b.ddio_grant_ways = b.ddio_ways;
	/* and a way iocad grew before is no longer there to be judged (no_gain) */
	b.ddio_probe = false;
	b.ddio_grant_traffic = d ? d->cur.ddio_hits + d->cur.ddio_misses : 0;
	if (b.ddio_ways)
		give_back_grown(cfg, &b);
	if (!b.ddio_ways || planner_plan(cfg, policy(ctx->mode), refs, cfg->threshold_stable, &b)) {
		/* tenants cannot all fit beside it: keep their masks, take the mask */
		a->ddio_ways = n;
		a->ddio_probe = false;
		a->ddio_mask = a->ddio_origin = mask;
		return true;
	}
	*a = b;
	ctx->adopted = true;
	/* someone else moved DDIO: what the guard measured before says nothing now */
	ctx->guard.watching = false;
	ctx->guard.probing = false;
	/*
	 * static's layout stays what a PS tenant is judged against: static
	 * moves no tenant, so its masks beside the new DDIO mask, unless that
	 * puts a PS tenant on DDIO's ways (never a reference, start_static)
	 */
	ctx->guard.ref.ddio_mask = ctx->guard.ref.ddio_origin = mask;
	ctx->guard.ref.ddio_ways = b.ddio_ways;
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (cfg->tenant[i].prio == CONFIG_PRIO_PS && (ctx->guard.ref.mask[i] & mask))
			ctx->guard.ref_valid = false;
	ctx->guard.since = 0;
	return false;
}

static bool masks_differ(const struct planner_alloc *x, const struct planner_alloc *y)
{
	if (x->ddio_mask != y->ddio_mask)
		return true;
	return memcmp(x->mask, y->mask, x->ntenants * sizeof(x->mask[0])) != 0;
}

/*
 * A quiet interval still checks who shares DDIO's ways against the rule
 * (fewest LLC references on top, BE before PS); the planner's hysteresis
 * keeps noise from moving anyone, so only a real violation is corrected.
 */
static void reshare(struct decide_ctx *ctx, const double *refs, const struct planner_alloc *before,
		    struct decide_out *out)
{
	struct planner_alloc b = ctx->alloc;

	if (planner_plan(ctx->cfg, PLANNER_IO_AWARE, refs, ctx->cfg->threshold_stable, &b))
		return;
	/* the same layout may now be the inclusive rule's fallback: that is worth saying */
	ctx->alloc.incl_fallback = b.incl_fallback;
	if (!masks_differ(before, &b))
		return;
	ctx->alloc = b;
	if (out->reason != DECIDE_R_FSM)
		out->reason = DECIDE_R_RESHARE;
}

/* Which of the stability verdicts lets a keep state sleep. */
static bool quiet(enum stab_verdict v)
{
	return v == STAB_STABLE || v == STAB_IPC_ONLY;
}

/*
 * The stability verdict and its exceptions. Returns true if the FSM steps
 * this interval.
 */
static bool check_and_except(struct decide_ctx *ctx, const struct tenant_delta *d,
			     const double *refs, const struct planner_alloc *before,
			     struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	bool acting = !fsm_state_is_keep(ctx->state);

	switch (out->stab.verdict) {
	case STAB_STABLE:
	case STAB_IPC_ONLY:
		out->reason =
			out->stab.verdict == STAB_STABLE ? DECIDE_R_STABLE : DECIDE_R_IPC_ONLY;
		/* a persistent miss level is a reason even without a change */
		return acting ||
		       (ctx->state == FSM_LOW_KEEP && d->cur.ddio_misses > cfg->threshold_miss_low);
	case STAB_SHUFFLE:
		if (ctx->mode != IOCAD_MODE_IOCA) {
			/* core-only: I/O-unaware, so this is just core demand */
			core_side(ctx, d, out->stab.tenant, out);
			return acting;
		}
		planner_plan(cfg, PLANNER_IO_AWARE, refs, cfg->threshold_stable, &ctx->alloc);
		if (!masks_differ(before, &ctx->alloc))
			return true; /* nothing to shuffle: let the FSM decide */
		/* "shuffling first": the FSM sees the result next interval */
		out->reason = DECIDE_R_SHUFFLE;
		out->tenant = out->stab.tenant;
		return false;
	case STAB_CORE_ALLOC:
		core_side(ctx, d, out->stab.tenant, out);
		return acting;
	case STAB_SHARER:
		/* core-only does not know where DDIO is: to it this is exception 2 */
		if (ctx->mode != IOCAD_MODE_IOCA) {
			core_side(ctx, d, out->stab.tenant, out);
			return acting;
		}
		return true; /* not the paper's exception 2: the FSM and the planner */
	case STAB_UNSTABLE:
	default:
		return true;
	}
}

/* The guard's verdict on the last changes; true if it undid them (out says so). */
static bool guard_before(struct decide_ctx *ctx, const struct tenant_delta *d,
			 struct decide_out *out)
{
	int victim;

	if (guard_judge(&ctx->guard, ctx->cfg, d, &victim) != GUARD_UNDO)
		return false;
	guard_undo(&ctx->guard, &ctx->alloc, &ctx->state);
	out->reason = DECIDE_R_HARM_UNDONE;
	out->tenant = victim;
	out->state = ctx->state;
	out->changed = true;
	out->ddio_changed = ctx->guard.banned.ddio_ways != ctx->alloc.ddio_ways;
	ctx->win.n = 0;
	return true;
}

/* Sets out->changed; in ioca mode a change the guard refuses is taken back, else watched. */
static void guard_after(struct decide_ctx *ctx, const struct tenant_delta *d,
			const struct planner_alloc *before, struct decide_out *out)
{
	bool reclaim;

	out->changed = masks_differ(before, &ctx->alloc);
	if (!out->changed || ctx->mode != IOCAD_MODE_IOCA)
		return;
	reclaim = out->reason == DECIDE_R_FSM && out->action == FSM_ACT_RECLAIM;
	if (guard_refuses(&ctx->guard, &ctx->alloc) ||
	    (!reclaim && guard_series_full(&ctx->guard))) {
		ctx->alloc = *before;
		ctx->state = out->prev_state;
		out->changed = false;
		out->ddio_changed = false;
		out->blocked = true;
		out->reason = DECIDE_R_HARM_HELD;
		return;
	}
	guard_changed(&ctx->guard, ctx->cfg, before, out->prev_state, d, !reclaim);
}

/*
 * The static probe (guard.h); true if it is this interval's decision. A
 * probe in progress keeps the FSM still: it would judge counters measured
 * under a layout that is not its own.
 */
static bool probe(struct decide_ctx *ctx, const struct tenant_delta *d, struct decide_out *out)
{
	static const enum decide_reason reason[] = {
		[GUARD_PROBE_START] = DECIDE_R_PROBE,
		[GUARD_PROBE_WAIT] = DECIDE_R_PROBE,
		[GUARD_PROBE_KEPT] = DECIDE_R_PROBE_KEPT,
		[GUARD_PROBE_STATIC] = DECIDE_R_PROBE_STATIC,
	};
	struct planner_alloc before = ctx->alloc;
	enum guard_probe_verdict v;

	v = guard_probe(&ctx->guard, ctx->cfg, d, out->stab.verdict != STAB_STABLE, &ctx->alloc,
			&ctx->state);
	if (v == GUARD_PROBE_NONE)
		return false;
	out->reason = reason[v];
	out->state = ctx->state;
	out->changed = masks_differ(&before, &ctx->alloc);
	out->ddio_changed = before.ddio_ways != ctx->alloc.ddio_ways;
	ctx->win.n = 0;
	return true;
}

void decide_step(struct decide_ctx *ctx, const struct tenant_delta *d, struct decide_out *out)
{
	const struct config *cfg = ctx->cfg;
	struct planner_alloc before = ctx->alloc;
	double refs[PLATFORM_MAX_TENANTS];
	bool replan, step;

	memset(out, 0, sizeof(*out));
	out->prev_state = ctx->state;
	out->tenant = -1;
	if (ctx->alloc.ddio_cap)
		ctx->alloc.ddio_cap_age++;
	stability_check(cfg, &ctx->alloc, d, &out->stab);
	if (ctx->mode != IOCAD_MODE_STATIC)
		demand_window_push(ctx, d);
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		refs[i] = d->cur.tenant[i].llc_refs;
	if (ctx->mode == IOCAD_MODE_STATIC || !d->have_prev) {
		out->reason = d->have_prev ? DECIDE_R_STATIC : DECIDE_R_FIRST;
		/* from static's layout the first change waits for a measurement of it */
		if (ctx->mode == IOCAD_MODE_IOCA && !ctx->guard.static_start)
			reshare(ctx, refs, &before, out);
		guard_after(ctx, d, &before, out);
		out->state = ctx->state;
		if (out->changed)
			ctx->win.n = 0;
		return;
	}
	if (ctx->mode == IOCAD_MODE_IOCA && (guard_before(ctx, d, out) || probe(ctx, d, out)))
		return;
	if (ctx->mode == IOCAD_MODE_IOCA)
		guard_offer_inclusive(&ctx->guard, &ctx->alloc);
	step = check_and_except(ctx, d, refs, &before, out);
	/* a trend no single interval shows wakes a keep state too (FSM.md) */
	if (!step && out->reason != DECIDE_R_SHUFFLE && demand_own_window(ctx, d))
		step = true;
	if (step) {
		struct decide_out exc = *out;
		bool excepted = exc.stab.verdict == STAB_CORE_ALLOC ||
				exc.stab.verdict == STAB_SHUFFLE ||
				(exc.stab.verdict == STAB_SHARER && ctx->mode != IOCAD_MODE_IOCA);

		run_fsm(ctx, d, out);
		/* an exception that acted keeps its reason if the FSM only stayed */
		if (excepted && exc.reason != DECIDE_R_FIRST && out->action == FSM_ACT_NONE &&
		    ctx->state == out->prev_state) {
			out->reason = exc.reason;
			out->tenant = exc.tenant;
		}
	}
	out->ddio_changed = before.ddio_ways != ctx->alloc.ddio_ways;
	replan = out->ddio_changed ||
		 memcmp(before.ways, ctx->alloc.ways, cfg->ntenants * sizeof(before.ways[0])) ||
		 (ctx->mode == IOCAD_MODE_IOCA && !quiet(out->stab.verdict));
	if (!replan && ctx->mode == IOCAD_MODE_IOCA)
		reshare(ctx, refs, &before, out);
	else if (replan &&
		 planner_plan(cfg, policy(ctx->mode), refs, cfg->threshold_stable, &ctx->alloc)) {
		/* cannot happen with checked way counts; never apply half a plan */
		ctx->alloc = before;
		out->blocked = true;
	}
	guard_after(ctx, d, &before, out);
	out->state = ctx->state;
	/*
	 * a trend is measured under one allocation: start the window afresh,
	 * also after a refused grow (the demand was heard; ask again only
	 * once a new trend builds up)
	 */
	if (out->changed || out->blocked)
		ctx->win.n = 0;
	if (out->reason != DECIDE_R_CORE_ALLOC)
		ctx->alloc.core_probe = -1;
	ctx->adopted = false;
}
