/* SPDX-License-Identifier: GPL-2.0 */
/* Raising events: the generic dispatch and the entry into merged code. */
#ifndef LIBSPEC_EVENT_DISPATCH_H
#define LIBSPEC_EVENT_DISPATCH_H

#include "events/event_registry.h"

/*
 * Run every handler of @ev (merged code when valid) in the calling thread.
 * @parent is the raising handler's context, NULL for the service; @kind says
 * how it was raised (for the graph).
 */
void ev_dispatch(struct spec_event *ev, const int64_t *args, const struct spec_ev_ctx *parent,
		 enum spec_ev_edge_kind kind);

/* Generic raise from merged code whose guard on @ev failed (JIT symbol
 * __spec_ev_raise_ev).
 */
void ev_raise_from(struct spec_ev_ctx *parent, struct spec_event *ev, const int64_t *args);
/* The same with the arguments in registers (__spec_ev_raise_ev4): what a
 * subsumed raise site falls back to.
 */
void ev_raise_from4(struct spec_ev_ctx *parent, struct spec_event *ev, int64_t a0, int64_t a1,
		    int64_t a2, int64_t a3);

/* Copy @nr service arguments into a full record; -EINVAL if too many. */
int ev_args_of(int64_t out[SPEC_EV_MAX_ARGS], const int64_t *args, size_t nr);

/* The event a handler raises by @name, or NULL (an error: counted, warned,
 * in last_error).
 */
struct spec_event *ev_by_name(struct spec_ev_ctx *ctx, const char *name);

#endif /* LIBSPEC_EVENT_DISPATCH_H */
