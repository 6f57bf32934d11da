// SPDX-License-Identifier: GPL-2.0
/*
 * CTP's fixed code. The micro-protocols are a table, bound in order; the
 * driver only raises events, moves segments across the link and polls the
 * timers, so whatever the handlers do (generic or merged) is the protocol.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctp_stack.h"

const char *const ctp_event_names[CTP_NR_EVENTS] = {
	[CTP_MSG_FROM_USER] = "MsgFromUser",
	[CTP_SEG_FROM_USER] = "SegFromUser",
	[CTP_SEG2NET] = "Seg2Net",
	[CTP_SEG_FROM_NET] = "SegFromNet",
	[CTP_SEGMENT_ACKED] = "SegmentAcked",
	[CTP_SEGMENT_TIMEOUT] = "SegmentTimeout",
	[CTP_CONTROLLER_CLOCK] = "ControllerClock",
	[CTP_ADAPT] = "Adapt",
};

/* Micro-protocol bindings: event, handler, order, bind-time arguments. */
static const struct {
	enum ctp_event ev;
	const char *handler;
	int order;
	int64_t a0, a1;
	bool fec;
} bindings[] = {
	{CTP_MSG_FROM_USER, "ctp_fragment", 0, 0 /* frag */, 0, false},
	{CTP_SEG_FROM_USER, "ctp_seq", 0, 0, 0, false},
	{CTP_SEG_FROM_USER, "ctp_checksum", 1, 0, 0, false},
	{CTP_SEG_FROM_USER, "ctp_window", 2, 0, 0, false},
	{CTP_SEG_FROM_USER, "ctp_tdriver", 3, 0, 0, false},
	{CTP_SEG_FROM_USER, "ctp_fec_send", 4, 0, 0, true},
	{CTP_SEG2NET, "ctp_pau", 0, 1 /* timer ns */, 0, false},
	{CTP_SEG2NET, "ctp_net", 1, 0, 0, false},
	{CTP_SEG_FROM_NET, "ctp_verify", 0, 0, 0, false},
	{CTP_SEG_FROM_NET, "ctp_fec_recv", 1, 0, 0, true},
	{CTP_SEG_FROM_NET, "ctp_deliver", 2, 0, 0, false},
	{CTP_SEGMENT_ACKED, "ctp_rtx_ack", 0, 2 /* min rto */, 0, false},
	{CTP_SEGMENT_TIMEOUT, "ctp_rtx_timeout", 0, 0, 0, false},
	{CTP_CONTROLLER_CLOCK, "ctp_controller", 0, 0, 0, false},
	{CTP_ADAPT, "ctp_adapt_fec", 0, 20, 100, true},
	{CTP_ADAPT, "ctp_adapt_window", 1, 50, 0, false},
};

static int bind_all(struct ctp_stack *s, const struct ctp_opts *o)
{
	size_t i;

	for (i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++) {
		LIBSPEC_OPTS(spec_bind_opts, bo, .order = bindings[i].order,
			     .args = {bindings[i].a0, bindings[i].a1});
		int64_t id;

		if (bindings[i].fec && !o->fec)
			continue;
		if (bindings[i].ev == CTP_MSG_FROM_USER)
			bo.args[0] = o->frag;
		id = spec_event__bind(s->ev[bindings[i].ev], bindings[i].handler, &bo);
		if (id < 0)
			return (int)id;
	}
	return 0;
}

int ctp_open(struct ctp_stack *s, const struct ctp_opts *o)
{
	LIBSPEC_OPTS(spec_runtime_opts, ro, .print = o->print, .print_ctx = o->print_ctx);
	LIBSPEC_OPTS(spec_events_opts, eo, .optimize = o->optimize, .sample_every = o->sample_every,
		     .period_ms = 20);
	int i;

	memset(s, 0, sizeof(*s));
	if (o->frag <= 0 || o->frag > CTP_SEG_MAX)
		return -EINVAL;
	s->c = calloc(1, sizeof(*s->c));
	if (!s->c || !(s->c->rx = calloc(1, CTP_STREAM)))
		goto nomem;
	s->c->drop_mod = o->drop_mod;
	s->c->fec_k = o->fec ? 8 : 0;
	s->c->rto = 2;
	s->c->window_max = 64;
	eo.user = s->c;
	s->rt = spec_runtime__open(o->ir, &ro);
	if (!s->rt)
		return -errno;
	s->evs = spec_events__new(s->rt, &eo);
	if (!s->evs)
		return -errno;
	for (i = 0; i < CTP_NR_EVENTS; i++) {
		s->ev[i] = spec_events__declare(s->evs, ctp_event_names[i]);
		if (!s->ev[i])
			return -errno;
	}
	return bind_all(s, o);
nomem:
	return -ENOMEM;
}

void ctp_close(struct ctp_stack *s)
{
	spec_events__free(s->evs);
	spec_runtime__close(s->rt);
	if (s->c)
		free(s->c->rx);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

/*
 * Deliver everything on the link, then fire one due timer; until quiet. One
 * at a time: a timer re-armed by a retransmission is due at once, and must
 * not fire again before the link delivered what it resent.
 */
static int run_until_quiet(struct ctp_stack *s)
{
	struct ctp_conn *c = s->c;
	int rounds = 0, n;

	do {
		while (c->net_head != c->net_tail) {
			int64_t slot = c->net_head++;

			c->clock++;
			spec_event__raise(s->ev[CTP_SEG_FROM_NET], &slot, 1);
		}
		n = spec_events__poll(s->evs, 1);
		if (n < 0)
			return n;
		if (++rounds > 1000000)
			return -EIO; /* a protocol that never settles */
	} while (n > 0 || c->net_head != c->net_tail || c->timer_armed);
	return 0;
}

int ctp_send(struct ctp_stack *s, const uint8_t *msg, int64_t len)
{
	struct ctp_conn *c = s->c;

	if (len <= 0 || c->msg_off + len > CTP_STREAM)
		return -EINVAL;
	c->msg = msg;
	c->clock++;
	spec_event__raise(s->ev[CTP_MSG_FROM_USER], &len, 1);
	c->msg = NULL;
	s->sent_msgs++;
	return run_until_quiet(s);
}

int ctp_tick(struct ctp_stack *s)
{
	spec_event__raise(s->ev[CTP_CONTROLLER_CLOCK], NULL, 0);
	return run_until_quiet(s);
}
