// SPDX-License-Identifier: GPL-2.0
/*
 * The plan the loop hands the platform: every managed socket's DDIO mask,
 * resctrl groups and sampled CPUs in one struct platform_plan (the model
 * is intel-cmt-cat's lib/api.c: every call says all it applies). A reload
 * is planned whole, checked by the platform, then applied whole; until
 * then nothing of it reaches the platform.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_socket.h"
#include "loop/loop_antagonist.h"
#include "loop/loop_device.h"
#include "loop/loop_plan.h"

static const char *why(struct loop *l)
{
	const char *w = l->pf->ops->last_error ? l->pf->ops->last_error(l->pf->ctx) : "";

	return w ? w : "";
}

/* A group whose tenants name a runtime's RDT class (rdt_class) is that class. */
static void set_rdt_classes(const struct config *cfg, struct platform_socket_plan *sp)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		const char *name = t->group[0] ? t->group : t->name;

		if (!t->rdt_class[0])
			continue;
		for (unsigned int k = 0; k < sp->ngroups; k++)
			if (!strcmp(sp->group[k].name, name))
				memcpy(sp->group[k].rdt_class, t->rdt_class, sizeof(t->rdt_class));
	}
}

/* The plan of every used socket; with @next, the reload's sockets instead. */
static void build(struct loop *l, bool next, struct platform_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->interval_ns = (next ? l->newcfg.interval_ns : l->cfg.interval_ns);
	p->events = PLATFORM_EV_ALL;
	p->sample_only = l->o->dry_run;
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct loop_sock *s = &l->s[id];
		const struct config *cfg = &s->cfg;
		const struct decide_ctx *ctx = &s->ctx;
		struct platform_socket_plan *sp;

		if (next ? !s->next_used : !s->used)
			continue;
		if (next && s->next_changed) {
			cfg = &s->next;
			ctx = &s->next_ctx;
		}
		sp = &p->socket[p->nsockets++];
		planner_socket_plan(cfg, &ctx->alloc, sp);
		if (cfg == &s->cfg)
			loop_antagonist_confine(s, sp);
		set_rdt_classes(cfg, sp);
		/* ddio = observe: DDIO's mask is the platform's; write back only what it has */
		if (cfg->ddio_observe && s->known_ddio)
			sp->ddio_mask = s->known_ddio;
	}
}

/*
 * A PS tenant the planner could not keep off the inclusive ways (A4's rule
 * fell back to DDIO's alone) is said once when it lands there, and once
 * when it is off them again.
 */
void loop_plan_say_inclusive(struct loop *l, unsigned int id, struct loop_sock *s)
{
	uint64_t now = s->ctx.alloc.incl_fallback, diff = now ^ s->incl_said;

	for (unsigned int i = 0; diff && i < s->cfg.ntenants; i++) {
		const struct config_tenant *t = &s->cfg.tenant[i];

		if (!(diff & (1ull << i)))
			continue;
		if (now & (1ull << i))
			loop_say(l, LOOP_LOG_INFO,
				 "socket %u: PS tenant %s (0x%x) is on the inclusive ways 0x%x: it "
				 "does not fit off them and off DDIO's ways",
				 id, t->group[0] ? t->group : t->name, s->ctx.alloc.mask[i],
				 s->cfg.inclusive_mask);
		else
			loop_say(l, LOOP_LOG_INFO,
				 "socket %u: PS tenant %s is off the inclusive ways 0x%x again", id,
				 t->group[0] ? t->group : t->name, s->cfg.inclusive_mask);
	}
	s->incl_said = now;
}

static void applied(struct loop *l, const struct platform_plan *p)
{
	if (p->sample_only)
		return;
	l->changed_platform = true;
	for (unsigned int k = 0; k < p->nsockets; k++) {
		struct loop_sock *s = &l->s[p->socket[k].id];

		s->known_ddio = p->socket[k].ddio_mask;
		s->pending_apply = false;
		loop_plan_say_inclusive(l, p->socket[k].id, s);
	}
}

