// SPDX-License-Identifier: GPL-2.0
/*
 * The only file of iocad's library that polls and waits: the intervals,
 * the trace file and the log callback. Decisions come from decide_step(),
 * one per managed socket; what is applied, from loop_plan.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loop/loop.h"
#include "loop/loop_antagonist.h"
#include "loop/loop_device.h"
#include "loop/loop_plan.h"
#include "loop/loop_trace.h"

#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

void loop_say(struct loop *l, enum loop_log_level lvl, const char *fmt, ...)
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

static void fill_record(struct loop *l, struct loop_sock *s, uint64_t idx,
			const struct decide_out *dec, bool applied, struct loop_record *rec)
{
	const struct planner_alloc *a = &s->ctx.alloc;
	const struct tenant_interval *iv = &s->delta.cur;

	memset(rec, 0, sizeof(*rec));
	rec->index = idx;
	rec->socket = s->cfg.socket;
	rec->llc_ways = s->cfg.llc_ways;
	rec->t_ns = l->cur.t_ns;
	rec->prev_state = dec->prev_state;
	rec->state = dec->state;
	rec->decision = *dec;
	rec->ddio_ways = a->ddio_ways;
	rec->ddio_mask = a->ddio_mask;
	rec->ddio_hits = iv->ddio_hits_n;
	rec->ddio_misses = iv->ddio_misses_n;
	rec->applied = applied;
	rec->ndevices = l->dev.n;
	rec->devices_off = loop_device_off_mask(l);
	loop_device_record(l, s->cfg.socket, rec);
	rec->ntenants = s->cfg.ntenants;
	for (unsigned int i = 0; i < s->cfg.ntenants; i++) {
		struct loop_tenant_record *t = &rec->tenant[i];

		memcpy(t->name, s->cfg.tenant[i].name, sizeof(t->name));
		t->ways = a->ways[i];
		t->mask = a->mask[i];
		t->ipc = iv->tenant[i].ipc;
		t->llc_refs = iv->llc_refs_n[i];
		t->llc_misses = iv->llc_misses_n[i];
		t->prio = s->cfg.tenant[i].prio;
		t->antagonist = s->ant[i].on;
	}
}

/*
 * The poll read back a DDIO mask iocad did not write: take it as the
 * platform's state (never write the old belief back) and plan around it.
 */
static void adopt_ddio(struct loop *l, struct loop_sock *s, uint32_t now)
{
	uint32_t was = s->ctx.alloc.ddio_mask;

	s->known_ddio = now;
	loop_say(l, LOOP_LOG_INFO,
		 "socket %u: DDIO mask changed outside iocad: 0x%x -> 0x%x (%d ways); adopted, "
		 "tenants re-planned around it",
		 s->cfg.socket, was, now, __builtin_popcount(now));
	if (decide_adopt_ddio(&s->ctx, now, &s->delta))
		loop_say(l, LOOP_LOG_ERROR,
			 "socket %u: the tenants' ways do not fit beside DDIO mask 0x%x: "
			 "their masks stay as they were",
			 s->cfg.socket, now);
	s->pending_apply = true;
}

/* A held interval: no decision (no DDIO counts, or no interval yet). */
static void hold(const struct loop_sock *s, struct decide_out *dec)
{
	memset(dec, 0, sizeof(*dec));
	dec->prev_state = dec->state = s->ctx.state;
	dec->reason = DECIDE_R_STABLE;
	dec->tenant = -1;
}

/*
 * One socket's Poll → check → FSM → Re-alloc → shuffle. Returns true if
 * it has a record this interval (its baseline existed); *@changed if its
 * allocation changed and must be applied.
 */
static bool decide_socket(struct loop *l, struct loop_sock *s, struct decide_ctx *before,
			  struct decide_out *dec, struct loop_record *rec)
{
	const struct platform_socket_sample *ss = &l->cur.socket[s->cfg.socket];
	struct tenant_interval iv;

