// SPDX-License-Identifier: GPL-2.0
/*
 * THRESHOLD_STABLE is relative: a counter moved if it changed by more
 * than that fraction of its previous value and by more than
 * threshold_min_rate events/s (so near-idle counters do not flap).
 */
#include "decide/stability.h"
#include "decide/fsm.h"

/* The non-networking tenant whose LLC miss rate moved the most. */
static int pick(const struct tenant_delta *d, const bool *llc_ch, const struct config *cfg,
		const struct planner_alloc *a, bool want_overlap)
{
	double best = -1;
	int who = -1;

	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		double m;

		if (!llc_ch[i] || (want_overlap && !planner_ddio_overlap(a, i)))
			continue;
		m = d->cur.tenant[i].miss_rate - d->prev.tenant[i].miss_rate;
		if (m < 0)
			m = -m;
		if (m > best) {
			best = m;
			who = (int)i;
		}
	}
	return who;
}

void stability_check(const struct config *cfg, const struct planner_alloc *a,
		     const struct tenant_delta *d, struct stab_out *out)
{
	const struct tenant_interval *c = &d->cur, *p = &d->prev;
	double rel = cfg->threshold_stable, fl = cfg->threshold_min_rate;
	bool llc_ch[PLATFORM_MAX_TENANTS] = {false};
	bool net_llc = false;

	*out = (struct stab_out){.verdict = STAB_STABLE, .tenant = -1};
	if (!d->have_prev)
		return;
	for (unsigned int i = 0; i < cfg->ntenants && i < c->ntenants && i < p->ntenants; i++) {
		const struct tenant_rates *ct = &c->tenant[i], *pt = &p->tenant[i];

		/* IPC is a ratio: no event floor, but ignore idle cores */
		if ((ct->cycles > fl || pt->cycles > fl) && fsm_changed(pt->ipc, ct->ipc, rel, 0))
			out->ipc_changed = true;
		llc_ch[i] = fsm_changed(pt->llc_refs, ct->llc_refs, rel, fl) ||
			    fsm_changed(pt->llc_misses, ct->llc_misses, rel, fl);
		if (!llc_ch[i])
			continue;
		out->llc_changed = true;
		if (cfg->tenant[i].networking)
			net_llc = true;
	}
	out->ddio_changed = fsm_changed(p->ddio_hits, c->ddio_hits, rel, fl) ||
			    fsm_changed(p->ddio_misses, c->ddio_misses, rel, fl);

	if (!out->llc_changed && !out->ddio_changed) {
		out->verdict = out->ipc_changed ? STAB_IPC_ONLY : STAB_STABLE;
		return;
	}
	out->verdict = STAB_UNSTABLE;
	if (net_llc || !out->llc_changed)
		return;
	/*
	 * only non-networking tenants moved and DDIO did not: their own
	 * demand, not I/O's (exception 2) if none is on DDIO's ways (the
	 * paper's "no DDIO overlap"); one that is may be DDIO's doing
	 */
	if (!out->ddio_changed) {
		out->tenant = pick(d, llc_ch, cfg, a, true);
		out->verdict = out->tenant >= 0 ? STAB_SHARER : STAB_CORE_ALLOC;
		if (out->tenant < 0)
			out->tenant = pick(d, llc_ch, cfg, a, false);
		return;
	}
	out->tenant = pick(d, llc_ch, cfg, a, true);
	if (out->tenant >= 0)
		out->verdict = STAB_SHUFFLE;
}
