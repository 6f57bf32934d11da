/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Merged event handlers (LLVM side): one function per event that runs its
 * bound handlers in order with the binding arguments as constants and the
 * raise arguments in registers, and synchronous raises of merged events
 * inside them turned into guarded direct calls.
 */
#ifndef LIBSPEC_JIT_EVENT_H
#define LIBSPEC_JIT_EVENT_H

#include "jit/jit.h"
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

/*
 * Test-only mutations of the generated code, so the IR-level tests can show
 * they notice each part missing (never set outside tests).
 */
enum {
	JIT_EV_MUT_NO_REWRITE = 1 << 0, /* sites counted, left as raises */
	JIT_EV_MUT_NO_GUARD = 1 << 1,	/* subsumed bodies run unguarded */
	JIT_EV_MUT_MARSHAL = 1 << 2,	/* record and context frame built */
	JIT_EV_MUT_NO_INLINE = 1 << 3,	/* guarded bodies called, not inlined */
};

struct jit_ev_req {
	unsigned int id; /* unique among the runtime's variants */
	const char *pipeline;
	const struct jit_ev_event *events;
	size_t n;
	bool subsume;	     /* inline synchronous raises of merged events */
	bool keep_ir;	     /* return the optimized module's text */
	unsigned int mutate; /* JIT_EV_MUT_*, tests only */
};

struct jit_ev_out {
	uint64_t *addrs;	 /* [n]: entries, void (ctx, a0, a1, a2, a3) */
	uint32_t *subsumed_into; /* [n]: index of an event raising it inline, or UINT32_MAX */
	size_t inlined;		 /* raise sites whose handlers were inlined */
	size_t called;		 /* sites in a raise cycle, guarded calls */
	char *ir;		 /* with keep_ir: the optimized module (free()) */
};

/* Build and link the merged code for @req, filling @out. */
int jit_event_build(struct jit *j, const struct jit_ev_req *req, struct jit_code **code,
		    struct jit_ev_out *out, char *err, size_t errsz);

/* Whether any function of the IR has the event handler type. */
bool jit_event_any_handler(struct jit *j);

/* 0 if handler @h has the type spec_ev_handler_fn, else -EINVAL and why. */
int jit_event_check_handler(struct jit *j, size_t h, char *err, size_t errsz);

#endif /* LIBSPEC_JIT_EVENT_H */
