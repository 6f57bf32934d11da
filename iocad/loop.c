// SPDX-License-Identifier: GPL-2.0
/*
 * The only file of iocad's library that does I/O: platform calls, the
 * trace file and the log callback. Decisions come from decide_step().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loop.h"
#include "loop_trace.h"

#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

struct loop {
	const struct loop_opts *o;
	struct platform *pf;
	struct platform_info info;
	struct config cfg;    /* resolved, in use */
	struct config newcfg; /* reload scratch */
	struct config oldcfg; /* reload: what to go back to */
	struct config traced; /* tenants of the trace columns */
	struct decide_ctx ctx;
	struct ioca_delta delta;
	struct platform_sample prev, cur;
	struct platform_sample pprev; /* the sample before prev: a reload redoes that interval */
	bool have_pprev;
	struct ioca_interval last; /* reload scratch: the last interval, new tenants */
	bool have_base;
	bool trace_failed; /* a write failed: tracing stopped, the loop goes on */
	bool changed_platform;
	/* The DDIO mask the platform has as far as iocad knows: found at open,
	 * then each applied plan's. A poll reading another one means someone
	 * else changed it. */
	uint32_t known_ddio;
	bool pending_apply; /* the belief differs from the platform: apply next */
	char extra[4096];   /* the platform's trace columns */
};

static void say(struct loop *l, enum loop_log_level lvl, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!l->o->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	l->o->log(l->o->log_arg, lvl, buf);
}

static int apply(struct loop *l)
{
	struct platform_plan plan;
	int r;

	if (l->o->dry_run)
		return 0;
	planner_to_plan(&l->cfg, &l->ctx.alloc, &plan);
	/* ddio = observe: DDIO's mask is the platform's; write back only what it has */
	if (l->cfg.ddio_observe && l->known_ddio)
		plan.ddio_mask = l->known_ddio;
	r = l->pf->ops->apply(l->pf->ctx, &plan);
	if (r) {
		const char *why = l->pf->ops->last_error ? l->pf->ops->last_error(l->pf->ctx) : "";

		say(l, LOOP_LOG_ERROR, "%s: apply failed: %s%s%s", l->pf->ops->name, strerror(-r),
		    why && why[0] ? ": " : "", why ? why : "");
	} else {
		l->changed_platform = true;
		l->known_ddio = plan.ddio_mask;
		l->pending_apply = false;
	}
	return r;
}

/*
 * Get Tenant Info + LLC Alloc for l->cfg, keeping @ddio DDIO ways; @last
 * (may be NULL) is the latest interval, for who shares DDIO's ways.
 */
static int llc_alloc(struct loop *l, unsigned int ddio, const struct ioca_interval *last)
{
	int r;

	r = decide_init(&l->ctx, &l->cfg, l->o->mode, ddio, last);
	if (r) {
		say(l, LOOP_LOG_ERROR,
		    "%s: the tenants' ways and %u DDIO ways do not fit the LLC's %u", l->cfg.path,
		    ddio, l->cfg.llc_ways);
		return r;
	}
	memset(&l->delta, 0, sizeof(l->delta));
	return apply(l);
}

/* DDIO ways to start with: the config's, or with ddio = observe the platform's. */
static unsigned int start_ddio(struct loop *l)
{
	unsigned int n = (unsigned int)__builtin_popcount(l->info.ddio_mask);

	if (!l->cfg.ddio_observe || !n)
		return l->cfg.ddio_ways;
	if (n != l->cfg.ddio_ways)
		say(l, LOOP_LOG_INFO, "ddio = observe: DDIO keeps the platform's %u ways (0x%x)", n,
		    l->info.ddio_mask);
	if (l->info.ddio_mask != planner_ddio_mask(l->cfg.llc_ways, n))
		say(l, LOOP_LOG_ERROR,
		    "DDIO mask 0x%x is not the top %u ways iocad lays out: tenants are planned as "
		    "if "
		    "it were",
		    l->info.ddio_mask, n);
	return n;
}

