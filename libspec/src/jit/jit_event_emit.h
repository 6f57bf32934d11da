/* SPDX-License-Identifier: GPL-2.0 */
/* Emitting a merged module's per-event functions (jit_event_emit.c). */
#ifndef LIBSPEC_JIT_EVENT_EMIT_H
#define LIBSPEC_JIT_EVENT_EMIT_H

#include "jit/jit_event.h"
#include "jit/jit_event_chain.h"
#include "jit/jit_int.h"

struct gen {
	struct jit *j;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	const struct jit_ev_req *req;
	LLVMTypeRef i8, i32, i64, ptr, vd, ctx_ty, m_ty, r_ty, h_ty, raise_ty, raise4_ty;
	LLVMValueRef *mfn, *ifn, *sfn, *cfn, *rfn; /* [n] each */
	LLVMValueRef *hfn;			   /* bound handlers, event by event */
	LLVMValueRef fallback, fallback4;	   /* __spec_ev_raise_ev, ..._ev4 */
};

/* @p + @off bytes (no GEP for 0). */
LLVMValueRef jit_ev_at(struct gen *g, LLVMValueRef p, unsigned long long off);
/* Always inlined in this module (noinline under JIT_EV_MUT_NO_INLINE). */
void jit_ev_force_inline(struct gen *g, LLVMValueRef fn);
/* g->hfn: the bound handlers' functions in the clone, in request order. */
int jit_ev_find_handlers(struct gen *g, char *err, size_t errsz);
/* E.i of event @e, whose handlers start at g->hfn[@h]. */
void jit_ev_emit_body(struct gen *g, size_t e, size_t h);
/* E.m of event @e. */
void jit_ev_emit_entry(struct gen *g, size_t e);
/* E.s or E.c (@fn) of event @e, running @body. */
void jit_ev_emit_guarded(struct gen *g, size_t e, LLVMValueRef fn, LLVMValueRef body);
/* E.r of event @e (JIT_EV_MUT_MARSHAL). */
void jit_ev_emit_marshalled(struct gen *g, size_t e);

#endif /* LIBSPEC_JIT_EVENT_EMIT_H */
