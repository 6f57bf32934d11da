// SPDX-License-Identifier: GPL-2.0
/*
 * CTP's micro-protocols, one handler each, compiled to IR by spec-cc: the
 * event system binds them (ctp_stack.c's table) and may merge them. Every
 * handler records what it did as an effect (id, seq, value) so runs can be
 * compared handler by handler.
 */
#include <string.h>

#include <libspec/events.h>

#include "ctp.h"

enum {
	H_FRAGMENT = 1,
	H_SEQ,
	H_CHECKSUM,
	H_WINDOW,
	H_TDRIVER,
	H_FEC_SEND,
	H_PAU,
	H_NET,
	H_VERIFY,
	H_FEC_RECV,
	H_DELIVER,
	H_RTX_ACK,
	H_RTX_TIMEOUT,
	H_CONTROLLER,
	H_ADAPT_FEC,
	H_ADAPT_WINDOW,
	H_AUDIT,
};

static void effect(struct ctp_conn *c, int64_t h, int64_t seq, int64_t value)
{
	uint64_t x = ((uint64_t)h << 56) ^ ((uint64_t)seq << 20) ^ (uint64_t)value;

	if (c->effects < CTP_LOG)
		c->log[c->effects] = (struct ctp_effect){h, seq, value};
	c->effects++;
	c->effect_hash = (c->effect_hash ^ x) * 0x100000001b3ull;
}

static struct ctp_conn *conn(struct spec_ev_ctx *ctx)
{
	return ctx->user;
}

/* MsgFromUser (len): cut the message into bind[0]-byte fragments. */
void ctp_fragment(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t frag = bind[0], len = args[0], off;

	for (off = 0; off < len; off += frag) {
		int64_t n = len - off < frag ? len - off : frag;

		spec_raise(ctx, "SegFromUser", c->msg_off + off, n);
	}
	c->msg_off += len;
	effect(c, H_FRAGMENT, c->next_seq, len);
}

/* SegFromUser (off, len): number the segment and copy its bytes. */
void ctp_seq(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	struct ctp_seg *s = &c->cur;

	(void)bind;
	s->seq = c->next_seq++;
	s->off = args[0];
	s->len = (int32_t)args[1];
	s->kind = CTP_DATA;
	memcpy(s->data, c->msg + (args[0] - (c->msg_off)), (size_t)s->len);
	effect(c, H_SEQ, s->seq, s->off);
}

void ctp_checksum(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);

	(void)bind;
	(void)args;
	c->cur.csum = ctp_csum(c->cur.data, c->cur.len);
	effect(c, H_CHECKSUM, c->cur.seq, c->cur.csum);
}

/* Keep a copy for retransmission. */
void ctp_window(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t i = c->cur.seq & (CTP_WIN - 1);

	(void)bind;
	(void)args;
	c->win[i] = c->cur;
	c->acked[i] = 0;
	c->inflight++;
	effect(c, H_WINDOW, c->cur.seq, c->inflight);
}

/* The transport driver hands the segment to the network side. */
void ctp_tdriver(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);

	(void)bind;
	(void)args;
	spec_raise(ctx, "Seg2Net", c->cur.seq);
	effect(c, H_TDRIVER, c->cur.seq, 0);
}

/* XOR parity over fec_k data segments, sent as a segment of its own. */
void ctp_fec_send(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	struct ctp_seg *p = &c->parity;
	int i;

	(void)bind;
	(void)args;
	if (!c->fec_k)
		return;
	if (!c->parity_n) {
		memset(p, 0, sizeof(*p));
		p->group = c->cur.seq;
		p->kind = CTP_PARITY;
	}
	for (i = 0; i < CTP_SEG_MAX; i++)
		p->data[i] ^= i < c->cur.len ? c->cur.data[i] : 0;
	p->off ^= c->cur.off;
	p->len ^= c->cur.len;
	if (++c->parity_n < c->fec_k)
		return;
	p->k = (int32_t)c->parity_n;
	p->seq = c->next_seq++;
	p->csum = ctp_csum(p->data, CTP_SEG_MAX);
	c->win[p->seq & (CTP_WIN - 1)] = *p;
	c->acked[p->seq & (CTP_WIN - 1)] = 0;
	c->parity_n = 0;
	effect(c, H_FEC_SEND, p->seq, p->group);
	spec_raise(ctx, "Seg2Net", p->seq);
}

/* Seg2Net (seq): positive acknowledgement bookkeeping, one timer. */
void ctp_pau(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);

	c->sent_at[args[0] & (CTP_WIN - 1)] = c->clock;
	c->tx++;
	c->tx_since_adapt++;
	if (!c->timer_armed) {
		c->timer_armed = 1;
		spec_raise_delayed(ctx, "SegmentTimeout", (uint64_t)bind[0]);
	}
	effect(c, H_PAU, args[0], c->tx);
}

/* The link: drops the transmissions a hash of their number picks. */
void ctp_net(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	uint64_t h = (uint64_t)c->tx * 0x9e3779b97f4a7c15ull;

	(void)bind;
	if (c->drop_mod && (h >> 40) % (uint64_t)c->drop_mod == 0) {
		c->drops++;
		effect(c, H_NET, args[0], -1);
		return;
	}
	c->net[c->net_tail++ & (CTP_NETQ - 1)] = c->win[args[0] & (CTP_WIN - 1)];
	effect(c, H_NET, args[0], c->net_tail - c->net_head);
}

static struct ctp_seg *arrived(struct ctp_conn *c, int64_t slot)
{
	return &c->net[slot & (CTP_NETQ - 1)];
}