	memset(rec, 0, sizeof(*rec));
	if (!s->have_base) {
		/* the first poll is the baseline of the first interval */
		s->base = l->cur;
		s->have_base = true;
		return false;
	}
	*before = s->ctx;
	if (ss->ddio_missing && l->info.socket[s->cfg.socket].ddio_counters) {
		/* the next sample covers this interval too: its base stays */
		hold(s, dec);
		rec->ddio_missing = true;
		return true;
	}
	if (tenant_interval(&s->cfg, &s->base, &l->cur, &iv))
		return false;
	s->pbase = s->base;
	s->have_pbase = true;
	s->base = l->cur;
	tenant_delta_push(&s->delta, &iv);
	if (ss->ddio_mask && ss->ddio_mask != s->known_ddio) {
		rec->ddio_outside = true;
		rec->ddio_outside_from = s->ctx.alloc.ddio_mask;
		adopt_ddio(l, s, ss->ddio_mask);
	}
	decide_step(&s->ctx, &s->delta, dec);
	if (!dec->changed)
		loop_plan_say_inclusive(l, s->cfg.socket, s);
	if (loop_antagonist_step(l, s) && !l->o->dry_run)
		dec->changed = true;
	if (s->pending_apply && !l->o->dry_run)
		dec->changed = true;
	return true;
}

static void emit(struct loop *l, struct loop_record *rec, bool dry_changed)
{
	char line[1024];

	/* a quiet run does not pay for formatting a line nobody reads */
	if (!l->o->quiet) {
		loop_format_line(rec, line, sizeof(line));
		loop_say(l, LOOP_LOG_INTERVAL, "%s%s", line, dry_changed ? " (dry-run)" : "");
	}
	if (l->o->trace && !l->trace_failed &&
	    loop_trace_row(l->o->trace, &l->traced, rec,
			   loop_trace_platform(l->pf, false, l->extra, sizeof(l->extra)))) {
		l->trace_failed = true;
		loop_say(l, LOOP_LOG_ERROR,
			 "trace: write failed at interval %" PRIu64
			 "; tracing stopped, decisions go on",
			 rec->index);
	}
}

/* Lost samples are said at most once a minute of platform time, summed. */
#define LOST_SAY_NS (60ULL * 1000000000ULL)

static void note_seq(struct loop *l)
{
	/* counters are cumulative: a lost sample only lengthens this interval */
	l->lost_now = 0;
	if (l->have_seq && l->cur.seq > l->last_seq + 1) {
		l->lost_now = l->cur.seq - l->last_seq - 1;
		l->lost_unsaid += l->lost_now;
		if (!l->lost_said_ns || l->cur.t_ns >= l->lost_said_ns + LOST_SAY_NS) {
			loop_say(l, LOOP_LOG_INFO,
				 "lost %" PRIu64 " sample(s) before seq %" PRIu64
				 " (since the last time said); those intervals are "
				 "lengthened, not lost. Said again at most once a minute",
				 l->lost_unsaid, l->cur.seq);
			l->lost_unsaid = 0;
			l->lost_said_ns = l->cur.t_ns ? l->cur.t_ns : 1;
		}
	} else if (l->have_seq && l->cur.seq <= l->last_seq) {
		loop_say(l, LOOP_LOG_INFO, "sample seq went back from %" PRIu64 " to %" PRIu64,
			 l->last_seq, l->cur.seq);
	}
	l->last_seq = l->cur.seq;
	l->have_seq = true;
}

struct pending {
	bool has;
	struct decide_ctx before;
	struct decide_out dec;
	struct loop_record rec;
};

/* Undo the decisions of this interval that were to be applied. */
static void revert(struct loop *l, struct pending *pend)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct pending *p = &pend[id];

		if (!p->has || !p->dec.changed)
			continue;
		l->s[id].ctx = p->before;
		p->dec.changed = false;
		p->dec.state = l->s[id].ctx.state;
	}
}

/* An apply failed at interval @idx: retry later, not every interval. */
static void back_off(struct loop *l, uint64_t idx)
{
	unsigned int n;

	l->apply_failures++;
	n = 1u << (l->apply_failures - 1 < 6 ? l->apply_failures - 1 : 6);
	l->retry_at = idx + n;
	l->must_apply = true;
	loop_say(l, LOOP_LOG_ERROR,
		 "apply failed %u time(s) in a row; the platform's state was read back, the plan "
		 "is retried at interval #%" PRIu64 " (in %u interval(s))",
		 l->apply_failures, l->retry_at, n);
}

