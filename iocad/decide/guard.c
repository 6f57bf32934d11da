// SPDX-License-Identifier: GPL-2.0
#include "decide/guard.h"

#include <math.h>
#include <string.h>

static double rpi(const struct tenant_rates *r)
{
	return r->instructions > 0 ? r->llc_refs / r->instructions : 0;
}

/* Within the stability threshold of each other: the same workload. */
static bool same(double a, double b, double rel)
{
	double m = fmax(fabs(a), fabs(b));

	return m == 0 || fabs(a - b) <= rel * m;
}

bool guard_same_layout(const struct planner_alloc *x, const struct planner_alloc *y)
{
	return x->ddio_mask == y->ddio_mask &&
	       !memcmp(x->mask, y->mask, x->ntenants * sizeof(x->mask[0]));
}

static void set_anchor(struct guard_state *g, const struct config *cfg,
		       const struct tenant_delta *d)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		g->anchor_ipc[i] = d->cur.tenant[i].ipc;
		g->anchor_rpi[i] = rpi(&d->cur.tenant[i]);
	}
	g->anchor_ddio = d->cur.ddio_hits + d->cur.ddio_misses;
	g->anchor_set = true;
}

/*
 * A PS tenant below static's own measurement by more than GUARD_LOSS, under
 * the workload and I/O it was taken under (else the anchor is dropped: what
 * static would give now is not known). Returns the tenant, or -1.
 */
static int below_anchor(struct guard_state *g, const struct config *cfg,
			const struct tenant_delta *d, double rel)
{
	if (!g->anchor_set)
		return -1;
	if (!same(g->anchor_ddio, d->cur.ddio_hits + d->cur.ddio_misses, rel)) {
		g->anchor_set = false;
		return -1;
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (!same(g->anchor_rpi[i], rpi(&d->cur.tenant[i]), rel)) {
			g->anchor_set = false;
			return -1;
		}
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (cfg->tenant[i].prio == CONFIG_PRIO_PS && g->anchor_ipc[i] > 0 &&
		    d->cur.tenant[i].ipc < g->anchor_ipc[i] * (1.0 - GUARD_LOSS))
			return (int)i;
	return -1;
}

static void measure(struct guard_state *g, const struct config *cfg, const struct tenant_delta *d)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		g->ipc[i] = d->cur.tenant[i].ipc;
		g->rpi[i] = rpi(&d->cur.tenant[i]);
	}
	g->ddio_traffic = d->cur.ddio_hits + d->cur.ddio_misses;
}

enum guard_verdict guard_judge(struct guard_state *g, const struct config *cfg,
			       const struct tenant_delta *d, int *victim)
{
	double rel = cfg->threshold_stable;

	*victim = -1;
	if (g->hold)
		g->hold--;
	if (g->hold_max)
		g->hold_max--;
	/* a hold ends once the workload moved (past its minimum), or at its longest */
	if (g->banned_set && ((!g->hold && g->hold_moved) || !g->hold_max))
		g->banned_set = false;
	g->since++;
	if (!g->watching || g->since < GUARD_SETTLE)
		return GUARD_OK;
	g->watching = false;
	/*
	 * More I/O may explain a loss that is not the layout's. Less may not:
	 * a poller that the layout slows drops packets, so the NIC writes less.
	 */
	if (!g->base_measured)
		return GUARD_OK;
	/* against static's own layout more I/O excuses nothing: static would have had it too */
	if (!(g->ref_valid && guard_same_layout(&g->base, &g->ref)) &&
	    d->cur.ddio_hits + d->cur.ddio_misses > g->ddio_traffic * (1 + rel)) {
		/*
		 * the layout may have caused it too (a poller it sped up takes
		 * more packets): measure it beside static's under this load
		 */
		g->probe_pending = true;
		return GUARD_OK;
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct tenant_rates *c = &d->cur.tenant[i];

		/* its own workload moved: its IPC says nothing about the layout */
		if (cfg->tenant[i].prio != CONFIG_PRIO_PS || !(g->ipc[i] > 0) ||
		    !same(g->rpi[i], rpi(c), rel))
			continue;
		if (c->ipc < g->ipc[i] * (1.0 - GUARD_LOSS)) {
			*victim = (int)i;
			return GUARD_UNDO;
		}
	}
	*victim = below_anchor(g, cfg, d, rel);
	if (*victim >= 0)
		return GUARD_UNDO;
	/* it held: what a later change must not undercut starts here */
	g->backoff = 0;
	return GUARD_OK;
}

static void hold_off(struct guard_state *g, const struct planner_alloc *harmful)
{
	g->banned = *harmful;
	g->banned_set = true;
	/*
	 * The first hold lasts until the workload moves: under the same one
	 * the FSM would ask for the same layout. Undos in a row, with no
	 * change holding between them, also wait a minimum that doubles.
	 */
	g->hold = g->backoff;
	g->backoff = g->backoff ? g->backoff * 2 : GUARD_HOLD_MIN;
	if (g->backoff > GUARD_HOLD_MAX)
		g->backoff = GUARD_HOLD_MAX;
	g->hold_moved = false;
	g->hold_max = GUARD_HOLD_MAX;
}

void guard_undo(struct guard_state *g, struct planner_alloc *a, enum fsm_state_id *state)
{
	hold_off(g, a);
	*a = g->base;
	*state = g->base_state;
	g->restored_measured = false;
	g->watching = false;
	g->since = 0;
}

/*
 * A PS tenant's IPC moved by more than the probe's margin: what static's
 * layout would give it may have moved too. A workload change that moves no
 * PS tenant's IPC is not worth a probe (it costs the BE tenants iocad's gains
 * for two intervals).
 */