static unsigned int clamp(unsigned int v, unsigned int lo, unsigned int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * After a reload the tenant table changed, but the counters did not: redo
 * the last interval for the new tenants so the next one still has an
 * interval to compare with.
 */
static bool last_interval(struct loop *l, const struct config *cfg, struct ioca_interval *iv)
{
	return l->have_pprev && !tenant_interval(cfg, &l->pprev, &l->prev, iv);
}

static void keep_history(struct loop *l)
{
	struct ioca_interval iv;

	if (!last_interval(l, &l->cfg, &iv))
		return;
	memset(&l->delta, 0, sizeof(l->delta));
	tenant_delta_push(&l->delta, &iv);
}

/* SIGHUP: a config that fails to parse or fit changes nothing. */
static void reload(struct loop *l)
{
	const struct loop_opts *o = l->o;
	struct decide_ctx before = l->ctx;
	const struct alloc *old = &before.alloc;
	char err[512] = "";
	unsigned int ddio;
	int r;

	if (!o->reload_fn) {
		say(l, LOOP_LOG_INFO, "reload requested, but no config file to re-read");
		return;
	}
	r = o->reload_fn(o->reload_arg, &l->newcfg, err, sizeof(err));
	if (!r)
		r = config_resolve(&l->newcfg, &l->info, err, sizeof(err));
	if (r) {
		say(l, LOOP_LOG_ERROR, "reload rejected, keeping the running config: %s", err);
		return;
	}
	if (!memcmp(&l->newcfg, &l->cfg, sizeof(l->cfg))) {
		say(l, LOOP_LOG_INFO, "reload: %s unchanged", l->cfg.path);
		return;
	}
	ddio = clamp(old->ddio_ways, l->newcfg.ddio_ways_min, l->newcfg.ddio_ways_max);
	memcpy(&l->oldcfg, &l->cfg, sizeof(l->cfg));
	memcpy(&l->cfg, &l->newcfg, sizeof(l->cfg));
	r = llc_alloc(l, ddio, last_interval(l, &l->cfg, &l->last) ? &l->last : NULL);
	if (r) {
		/* the platform refused: the old allocation is still in force */
		memcpy(&l->cfg, &l->oldcfg, sizeof(l->cfg));
		l->ctx = before;
		keep_history(l);
		say(l, LOOP_LOG_ERROR, "reload: new allocation not applied, keeping the old one");
		return;
	}
	keep_history(l);
	say(l, LOOP_LOG_INFO, "reload: %u tenants, LLC Alloc done, DDIO %u ways", l->cfg.ntenants,
	    l->ctx.alloc.ddio_ways);
}

static void fill_record(struct loop *l, uint64_t idx, const struct decide_out *dec, bool applied,
			struct loop_record *rec)
{
	const struct alloc *a = &l->ctx.alloc;
	const struct ioca_interval *iv = &l->delta.cur;

	memset(rec, 0, sizeof(*rec));
	rec->index = idx;
	rec->t_ns = iv->t_ns;
	rec->prev_state = dec->prev_state;
	rec->state = dec->state;
	rec->decision = *dec;
	rec->ddio_ways = a->ddio_ways;
	rec->ddio_mask = a->ddio_mask;
	rec->ddio_hits = iv->ddio_hits_n;
	rec->ddio_misses = iv->ddio_misses_n;
	rec->applied = applied;
	rec->ntenants = l->cfg.ntenants;
	for (unsigned int i = 0; i < l->cfg.ntenants; i++) {
		struct loop_tenant_record *t = &rec->tenant[i];

		memcpy(t->name, l->cfg.tenant[i].name, sizeof(t->name));
		t->ways = a->ways[i];
		t->mask = a->mask[i];
		t->ipc = iv->tenant[i].ipc;
		t->llc_refs = iv->llc_refs_n[i];
		t->llc_misses = iv->llc_misses_n[i];
		t->prio = l->cfg.tenant[i].prio;
	}
}

static int trace_row(struct loop *l, const struct loop_record *rec)
{
	return loop_trace_row(l->o->trace, &l->traced, rec,
			      loop_trace_platform(l->pf, false, l->extra, sizeof(l->extra)));
}

/*
 * The poll read back a DDIO mask iocad did not write: take it as the
 * platform's state (never write the old belief back) and plan around it.
 */
static void adopt_ddio(struct loop *l, struct loop_record *rec)
{
	uint32_t was = l->ctx.alloc.ddio_mask, now = l->cur.ddio_mask;

	rec->ddio_outside = true;
	rec->ddio_outside_from = was;
	l->known_ddio = now;
	say(l, LOOP_LOG_INFO,
	    "DDIO mask changed outside iocad: 0x%x -> 0x%x (%d ways); adopted, tenants re-planned "
	    "around it",
	    was, now, __builtin_popcount(now));
	if (decide_adopt_ddio(&l->ctx, now, &l->delta))
		say(l, LOOP_LOG_ERROR,
		    "DDIO mask 0x%x is not the top %d ways iocad lays out: tenants are planned as "
		    "if "
		    "it were%s",
		    now, __builtin_popcount(now),
		    l->cfg.ddio_observe ? "" : "; the next apply moves it there");
	l->pending_apply = true;
}

/* One Poll → check → FSM → Re-alloc → shuffle → apply. 1 at the end. */
static int interval(struct loop *l, uint64_t idx, struct loop_record *rec)
{
	struct decide_ctx before;
	bool outside = false, apply_failed = false;
	uint32_t outside_from = 0;
	uint64_t lost = 0;
	struct ioca_interval iv;
	struct decide_out dec;
	bool applied = false;
	char line[1024];
	int r;

	r = l->pf->ops->poll(l->pf->ctx, &l->cur);
	if (r == PLATFORM_END)
		return 1;
	if (r < 0) {
		say(l, LOOP_LOG_ERROR, "%s: poll failed: %s", l->pf->ops->name, strerror(-r));
		return r;
	}
	if (!l->have_base) {
		/* the first poll is the baseline of the first interval */
		l->prev = l->cur;
		l->have_base = true;
		return 0;
	}
	/* counters are cumulative: a lost sample only lengthens this interval */
	if (l->cur.seq > l->prev.seq + 1) {
		lost = l->cur.seq - l->prev.seq - 1;
		say(l, LOOP_LOG_INFO, "lost %" PRIu64 " sample(s) before seq %" PRIu64, lost,
		    l->cur.seq);
	} else if (l->cur.seq <= l->prev.seq)
		say(l, LOOP_LOG_INFO, "sample seq went back from %" PRIu64 " to %" PRIu64,
		    l->prev.seq, l->cur.seq);
	if (tenant_interval(&l->cfg, &l->prev, &l->cur, &iv)) {
		say(l, LOOP_LOG_ERROR, "%s: sample time did not advance (seq %" PRIu64 ")",
		    l->pf->ops->name, l->cur.seq);
		return -EIO;
	}
	l->pprev = l->prev;
	l->have_pprev = true;
	l->prev = l->cur;
	tenant_delta_push(&l->delta, &iv);
	if (l->cur.ddio_mask && l->cur.ddio_mask != l->known_ddio) {
		adopt_ddio(l, rec);
		outside = true;
		outside_from = rec->ddio_outside_from;
	}
	before = l->ctx;
	decide_step(&l->ctx, &l->delta, &dec);
	if (l->pending_apply && !l->o->dry_run)
		dec.changed = true;
	if (dec.changed) {
		if (apply(l)) {
			l->ctx = before; /* nothing half-applied: decide again next time */
			apply_failed = true;
			dec.changed = false;
			dec.state = l->ctx.state;
		} else {
			applied = !l->o->dry_run;
		}
	}
	fill_record(l, idx, &dec, applied, rec);
	rec->ddio_outside = outside;
	rec->ddio_outside_from = outside_from;
	rec->lost_samples = lost;
	rec->apply_failed = apply_failed;
	/* a quiet run does not pay for formatting a line nobody reads */
	if (!l->o->quiet) {
		loop_format_line(rec, line, sizeof(line));
		say(l, LOOP_LOG_INTERVAL, "%s%s", line,
		    l->o->dry_run && dec.changed ? " (dry-run)" : "");
	}
	if (l->o->trace && !l->trace_failed && trace_row(l, rec)) {
		l->trace_failed = true;
		say(l, LOOP_LOG_ERROR,
		    "trace: write failed at interval %" PRIu64 "; tracing stopped, decisions go on",
		    idx);
	}
	return 2;
}

static int check_opts(const struct loop_opts *o, struct platform *pf)
{
	if (!o || o->sz < offsetofend(struct loop_opts, loop_opts__last_field) || !o->cfg || !pf ||
	    !pf->ops)
		return -EINVAL;
	if (o->sz > sizeof(*o)) {
		/* a newer caller: its extra fields must be zero */
		for (size_t i = sizeof(*o); i < o->sz; i++)
			if (((const char *)o)[i])
				return -EINVAL;
	}
	return 0;
}

static int run(struct loop *l, struct loop_record *out, size_t max, size_t *nout)
{
	const struct loop_opts *o = l->o;
	struct loop_record *rec;
	uint64_t idx = 0;
	int r = 0;

	rec = malloc(sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	for (;;) {
		if (o->stop && *o->stop) {
			say(l, LOOP_LOG_INFO, "stop requested");
			break;
		}
		if (o->reload && *o->reload) {
			*o->reload = 0;
			reload(l);
		}
		if (o->max_intervals && idx >= o->max_intervals)
			break;
		r = interval(l, idx, rec);
		if (r == 1) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		if (r == 2) {
			if (o->record_fn)
				o->record_fn(o->record_arg, rec);
			if (out && idx < max) {
				out[idx] = *rec;
				*nout = idx + 1;
			}
			idx++;
		}
		r = l->pf->ops->wait(l->pf->ctx, l->cfg.interval_ns);
		if (r < 0 && r != -EINTR) {
			say(l, LOOP_LOG_ERROR, "%s: wait failed: %s", l->pf->ops->name,
			    strerror(-r));
			break;
		}
		r = 0;
	}
	free(rec);
	return r;
}

int loop_run(const struct loop_opts *o, struct platform *pf, struct loop_record *out, size_t max,
	     size_t *nout)
{
	char err[512] = "";
	struct loop *l;
	int r, rr;

	if (nout)
		*nout = 0;
	if (check_opts(o, pf) || (out && !nout))
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->o = o;
	l->pf = pf;
	memcpy(&l->cfg, o->cfg, sizeof(l->cfg));
	r = pf->ops->info(pf->ctx, &l->info);
	if (!r) {
		r = config_resolve(&l->cfg, &l->info, err, sizeof(err));
		if (r)
			say(l, LOOP_LOG_ERROR, "%s", err);
	}
	if (!r) {
		memcpy(&l->traced, &l->cfg, sizeof(l->cfg));
		say(l, LOOP_LOG_INFO,
		    "%s: %u tenants, %u LLC ways, DDIO %u ways (%u..%u), mode %s%s", pf->ops->name,
		    l->cfg.ntenants, l->cfg.llc_ways, l->cfg.ddio_ways, l->cfg.ddio_ways_min,
		    l->cfg.ddio_ways_max, decide_mode_name(o->mode), o->dry_run ? ", dry-run" : "");
		if (!l->info.ddio_counters)
			say(l, LOOP_LOG_INFO,
			    "%s has no DDIO hit/miss counters: the FSM will stay in Low Keep "
			    "(only the core-side allocator and shuffling act)",
			    pf->ops->name);
		if (o->trace)
			r = loop_trace_header(
				o->trace, &l->cfg,
				loop_trace_platform(pf, true, l->extra, sizeof(l->extra)));
	}
	l->known_ddio = l->info.ddio_mask;
	if (!r)
		r = llc_alloc(l, start_ddio(l), NULL);
	if (!r)
		r = run(l, out, max, nout);
	if (l->changed_platform) {
		rr = pf->ops->restore(pf->ctx);
		if (rr)
			say(l, LOOP_LOG_ERROR, "%s: restore failed: %s", pf->ops->name,
			    strerror(-rr));
		else
			say(l, LOOP_LOG_INFO, "%s: original DDIO and CAT state restored",
			    pf->ops->name);
		if (!r)
			r = rr;
	}
	free(l);
	return r;
}
