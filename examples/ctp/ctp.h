/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CTP, a configurable transport protocol in the style of the paper's: the
 * state its micro-protocols (handlers in ctp_handlers.c, compiled to IR)
 * and the fixed code (ctp_stack.c) share through ctx->user.
 *
 * Events (arguments):
 *   MsgFromUser (len)            the user hands over conn->msg[0..len)
 *   SegFromUser (off, len)       one fragment of it
 *   Seg2Net (seq)                send window segment seq (data or parity)
 *   SegFromNet (slot)            net->q[slot] arrived at the receiver
 *   SegmentAcked (seq)           the receiver has seq
 *   SegmentTimeout ()            the retransmission timer fired
 *   ControllerClock ()           the controller's period
 *   Adapt (loss_permille)        retune from the recent loss rate
 */
#ifndef CTP_H
#define CTP_H

#include <stdint.h>

#define CTP_SEG_MAX 256	     /* payload bytes per segment */
#define CTP_WIN 1024	     /* send window (segments), a power of two */
#define CTP_NETQ 4096	     /* in-flight segments on the link */
#define CTP_LOG 4096	     /* effects kept verbatim (all are hashed) */
#define CTP_STREAM (1 << 20) /* receive buffer bytes */

enum ctp_kind { CTP_DATA = 0, CTP_PARITY = 1 };

struct ctp_seg {
	int64_t seq, off;  /* PARITY: off = XOR of the group's offsets */
	int32_t len, kind; /* PARITY: len = XOR of the group's lengths */
	int64_t group;	   /* PARITY: first seq of the group; k in @len2 */
	int32_t k, pad;
	uint32_t csum, pad2;
	uint8_t data[CTP_SEG_MAX];
};

struct ctp_effect {
	int64_t handler, seq, value;
};

struct ctp_conn {
	/* sender */
	const uint8_t *msg; /* the message being sent, stream offset msg_off */
	int64_t msg_off;
	int64_t next_seq;
	struct ctp_seg win[CTP_WIN]; /* by seq % CTP_WIN */
	uint8_t acked[CTP_WIN];
	int64_t sent_at[CTP_WIN];
	struct ctp_seg cur; /* segment being built by SegFromUser's handlers */
	int64_t fec_k;	    /* data segments per parity segment (0: no FEC) */
	struct ctp_seg parity;
	int64_t parity_n;
	int64_t una;	     /* oldest unacknowledged seq */
	int64_t timer_armed; /* one retransmission timer per connection */
	int64_t srtt, rto, clock;
	int64_t inflight, window_max;
	int64_t tx, drops, retrans, recovered, acks, losses_since_adapt, tx_since_adapt;
	/* the link: drop_mod > 0 drops transmissions the hash picks */
	struct ctp_seg net[CTP_NETQ];
	int64_t net_head, net_tail, drop_mod;
	/* receiver */
	uint8_t *rx; /* CTP_STREAM bytes */
	uint8_t have[CTP_WIN];
	int64_t have_seq[CTP_WIN];
	struct ctp_seg rxseg[CTP_WIN]; /* received data segments, for FEC */
	int64_t delivered, bad_csum;
	/* what the handlers did, in order */
	uint64_t effects, effect_hash;
	struct ctp_effect log[CTP_LOG];
	/* the neutral Stats micro-protocol (bound and unbound at random) */
	int64_t stats_calls;
};

/* Checksum of a segment's payload (Fletcher-32 style). */
static inline uint32_t ctp_csum(const uint8_t *p, int32_t len)
{
	uint32_t a = 0xffff, b = 0xffff;
	int32_t i;

	for (i = 0; i < len; i++) {
		a = (a + p[i]) % 65535;
		b = (b + a) % 65535;
	}
	return b << 16 | a;
}

#endif /* CTP_H */