/* The probe's margin for tenant @i: GUARD_PROBE_LOSS, or twice its IPC's jitter. */
static double probe_margin(const struct guard_state *g, unsigned int i)
{
	return fmax(GUARD_PROBE_LOSS, 2.0 * g->jitter[i]);
}

static bool ps_ipc_moved(const struct guard_state *g, const struct config *cfg,
			 const struct tenant_delta *d)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (cfg->tenant[i].prio == CONFIG_PRIO_PS &&
		    !same(d->prev.tenant[i].ipc, d->cur.tenant[i].ipc, probe_margin(g, i)))
			return true;
	return false;
}

/* Two settled intervals of a steady workload: what their PS tenants' IPC differs by is noise. */
static void note_jitter(struct guard_state *g, const struct config *cfg,
			const struct tenant_delta *d)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		double was = d->prev.tenant[i].ipc, now = d->cur.tenant[i].ipc;

		if (cfg->tenant[i].prio != CONFIG_PRIO_PS || !(was > 0) || !(now > 0))
			continue;
		g->jitter[i] = fmax(fabs(now / was - 1.0), g->jitter[i] * GUARD_JITTER_DECAY);
	}
}

enum guard_probe_verdict guard_probe(struct guard_state *g, const struct config *cfg,
				     const struct tenant_delta *d, bool moved,
				     struct planner_alloc *a, enum fsm_state_id *state)
{
	if (g->probing) {
		bool worse = false;

		if (g->since < GUARD_SETTLE)
			return GUARD_PROBE_WAIT;
		g->probing = false;
		g->probe_gap = GUARD_PROBE_GAP;
		/* measured under static's layout, settled */
		set_anchor(g, cfg, d);
		for (unsigned int i = 0; i < cfg->ntenants; i++)
			if (cfg->tenant[i].prio == CONFIG_PRIO_PS &&
			    g->probe_ipc[i] < d->cur.tenant[i].ipc * (1.0 - probe_margin(g, i)))
				worse = true;
		if (worse) {
			/* static's layout stays, as after an undo; it has been in force a while */
			hold_off(g, &g->probe_saved);
			*state = FSM_LOW_KEEP;
			return GUARD_PROBE_STATIC;
		}
		*a = g->probe_saved;
		*state = g->probe_state;
		g->since = 0;
		/*
		 * a change in the next interval could not be judged (its base not
		 * settled): the measurement taken before the probe stands for it
		 */
		memcpy(g->ipc, g->probe_ipc, sizeof(g->ipc));
		memcpy(g->rpi, g->probe_rpi, sizeof(g->rpi));
		g->ddio_traffic = g->probe_ddio_traffic;
		g->restored_measured = true;
		return GUARD_PROBE_KEPT;
	}
	if (g->probe_gap)
		g->probe_gap--;
	/* both intervals compared were under the settled layout: the workload moved */
	if (moved && g->since > GUARD_SETTLE)
		g->hold_moved = true;
	if (!moved && g->since > GUARD_SETTLE && d->have_prev)
		note_jitter(g, cfg, d);
	if (!g->ref_valid || guard_same_layout(a, &g->ref)) {
		g->probe_pending = false;
		return GUARD_PROBE_NONE;
	}
	/* a change is being judged: the probe waits for its verdict */
	if (g->watching)
		return GUARD_PROBE_NONE;
	if (moved) {
		if (g->since > GUARD_SETTLE && ps_ipc_moved(g, cfg, d))
			g->probe_pending = true;
		return GUARD_PROBE_NONE;
	}
	if (!g->probe_pending || g->probe_gap || g->since < GUARD_SETTLE || !d->have_prev)
		return GUARD_PROBE_NONE;
	g->probe_pending = false;
	g->probing = true;
	g->probe_saved = *a;
	g->probe_state = *state;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		g->probe_ipc[i] = d->cur.tenant[i].ipc;
		g->probe_rpi[i] = rpi(&d->cur.tenant[i]);
	}
	g->probe_ddio_traffic = d->cur.ddio_hits + d->cur.ddio_misses;
	g->restored_measured = false;
	*a = g->ref;
	g->since = 0;
	return GUARD_PROBE_START;
}

bool guard_refuses(const struct guard_state *g, const struct planner_alloc *a)
{
	/*
	 * Any change, not only the one that hurt: the FSM asks again with
	 * another layout of the same kind (a DDIO way, the same shuffle), and
	 * what static holds is by definition what no PS tenant loses against.
	 */
	(void)a;
	return g->banned_set;
}

bool guard_series_full(const struct guard_state *g)
{
	return g->watching && g->series >= GUARD_SERIES_MAX;
}

void guard_changed(struct guard_state *g, const struct config *cfg,
		   const struct planner_alloc *before, enum fsm_state_id state,
		   const struct tenant_delta *d, bool count)
{
	if (!g->watching) {
		g->base = *before;
		g->base_state = state;
		/* a layout is measured only once the cache has refilled under it */
		g->base_measured = g->since >= GUARD_SETTLE && d->have_prev;
		if (g->base_measured) {
			measure(g, cfg, d);
			if (g->ref_valid && guard_same_layout(before, &g->ref))
				set_anchor(g, cfg, d);
		} else if (g->restored_measured && guard_same_layout(before, &g->probe_saved))
			g->base_measured = true;
		g->restored_measured = false;
		g->watching = true;
		g->series = 0;
	}
	g->series += count;
	g->since = 0;
}

void guard_offer_inclusive(const struct guard_state *g, struct planner_alloc *a)
{
	if (a->incl_deferred && !g->watching && !g->banned_set && g->since >= GUARD_SETTLE)
		a->incl_deferred = false;
}