/* Apply what this interval changed (or what a failure left pending), backing off. */
static void apply_changes(struct loop *l, struct pending *pend, uint64_t idx, bool change)
{
	if (l->o->dry_run || !(change || l->must_apply))
		return;
	if (idx < l->retry_at) {
		revert(l, pend); /* backing off: decide again when the retry is due */
		return;
	}
	if (loop_plan_apply(l)) {
		l->apply_failed_now = true;
		revert(l, pend);
		/* a DDIO register that did not take the write: go on without it */
		if (loop_plan_ddio_control(l)) {
			l->must_apply = true;
			return;
		}
		back_off(l, idx);
		return;
	}
	if (l->apply_failures)
		loop_say(l, LOOP_LOG_INFO, "apply succeeded again after %u failure(s)",
			 l->apply_failures);
	l->apply_failures = 0;
	l->must_apply = false;
}

/*
 * One interval on every socket, then one apply of whatever changed.
 * 1 at the end, 2 with records in @pend, 0 for the baseline, 3 when the
 * platform had no sample (no interval, no wait), or -errno.
 */
static int interval(struct loop *l, struct pending *pend, uint64_t idx)
{
	bool change = false;
	int r, any = 0;

	l->apply_failed_now = false;
	r = l->pf->ops->poll(l->pf->ctx, &l->cur);
	if (r == PLATFORM_END)
		return 1;
	/* no sample yet: no interval; the loop's top looks at its flags */
	if (r == -EAGAIN)
		return 3;
	/* a stop woke a waiting poll: the loop's top sees the flag */
	if (r == -EINTR && l->o->stop && *l->o->stop)
		return 0;
	if (r < 0) {
		loop_say(l, LOOP_LOG_ERROR, "%s: poll failed: %s", l->pf->ops->name, strerror(-r));
		return r;
	}
	note_seq(l);
	loop_device_interval(l);
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct pending *p = &pend[id];

		p->has = l->s[id].used && decide_socket(l, &l->s[id], &p->before, &p->dec, &p->rec);
		any |= p->has;
		change |= p->has && p->dec.changed;
	}
	/* nothing half-applied: every socket decides again next time */
	apply_changes(l, pend, idx, change);
	return any ? 2 : 0;
}

static void record(struct loop *l, struct pending *pend, uint64_t idx, struct loop_record *out,
		   size_t max, size_t *nout)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		struct pending *p = &pend[id];
		bool missing = p->rec.ddio_missing, outside = p->rec.ddio_outside;
		uint32_t from = p->rec.ddio_outside_from;
		struct loop_record *rec = &p->rec;

		if (!p->has)
			continue;
		fill_record(l, &l->s[id], idx, &p->dec, p->dec.changed && !l->o->dry_run, rec);
		rec->ddio_missing = missing;
		rec->ddio_outside = outside;
		rec->ddio_outside_from = from;
		rec->lost_samples = l->lost_now;
		rec->apply_failed = l->apply_failed_now;
		emit(l, rec, l->o->dry_run && p->dec.changed);
		if (l->o->sz >= offsetofend(struct loop_opts, record_arg) && l->o->record_fn)
			l->o->record_fn(l->o->record_arg, rec);
		if (out && *nout < max)
			out[(*nout)++] = *rec;
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* This turn's status: what the platform waits for, and that the loop turned. */
static void publish(struct loop *l, uint64_t idx)
{
	struct loop_status *st = &l->status;
	const char *w = l->pf->ops->waiting ? l->pf->ops->waiting(l->pf->ctx) : "";

	st->intervals = idx;
	st->turns++;
	if (!w || !w[0])
		st->waiting_since_ns = 0;
	else if (!st->waiting_since_ns)
		st->waiting_since_ns = mono_ns();
	st->waiting = w ? w : "";
	l->cat_waiting[0] = '\0';
	st->cat_waits = l->pf->ops->cat_waiting
				? l->pf->ops->cat_waiting(l->pf->ctx, l->cat_waiting,
							  sizeof(l->cat_waiting))
				: 0;
	st->cat_waiting = l->cat_waiting;
	if (l->o->sz >= offsetofend(struct loop_opts, status_arg) && l->o->status_fn)
		l->o->status_fn(l->o->status_arg, st);
}

