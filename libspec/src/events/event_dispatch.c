// SPDX-License-Identifier: GPL-2.0
/*
 * The raise path. A raise enters the runtime's epoch (so the bindings
 * snapshot and merged code it loads stay mapped until it leaves), samples
 * itself into the graph, then either calls the event's merged code, when
 * that was built for the current bindings version, or walks the snapshot:
 * one indirect call per handler, arguments in a record. No lock, no
 * allocation.
 */
#include <stdio.h>
#include <string.h>

#include "events/event_dispatch.h"
#include "events/event_graph.h"
#include "jit/jit.h"
#include "log.h"

/*
 * The arguments come in registers: merged code takes them so, and only the
 * generic path builds the record its handlers read.
 */
static inline void dispatch4(struct spec_event *ev, int64_t a0, int64_t a1, int64_t a2, int64_t a3,
			     const struct spec_ev_ctx *parent, enum spec_ev_edge_kind kind)
{
	struct spec_events *evs = ev->evs;
	_Atomic uint64_t *ep = spec_rt_enter(&evs->rt->dom);
	struct spec_ev_ctx ctx = {
		.evs = evs,
		.user = evs->user,
		.event = ev->idx,
		.depth = parent && kind == SPEC_EV_SYNC ? parent->depth + 1 : 0,
		.handler = UINT32_MAX,
		.sz = sizeof(struct spec_ev_ctx),
	};
	struct ev_merged *m;
	struct ev_bindings *b;
	size_t i;

	ev_sample(evs, parent ? parent->event : SPEC_EV_ROOT, parent ? parent->handler : UINT32_MAX,
		  ev->idx, kind);
	m = atomic_load_explicit(&ev->merged, memory_order_acquire);
	if (m) {
		if (__builtin_expect(
			    m->version == atomic_load_explicit(&ev->version, memory_order_acquire),
			    1)) {
			m->fn(&ctx, a0, a1, a2, a3);
			goto out;
		}
		atomic_fetch_add_explicit(&evs->guard_fails, 1, memory_order_relaxed);
	}
	b = atomic_load_explicit(&ev->bindings, memory_order_acquire);
	if (b->n) {
		const int64_t args[SPEC_EV_MAX_ARGS] = {a0, a1, a2, a3};

		for (i = 0; i < b->n; i++) {
			ctx.handler = b->b[i].handler;
			b->b[i].fn(&ctx, b->b[i].args, args);
		}
	}
out:
	atomic_store_explicit(ep, 0, memory_order_release);
}

void ev_dispatch(struct spec_event *ev, const int64_t *args, const struct spec_ev_ctx *parent,
		 enum spec_ev_edge_kind kind)
{
	dispatch4(ev, args[0], args[1], args[2], args[3], parent, kind);
}

void ev_raise_from(struct spec_ev_ctx *parent, struct spec_event *ev, const int64_t *args)
{
	dispatch4(ev, args[0], args[1], args[2], args[3], parent, SPEC_EV_SYNC);
}

void ev_raise_from4(struct spec_ev_ctx *parent, struct spec_event *ev, int64_t a0, int64_t a1,
		    int64_t a2, int64_t a3)
{
	dispatch4(ev, a0, a1, a2, a3, parent, SPEC_EV_SYNC);
}

int(spec_event__raise4)(struct spec_event *ev, int64_t a0, int64_t a1, int64_t a2, int64_t a3)
{
	if (!ev)
		return libspec_err(-EINVAL);
	dispatch4(ev, a0, a1, a2, a3, NULL, SPEC_EV_SYNC);
	return 0;
}

/* Copy the service's arguments into a full record. */
int ev_args_of(int64_t out[SPEC_EV_MAX_ARGS], const int64_t *args, size_t nr)
{
	if (nr > SPEC_EV_MAX_ARGS || (nr && !args))
		return -EINVAL;
	memset(out, 0, SPEC_EV_MAX_ARGS * sizeof(out[0]));
	if (nr)
		memcpy(out, args, nr * sizeof(out[0]));
	return 0;
}

int spec_event__raise(struct spec_event *ev, const int64_t *args, size_t nr_args)
{
	int64_t a[SPEC_EV_MAX_ARGS];

	if (!ev || ev_args_of(a, args, nr_args))
		return libspec_err(-EINVAL);
	ev_dispatch(ev, a, NULL, SPEC_EV_SYNC);
	return 0;
}

/*
 * An event raised by name from a handler, or NULL: a name no event has is
 * a mistake in the handler (a misspelling, an event never declared), so it
 * is counted, left in last_error and warned about (the first time and then
 * at powers of two); nothing runs. The count and last_error's message
 * change together under the error's leaf lock (never the runtime's lock
 * inside a handler), so the message never reports an older count.
 */
struct spec_event *ev_by_name(struct spec_ev_ctx *ctx, const char *name)
{
	struct spec_events *evs = ctx->evs;
	struct spec_event *ev = ev_lookup(evs, name);
	struct spec_runtime *rt;
	char msg[RT_MSG_MAX];
	uint64_t n;
	int len;

	if (__builtin_expect(ev != NULL, 1))
		return ev;
	rt = evs->rt;
	len = snprintf(msg, sizeof(msg),
		       "raise of unknown event '%s' from handler '%s': no event of that name", name,
		       ctx->handler < evs->nr_handlers ? jit_handler_name(rt->jit, ctx->handler)
						       : "?");
	if (len < 0 || (size_t)len >= sizeof(msg) - 32)
		len = (int)sizeof(msg) - 32;
	pthread_mutex_lock(&rt->err_lock);
	n = atomic_fetch_add_explicit(&evs->unknown_raises, 1, memory_order_relaxed) + 1;
	snprintf(msg + len, sizeof(msg) - (size_t)len, " (%llu such raises)",
		 (unsigned long long)n);
	rt->last_err = -ENOENT;
	memcpy(rt->last_msg, msg, strlen(msg) + 1);
	pthread_mutex_unlock(&rt->err_lock);
	if (!(n & (n - 1)))
		pr_warn(&evs->log, "%s", msg);
	return NULL;
}

void __spec_ev_raise(struct spec_ev_ctx *ctx, const char *event, const int64_t *args)
{
	struct spec_event *ev = ev_by_name(ctx, event);

	if (ev)
		ev_dispatch(ev, args, ctx, SPEC_EV_SYNC);
}
