// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers for the event tests (test IR). Each records into the
 * struct ev_trace behind ctx->user, so the tests see order and arguments;
 * bind[0] is the tag of a binding.
 */
#include <libspec/events.h>

#include "events_trace.h"

/* In the test program: lets a handler rebind events in the middle of a raise. */
extern void ev_test_hook(int64_t what);

static void rec(struct spec_ev_ctx *ctx, int64_t tag, int64_t a0, int64_t a1)
{
	struct ev_trace *t = ctx->user;
	uint64_t i = atomic_fetch_add_explicit(&t->n, 1, memory_order_relaxed);

	if (i < TRACE_MAX)
		t->rec[i] = (struct ev_rec){tag, a0, a1, ctx->depth};
}

void ev_rec(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
}

/* sum += bind[0] * args[0] + bind[1]: many threads, no trace. */
void ev_add(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ev_trace *t = ctx->user;

	atomic_fetch_add_explicit(&t->sum, bind[0] * args[0] + bind[1], memory_order_relaxed);
}

/* A raise in a helper, not in the handler itself. */
static void raise_b(struct spec_ev_ctx *ctx, int64_t a0, int64_t a1)
{
	spec_raise(ctx, "B", a0, a1);
}

/* Records, then raises B synchronously with args[0] - 1 while positive. */
void ev_to_b(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	if (args[0] > 0)
		raise_b(ctx, args[0] - 1, args[1] + bind[1]);
	rec(ctx, bind[0] + 1000, args[0], args[1]);
}

/* Raises C synchronously, then A (recursion through the chain) while
 * args[0] > 1.
 */
void ev_to_c(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	spec_raise(ctx, "C", args[0], args[1] * 2);
	if (args[0] > 1)
		spec_raise(ctx, "A", args[0] - 2, args[1]);
}

void ev_async_b(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	spec_raise_async(ctx, "B", args[0] + 1, args[1]);
}

void ev_delayed_b(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	spec_raise_delayed(ctx, "B", (uint64_t)bind[1], args[0] + 2);
}

/* Calls the test's hook (which rebinds) and records around it. */
void ev_rebind(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	ev_test_hook(bind[1]);
	spec_raise(ctx, "B", args[0], 0);
}

/* Raises an event nobody created. */
void ev_to_nowhere(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	spec_raise(ctx, "NoSuchEvent", args[0]);
	rec(ctx, bind[0], args[0], args[1]);
}

/* Not a handler: wrong type, bind must refuse it. */
long ev_not_a_handler(long x)
{
	return x + 1;
}

/* The IR tests' chain IrX -> IrY -> IrZ: sum += bind[0] * args[0], then the
 * raise with arguments the merged code must carry in registers.
 */
void ev_fwd_y(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ev_trace *t = ctx->user;

	atomic_fetch_add_explicit(&t->sum, bind[0] * args[0], memory_order_relaxed);
	spec_raise(ctx, "IrY", args[0] + bind[1], args[1] ^ (int64_t)ctx->depth);
}

void ev_fwd_z(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	struct ev_trace *t = ctx->user;

	atomic_fetch_add_explicit(&t->sum, bind[0] * args[1], memory_order_relaxed);
	spec_raise(ctx, "IrZ", args[0] * bind[1], args[1] + (int64_t)ctx->event);
}

/* Bound to several events at once; raises one of them (S3) while args[0]
 * lasts: a cycle through a single shared function.
 */
void ev_shared_to_s3(struct spec_ev_ctx *ctx, const int64_t *bind, const int64_t *args)
{
	rec(ctx, bind[0], args[0], args[1]);
	if (args[0] > 0)
		spec_raise(ctx, "S3", args[0] - 1, args[1] + bind[0]);
}