int loop_plan_apply(struct loop *l)
{
	struct platform_plan *p = &l->plan;
	int r;

	build(l, false, p);
	r = l->pf->ops->apply(l->pf->ctx, p);
	if (r) {
		const char *w = why(l);

		loop_say(l, LOOP_LOG_ERROR, "%s: apply failed: %s%s%s", l->pf->ops->name,
			 strerror(-r), w[0] ? ": " : "", w);
		return r;
	}
	applied(l, p);
	return 0;
}

static unsigned int clamp(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* What the platform says of DDIO way control on @cfg's socket, said at its start. */
static void say_ddio_control(struct loop *l, const struct config *cfg, uint32_t mask)
{
	const struct platform_socket_info *si = &l->info.socket[cfg->socket];

	if (si->ddio_fixed)
		loop_say(l, LOOP_LOG_ERROR,
			 "socket %u: no DDIO way control: %s; iocad runs without it there, as "
			 "with ddio = observe: DDIO keeps its %d ways (0x%x), tenants are planned "
			 "around them, the core-side allocator and shuffling act",
			 cfg->socket, si->ddio_fixed_why, __builtin_popcount(mask), mask);
	else if (si->ddio_unverified && !cfg->ddio_observe)
		loop_say(l, LOOP_LOG_INFO,
			 "socket %u: DDIO way masks are set but not verified to move DDIO on "
			 "this CPU model (iocactl info: verified no); 'ddio = observe' leaves "
			 "DDIO alone",
			 cfg->socket);
}

bool loop_plan_ddio_control(struct loop *l)
{
	struct platform_info *info = malloc(sizeof(*info));
	bool changed = false;

	if (!info || l->pf->ops->info(l->pf->ctx, info)) {
		free(info);
		return false;
	}
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct platform_socket_info *si = &l->info.socket[id];
		struct loop_sock *s = &l->s[id];

		if (!s->used || si->ddio_fixed || !info->socket[id].ddio_fixed)
			continue;
		si->ddio_fixed = true;
		memcpy(si->ddio_fixed_why, info->socket[id].ddio_fixed_why,
		       sizeof(si->ddio_fixed_why));
		s->cfg.ddio_observe = true;
		s->ctx.alloc.ddio_fixed = true;
		changed = true;
		loop_say(l, LOOP_LOG_ERROR,
			 "socket %u: no DDIO way control any more: %s; iocad goes on without it "
			 "there, as with ddio = observe: DDIO keeps 0x%x, tenants are planned "
			 "around it",
			 id, si->ddio_fixed_why, s->known_ddio);
	}
	free(info);
	return changed;
}

/* DDIO ways to start with: the config's, or with ddio = observe the platform's. */
static unsigned int start_ddio(struct loop *l, const struct config *cfg)
{
	uint32_t mask = l->info.socket[cfg->socket].ddio_mask;
	unsigned int n = (unsigned int)__builtin_popcount(mask);

	say_ddio_control(l, cfg, mask);

	if (!cfg->ddio_observe || !n)
		return cfg->ddio_ways;
	if (n != cfg->ddio_ways)
		loop_say(l, LOOP_LOG_INFO,
			 "socket %u: ddio = observe: DDIO keeps the platform's %u ways (0x%x)",
			 cfg->socket, n, mask);
	return n;
}

/*
 * The per-socket configs of l->newcfg into each socket's next (and
 * whether it differs from the one in force). 0 or -EINVAL with @err.
 */
/*
 * CPUs go offline and online while iocad runs: a reload places its tenants
 * by them as they are now (a CPU gone offline since start is refused, one
 * come online is placed). The rest of what the loop knows stays its own.
 */
static void refresh_cpus(struct loop *l)
{
	struct platform_info *pi = malloc(sizeof(*pi));

	if (pi && !l->pf->ops->info(l->pf->ctx, pi)) {
		l->info.ncpus = pi->ncpus;
		memcpy(l->info.cpu_socket, pi->cpu_socket, sizeof(l->info.cpu_socket));
	}
	free(pi);
}

