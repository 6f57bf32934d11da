/* SPDX-License-Identifier: GPL-2.0 */
/* CTP's chains fused by hand (bench_fused.c): the limit merged code aims at. */
#ifndef BENCH_FUSED_H
#define BENCH_FUSED_H

#include <libspec/events.h>

#include "ctp_stack.h"

typedef void (*bench_fused_fn)(struct spec_ev_ctx *ctx, const int64_t *args);

/* The fused chain of @ev (bindings as ctp_stack.c makes them, frag 96, FEC on). */
bench_fused_fn bench_fused(enum ctp_event ev);
/* Four ctp_stats calls: the bench's Stats4 event fused. */
void bench_fused_stats4(struct spec_ev_ctx *ctx, const int64_t *args);

#endif /* BENCH_FUSED_H */
