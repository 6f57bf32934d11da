/* SPDX-License-Identifier: GPL-2.0 */
/* What the event test handlers record through ctx->user. */
#ifndef EVENTS_TRACE_H
#define EVENTS_TRACE_H

#include <stdatomic.h>
#include <stdint.h>

#define TRACE_MAX 8192

struct ev_rec {
	int64_t tag, a0, a1, depth;
};

struct ev_trace {
	_Atomic uint64_t n;
	struct ev_rec rec[TRACE_MAX];
	_Atomic int64_t sum;
};

#endif /* EVENTS_TRACE_H */