static int split_by(struct loop *l, char *err, size_t len)
{
	unsigned int ids[PLATFORM_MAX_SOCKETS], n;
	int r;

	r = config_place(&l->newcfg, &l->info, err, len);
	if (r)
		return r;
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		l->s[id].next_used = false;
	n = config_sockets(&l->newcfg, ids);
	for (unsigned int k = 0; k < n; k++) {
		struct loop_sock *s = &l->s[ids[k]];

		r = config_for_socket(&l->newcfg, &l->info, ids[k], &s->next, err, len);
		if (r)
			return r;
		/* the module says DDIO's ways cannot be changed: never try */
		if (l->info.socket[ids[k]].ddio_fixed)
			s->next.ddio_observe = true;
		s->next_used = true;
		s->next_changed = !s->used || config_same(&s->next, &s->cfg) != 1;
	}
	return 0;
}

static bool none_changed(const struct loop *l)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (l->s[id].next_used ? l->s[id].next_changed : l->s[id].used)
			return false;
	return true;
}

/*
 * By the CPUs online now; a placement refused for an offline CPU (-EAGAIN)
 * is tried again by the map the running config was placed with (not the
 * one the last reload saw: a second SIGHUP while the CPU is still offline
 * would be refused): when that changes no socket, the reload is the
 * running config again, a CPU of which is offline for now (the hotplug
 * fix-up's), and nothing is refused.
 */
static int split(struct loop *l, char *err, size_t len)
{
	char again[64];
	int r;

	l->split_by_placed = false;
	refresh_cpus(l);
	r = split_by(l, err, len);
	if (r == -EAGAIN && l->placed_ncpus) {
		int *now = malloc(sizeof(l->info.cpu_socket));
		unsigned int now_ncpus = l->info.ncpus;

		if (now) {
			memcpy(now, l->info.cpu_socket, sizeof(l->info.cpu_socket));
			memcpy(l->info.cpu_socket, l->placed_cpu_socket,
			       sizeof(l->info.cpu_socket));
			l->info.ncpus = l->placed_ncpus;
			if (!split_by(l, again, sizeof(again)) && none_changed(l)) {
				r = 0;
				l->split_by_placed = true;
			}
			memcpy(l->info.cpu_socket, now, sizeof(l->info.cpu_socket));
			l->info.ncpus = now_ncpus;
			free(now);
		}
	}
	return r;
}

/* The config split() placed is in force now: its map is the placed one. */
static void placed(struct loop *l)
{
	if (l->split_by_placed)
		return;
	memcpy(l->placed_cpu_socket, l->info.cpu_socket, sizeof(l->placed_cpu_socket));
	l->placed_ncpus = l->info.ncpus;
}

/* LLC Alloc of each changed socket into its next_ctx, keeping @start's DDIO ways. */
static int alloc_next(struct loop *l, bool first)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct loop_sock *s = &l->s[id];
		const struct tenant_interval *last = NULL;
		unsigned int ddio;
		uint32_t at;

		if (!s->next_used || !s->next_changed)
			continue;
		if (!s->used)
			s->known_ddio = l->info.socket[id].ddio_mask;
		/* DDIO's ways start where they are: the platform's, or the running ones */
		if (first || !s->used) {
			ddio = start_ddio(l, &s->next);
			at = l->info.socket[id].ddio_mask;
		} else {
			ddio = clamp(s->ctx.alloc.ddio_ways, s->next.ddio_ways_min,
				     s->next.ddio_ways_max);
			at = s->ctx.alloc.ddio_mask;
		}
		/* the latest interval, for the new tenants: who shares DDIO's ways */
		if (s->have_pbase && !tenant_interval(&s->next, &s->pbase, &s->base, &s->last))
			last = &s->last;
		if (decide_init_at(&s->next_ctx, &s->next, l->o->mode, at, ddio, last)) {
			loop_say(l, LOOP_LOG_ERROR,
				 "%s: socket %u: the tenants' ways and %u DDIO ways do not fit the "
				 "LLC's %u",
				 l->newcfg.path, id, ddio, s->next.llc_ways);
			return -ENOSPC;
		}
	}
	return 0;
}

