// SPDX-License-Identifier: GPL-2.0
/*
 * CTP's event chains fused by hand, as a programmer would write them
 * without an event system: ctp_handlers.c compiled natively into this file
 * (clang at O3 for this CPU, as the JIT builds merged code), each event a function
 * calling its handlers directly in binding order with the binding
 * constants written in, and a synchronous raise inside a handler a direct
 * call of the raised event's function (the name compare folds at compile
 * time). Raises of events not fused here (asynchronous and delayed ones)
 * still go to the library through the context. This is the limit for
 * merged + subsumed code: what is left between them is dispatch.
 */
#include <string.h>

#include <libspec/events.h>

static inline void fused_raise(struct spec_ev_ctx *ctx, const char *ev, const int64_t *args);

#undef spec_raise
#define spec_raise(ctx, event, ...) \
	fused_raise((ctx), (event), (const int64_t[SPEC_EV_MAX_ARGS]){__VA_ARGS__})

#include "ctp_handlers.c"

#include "bench_fused.h"

/* ctp_stack.c's binding table, with the bench's options. */
static const int64_t none[SPEC_EV_MAX_ARGS],
	frag[SPEC_EV_MAX_ARGS] = {96}, pau[SPEC_EV_MAX_ARGS] = {1}, rto[SPEC_EV_MAX_ARGS] = {2},
	afec[SPEC_EV_MAX_ARGS] = {20, 100}, awin[SPEC_EV_MAX_ARGS] = {50};

static void seg2net(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_pau(ctx, pau, args);
	ctp_net(ctx, none, args);
}

static void seg_from_user(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_seq(ctx, none, args);
	ctp_checksum(ctx, none, args);
	ctp_window(ctx, none, args);
	ctp_tdriver(ctx, none, args);
	ctp_fec_send(ctx, none, args);
}

static void msg_from_user(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_fragment(ctx, frag, args);
}

static void segment_acked(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_rtx_ack(ctx, rto, args);
}

static void seg_from_net(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_verify(ctx, none, args);
	ctp_fec_recv(ctx, none, args);
	ctp_deliver(ctx, none, args);
}

static void segment_timeout(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_rtx_timeout(ctx, none, args);
}

static void adapt(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_adapt_fec(ctx, afec, args);
	ctp_adapt_window(ctx, awin, args);
}

static void controller_clock(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_controller(ctx, none, args);
}

static inline __attribute__((always_inline)) void fused_raise(struct spec_ev_ctx *ctx,
							      const char *ev, const int64_t *args)
{
	if (!strcmp(ev, "SegFromUser"))
		seg_from_user(ctx, args);
	else if (!strcmp(ev, "Seg2Net"))
		seg2net(ctx, args);
	else if (!strcmp(ev, "SegmentAcked"))
		segment_acked(ctx, args);
	else if (!strcmp(ev, "Adapt"))
		adapt(ctx, args);
	else
		__spec_ev_raise(ctx, ev, args);
}

bench_fused_fn bench_fused(enum ctp_event ev)
{
	static const bench_fused_fn fn[CTP_NR_EVENTS] = {
		[CTP_MSG_FROM_USER] = msg_from_user,
		[CTP_SEG_FROM_USER] = seg_from_user,
		[CTP_SEG2NET] = seg2net,
		[CTP_SEG_FROM_NET] = seg_from_net,
		[CTP_SEGMENT_ACKED] = segment_acked,
		[CTP_SEGMENT_TIMEOUT] = segment_timeout,
		[CTP_CONTROLLER_CLOCK] = controller_clock,
		[CTP_ADAPT] = adapt,
	};

	return fn[ev];
}

void bench_fused_stats4(struct spec_ev_ctx *ctx, const int64_t *args)
{
	ctp_stats(ctx, none, args);
	ctp_stats(ctx, none, args);
	ctp_stats(ctx, none, args);
	ctp_stats(ctx, none, args);
}
