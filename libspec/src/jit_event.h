/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merged event handlers (LLVM side): one function per event that runs its
 * bound handlers in order with the binding arguments as constants and the
 * raise arguments in registers, and synchronous raises of merged events
 * inside them turned into guarded direct calls.
 */
#ifndef LIBSPEC_JIT_EVENT_H
#define LIBSPEC_JIT_EVENT_H

#include "jit.h"
#include "libspec/events.h"

struct jit_ev_binding {
	uint32_t handler; /* index in the handler table */
	int64_t args[SPEC_EV_MAX_ARGS];
};

struct jit_ev_event {
	const char *name;
	uint32_t idx;		  /* ctx->event of its dispatches */
	uint64_t version;	  /* bindings version the code is built for */
	const void *version_word; /* where guards read the current version */
	const void *event;	  /* struct spec_event *, for the generic path */
	const struct jit_ev_binding *b;
	size_t n;
};

struct jit_ev_req {
	unsigned int id; /* unique among the runtime's variants */
	const char *pipeline;
	const struct jit_ev_event *events;
	size_t n;
	bool subsume; /* inline synchronous raises of merged events */
};

/*
 * Build and link the merged code: @addrs[n] receives each event's entry
 * (void (ctx, a0, a1, a2, a3)), @subsumed_into[n] the index (in @req) of an
 * event whose handlers raise it through an inlined site, or UINT32_MAX;
 * @nr_sites the number of sites inlined.
 */
int jit_event_build(struct jit *j, const struct jit_ev_req *req, struct jit_code **code,
		    uint64_t *addrs, uint32_t *subsumed_into, size_t *nr_sites, char *err,
		    size_t errsz);

/* 0 if handler @h has the type spec_ev_handler_fn, else -EINVAL and why. */
int jit_event_check_handler(struct jit *j, size_t h, char *err, size_t errsz);

#endif /* LIBSPEC_JIT_EVENT_H */