/* The reload's plan is in force: make it the running state. */
static void commit(struct loop *l)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct loop_sock *s = &l->s[id];
		struct tenant_interval iv;

		if (!s->next_used) {
			s->used = false;
			continue;
		}
		if (!s->next_changed)
			continue;
		s->used = true;
		memcpy(&s->cfg, &s->next, sizeof(s->cfg));
		s->ctx = s->next_ctx;
		s->ctx.cfg = &s->cfg;
		s->incl_said = 0; /* a new tenant table: said again */
		/* and its tenants judged again */
		memset(s->ant, 0, sizeof(s->ant));
		/* counters did not change: redo the last interval for the new tenants */
		memset(&s->delta, 0, sizeof(s->delta));
		if (s->have_pbase && !tenant_interval(&s->cfg, &s->pbase, &s->base, &iv))
			tenant_delta_push(&s->delta, &iv);
	}
	memcpy(&l->cfg, &l->newcfg, sizeof(l->cfg));
}

/* Check and apply the next plan; 0 once it is in force. */
static int take_next(struct loop *l)
{
	struct platform_plan *p = &l->plan;
	int r;

	const char *what = "check";

	build(l, true, p);
	r = l->pf->ops->check ? l->pf->ops->check(l->pf->ctx, p) : 0;
	if (!r) {
		what = "apply";
		r = l->pf->ops->apply(l->pf->ctx, p);
	}
	if (r) {
		const char *w = why(l);

		loop_say(l, LOOP_LOG_ERROR, "%s: %s failed: %s%s%s", l->pf->ops->name, what,
			 strerror(-r), w[0] ? ": " : "", w);
		return r;
	}
	commit(l);
	applied(l, p);
	return 0;
}

int loop_plan_start(struct loop *l)
{
	char err[512] = "";
	int r;

	memcpy(&l->newcfg, &l->cfg, sizeof(l->cfg));
	r = split(l, err, sizeof(err));
	if (r) {
		loop_say(l, LOOP_LOG_ERROR, "%s", err);
		return r;
	}
	r = alloc_next(l, true);
	if (!r)
		r = take_next(l);
	if (!r)
		placed(l);
	return r;
}

bool loop_plan_reload(struct loop *l)
{
	const struct loop_opts *o = l->o;
	char err[512] = "";
	unsigned int n = 0;
	int r;

	if (!o->reload_fn) {
		loop_say(l, LOOP_LOG_INFO, "reload requested, but no config file to re-read");
		return false;
	}
	r = o->reload_fn(o->reload_arg, &l->newcfg, err, sizeof(err));
	if (!r)
		r = split(l, err, sizeof(err));
	if (r) {
		loop_say(l, LOOP_LOG_ERROR, "reload rejected, keeping the running config: %s", err);
		return false;
	}
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		n += l->s[id].next_used ? l->s[id].next_changed : l->s[id].used;
	if (!n && l->newcfg.interval_ns == l->cfg.interval_ns) {
		bool thr = memcmp(&l->cfg.thr, &l->newcfg.thr, sizeof(l->cfg.thr));

		/* new thresholds at the next interval; verdicts, streaks and dwell stay */
		l->cfg.thr = l->newcfg.thr;
		if (loop_device_take(l, &l->newcfg))
			loop_say(l, LOOP_LOG_INFO, "reload: %s: devices changed, tenants unchanged",
				 l->cfg.path);
		else if (thr)
			loop_say(l, LOOP_LOG_INFO,
				 "reload: %s: thresholds changed, tenants unchanged", l->cfg.path);
		else
			loop_say(l, LOOP_LOG_INFO, "reload: %s unchanged", l->cfg.path);
		placed(l);
		return true;
	}
	if (alloc_next(l, false) || take_next(l)) {
		loop_say(l, LOOP_LOG_ERROR,
			 "reload rejected: the new allocation was not applied, the running "
			 "config and allocation stay");
		return false;
	}
	placed(l);
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++)
		if (l->s[id].used && l->s[id].next_changed)
			loop_say(l, LOOP_LOG_INFO,
				 "reload: socket %u: %u tenants, LLC Alloc done, DDIO %u ways", id,
				 l->s[id].cfg.ntenants, l->s[id].ctx.alloc.ddio_ways);
	loop_say(l, LOOP_LOG_INFO, "reload: %u socket(s) changed, the others untouched", n);
	return true;
}