/* SegFromNet (slot): drop segments whose checksum does not match. */
void ctp_verify(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	struct ctp_seg *s = arrived(c, args[0]);
	int32_t n = s->kind == CTP_PARITY ? CTP_SEG_MAX : s->len;

	(void)bind;
	if (ctp_csum(s->data, n) != s->csum) {
		c->bad_csum++;
		s->seq = -1;
	}
	effect(c, H_VERIFY, s->seq, s->csum);
}

static int have(struct ctp_conn *c, int64_t seq)
{
	int64_t i = seq & (CTP_WIN - 1);

	return c->have[i] && c->have_seq[i] == seq;
}

static void deliver(struct spec_ev_ctx *ctx, struct ctp_conn *c, const struct ctp_seg *s)
{
	int64_t i = s->seq & (CTP_WIN - 1);

	c->have[i] = 1;
	c->have_seq[i] = s->seq;
	if (s->kind == CTP_DATA) {
		c->rxseg[i] = *s;
		if (s->off >= 0 && s->off + s->len <= CTP_STREAM)
			memcpy(c->rx + s->off, s->data, (size_t)s->len);
		c->delivered += s->len;
	}
	spec_raise(ctx, "SegmentAcked", s->seq);
}

/* A parity segment restores the one data segment its group lacks. */
void ctp_fec_recv(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	struct ctp_seg *p = arrived(c, args[0]), r;
	int64_t q, missing = -1, nmiss = 0;
	int i;

	(void)bind;
	if (p->seq < 0 || p->kind != CTP_PARITY)
		return;
	for (q = p->group; q < p->group + p->k; q++) {
		if (!have(c, q)) {
			missing = q;
			nmiss++;
		}
	}
	if (nmiss != 1)
		return;
	memcpy(&r, p, sizeof(r));
	for (q = p->group; q < p->group + p->k; q++) {
		const struct ctp_seg *s = &c->rxseg[q & (CTP_WIN - 1)];

		if (q == missing)
			continue;
		for (i = 0; i < CTP_SEG_MAX; i++)
			r.data[i] ^= i < s->len ? s->data[i] : 0;
		r.off ^= s->off;
		r.len ^= s->len;
	}
	r.seq = missing;
	r.kind = CTP_DATA;
	c->recovered++;
	effect(c, H_FEC_RECV, missing, r.off);
	deliver(ctx, c, &r);
}

void ctp_deliver(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	struct ctp_seg *s = arrived(c, args[0]);

	(void)bind;
	if (s->seq < 0 || have(c, s->seq))
		return;
	effect(c, H_DELIVER, s->seq, s->len);
	deliver(ctx, c, s);
}

/* SegmentAcked (seq): adaptive retransmission's RTT estimate. */
void ctp_rtx_ack(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t i = args[0] & (CTP_WIN - 1), sample;

	if (c->acked[i])
		return;
	c->acked[i] = 1;
	c->acks++;
	c->inflight--;
	sample = (c->clock - c->sent_at[i]) * 8;
	c->srtt += (sample - c->srtt) / 8;
	c->rto = c->srtt / 4 > bind[0] ? c->srtt / 4 : bind[0];
	while (c->una < c->next_seq && c->acked[c->una & (CTP_WIN - 1)])
		c->una++;
	effect(c, H_RTX_ACK, args[0], c->rto);
}

/* SegmentTimeout (): resend what is still unacknowledged. */
void ctp_rtx_timeout(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t q, end = c->next_seq;

	(void)bind;
	(void)args;
	c->timer_armed = 0;
	for (q = c->una; q < end; q++) {
		if (c->acked[q & (CTP_WIN - 1)])
			continue;
		c->retrans++;
		c->losses_since_adapt++;
		effect(c, H_RTX_TIMEOUT, q, c->retrans);
		spec_raise(ctx, "Seg2Net", q);
	}
}

/* ControllerClock (): the controller measures and raises Adapt. */
void ctp_controller(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t tx = c->tx_since_adapt ? c->tx_since_adapt : 1;
	int64_t loss = c->losses_since_adapt * 1000 / tx;

	(void)bind;
	(void)args;
	c->losses_since_adapt = 0;
	c->tx_since_adapt = 0;
	effect(c, H_CONTROLLER, c->clock, loss);
	spec_raise(ctx, "Adapt", loss);
}

/* Adapt (loss): more parity when losing more than bind[0] or bind[1] per mille. */
void ctp_adapt_fec(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);
	int64_t loss = args[0];

	c->fec_k = loss > bind[1] ? 4 : loss > bind[0] ? 8 : 16;
	effect(c, H_ADAPT_FEC, loss, c->fec_k);
}

void ctp_adapt_window(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ctp_conn *c = conn(ctx);

	if (args[0] > bind[0])
		c->window_max = c->window_max / 2 > 8 ? c->window_max / 2 : 8;
	else if (c->window_max + 8 <= CTP_WIN / 2)
		c->window_max += 8;
	effect(c, H_ADAPT_WINDOW, args[0], c->window_max);
}

/* Stats: counts calls and changes nothing else; the tests bind and unbind
 * it at random to exercise rebinding.
 */
void ctp_stats(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	(void)bind;
	(void)args;
	__atomic_fetch_add(&conn(ctx)->stats_calls, 1, __ATOMIC_RELAXED);
}

/* Audit: records that it ran (tag bind[0], the raise's first argument) and
 * for which event; the tests bind and unbind it to check that every raise
 * after a rebinding, merged and inlined ones included, sees the change.
 */
void ctp_audit(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	effect(conn(ctx), H_AUDIT, bind[0] * 64 + ctx->event, args[0]);
}