static int check_opts(const struct loop_opts *o, struct platform *pf)
{
	if (!o || o->sz < offsetofend(struct loop_opts, quiet) || !o->cfg || !pf || !pf->ops)
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
	struct pending *pend;
	uint64_t idx = 0;
	int r = 0;

	pend = calloc(PLATFORM_MAX_SOCKETS, sizeof(*pend));
	if (!pend)
		return -ENOMEM;
	for (;;) {
		if (o->stop && *o->stop) {
			loop_say(l, LOOP_LOG_INFO, "stop requested");
			break;
		}
		if (o->reload && *o->reload) {
			bool taken;

			*o->reload = 0;
			taken = loop_plan_reload(l);
			if (o->sz >= offsetofend(struct loop_opts, reloaded_fn) && o->reloaded_fn)
				o->reloaded_fn(o->reload_arg, taken);
			loop_device_sync(l);
			loop_antagonist_counters(l);
		}
		if (o->max_intervals && idx >= o->max_intervals)
			break;
		r = interval(l, pend, idx);
		if (r == 1) {
			r = 0;
			break;
		}
		if (r < 0)
			break;
		if (r == 2)
			record(l, pend, idx++, out, max, nout);
		publish(l, idx);
		if (r == 3) {
			r = 0;
			continue; /* the poll waited: no wait, the flags first */
		}
		r = l->pf->ops->wait(l->pf->ctx, l->cfg.interval_ns);
		if (r < 0 && r != -EINTR) {
			loop_say(l, LOOP_LOG_ERROR, "%s: wait failed: %s", l->pf->ops->name,
				 strerror(-r));
			break;
		}
		r = 0;
	}
	free(pend);
	return r;
}

static void say_start(struct loop *l)
{
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS; id++) {
		const struct config *c = &l->s[id].cfg;

		if (!l->s[id].used)
			continue;
		loop_say(l, LOOP_LOG_INFO,
			 "%s: socket %u: %u tenants, %u LLC ways, DDIO %u ways (%u..%u), mode "
			 "%s%s",
			 l->pf->ops->name, id, c->ntenants, c->llc_ways, c->ddio_ways,
			 c->ddio_ways_min, c->ddio_ways_max, decide_mode_name(l->o->mode),
			 l->o->dry_run ? ", dry-run" : "");
		if (!l->info.socket[id].ddio_counters)
			loop_say(l, LOOP_LOG_INFO,
				 "%s: socket %u has no DDIO hit/miss counters: its FSM will stay "
				 "in Low Keep (only the core-side allocator and shuffling act)",
				 l->pf->ops->name, id);
	}
}

int loop_run(const struct loop_opts *o, struct platform *pf, struct loop_record *out, size_t max,
	     size_t *nout)
{
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
	memcpy(&l->traced, &l->cfg, sizeof(l->cfg));
	r = pf->ops->info(pf->ctx, &l->info);
	/* a trace that cannot even take its header: nothing starts */
	if (!r && o->trace)
		r = loop_trace_header(o->trace, &l->cfg,
				      loop_trace_platform(pf, true, l->extra, sizeof(l->extra)));
	if (o->sz >= offsetofend(struct loop_opts, started) && o->started)
		*o->started = false;
	if (!r)
		r = loop_plan_start(l);
	if (!r)
		loop_device_sync(l);
	if (!r)
		loop_antagonist_counters(l);
	if (!r) {
		if (o->sz >= offsetofend(struct loop_opts, started) && o->started)
			*o->started = true;
		say_start(l);
	}
	if (!r)
		r = run(l, out, max, nout);
	if (l->changed_platform) {
		rr = pf->ops->restore(pf->ctx);
		if (rr)
			loop_say(l, LOOP_LOG_ERROR, "%s: restore failed: %s", pf->ops->name,
				 strerror(-rr));
		else
			loop_say(l, LOOP_LOG_INFO, "%s: original DDIO and CAT state restored",
				 pf->ops->name);
		if (!r)
			r = rr;
	}
	free(l);
	return r;
}
