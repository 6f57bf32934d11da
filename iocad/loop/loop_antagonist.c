// SPDX-License-Identifier: GPL-2.0
#include "loop/loop_antagonist.h"

#include <stdlib.h>
#include <string.h>

#include "decide/antagonist.h"
#include "loop/loop_state.h"

/* A4 confines BE compute tenants; a PS, networking or grouped tenant is never one. */
static bool eligible(const struct loop *l, const struct config *cfg, unsigned int i)
{
	const struct config_tenant *t = &cfg->tenant[i];

	return l->info.l2_counters && cfg->antagonists != ANTAGONIST_OFF &&
	       l->o->mode != IOCAD_MODE_STATIC && t->prio == CONFIG_PRIO_BE && !t->networking &&
	       !t->vswitch && !t->group[0];
}

/* Some socket would judge its tenants, given L2 counts. */
static bool wanted(const struct loop *l)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (l->s[id].used && l->s[id].cfg.antagonists != ANTAGONIST_OFF)
			return l->o->mode != IOCAD_MODE_STATIC;
	return false;
}

void loop_antagonist_counters(struct loop *l)
{
	struct platform_info *pi = malloc(sizeof(*pi));

	if (!pi || l->pf->ops->info(l->pf->ctx, pi)) {
		free(pi);
		return;
	}
	l->info.l2_counters = pi->l2_counters;
	memcpy(l->info.l2_why, pi->l2_why, sizeof(l->info.l2_why));
	free(pi);
	if (!wanted(l))
		return;
	if (!l->info.l2_counters && l->info.l2_why[0] && !l->l2_said) {
		loop_say(l, LOOP_LOG_INFO,
			 "%s: no L2 counts (%s): antagonists are not judged (FSM.md, "
			 "\"Antagonists\")",
			 l->pf->ops->name, l->info.l2_why);
		l->l2_said = true;
	} else if (l->info.l2_counters && l->l2_said) {
		loop_say(l, LOOP_LOG_INFO, "%s: L2 counts: antagonists are judged from now on",
			 l->pf->ops->name);
		l->l2_said = false;
	}
}

static uint32_t zone(const struct loop_sock *s, unsigned int i)
{
	const struct planner_alloc *a = &s->ctx.alloc;

	return antagonist_zone(a->mask[i], a->ddio_mask | s->cfg.inclusive_mask,
			       s->cfg.antagonist_ways);
}

bool loop_antagonist_step(struct loop *l, struct loop_sock *s)
{
	const struct antagonist_params *p = &l->cfg.thr.antagonist;
	bool change = false;

	for (unsigned int i = 0; i < s->cfg.ntenants; i++) {
		struct antagonist_state *st = &s->ant[i];
		const char *name = s->cfg.tenant[i].name;
		bool confine = s->cfg.antagonists == ANTAGONIST_CONFINE;

		if (!antagonist_step(p, st, &s->delta.cur.tenant[i], eligible(l, &s->cfg, i)))
			continue;
		change |= confine;
		if (st->on)
			loop_say(l, LOOP_LOG_INFO,
				 "socket %u: tenant %s is an antagonist (L2 miss ratio %.2f, LLC "
				 "miss ratio %.2f): %s 0x%x of its 0x%x",
				 s->cfg.socket, name, st->l2_ratio, st->llc_ratio,
				 confine ? "confined to" : "would be confined to (observe)",
				 zone(s, i), s->ctx.alloc.mask[i]);
		else
			loop_say(l, LOOP_LOG_INFO,
				 "socket %u: tenant %s is no antagonist any more (L2 miss ratio "
				 "%.2f, LLC miss ratio %.2f)%s",
				 s->cfg.socket, name, st->l2_ratio, st->llc_ratio,
				 confine ? ": back on its ways" : "");
	}
	return change;
}

void loop_antagonist_confine(const struct loop_sock *s, struct platform_socket_plan *sp)
{
	if (s->cfg.antagonists != ANTAGONIST_CONFINE)
		return;
	for (unsigned int i = 0; i < s->cfg.ntenants; i++) {
		if (!s->ant[i].on)
			continue;
		for (unsigned int k = 0; k < sp->ngroups; k++)
			if (!strcmp(sp->group[k].name, s->cfg.tenant[i].name))
				sp->group[k].mask = zone(s, i);
	}
}
