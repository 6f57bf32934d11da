/* SPDX-License-Identifier: GPL-2.0 */
/* Chain subsumption in merged modules (LLVM side). */
#ifndef LIBSPEC_JIT_EVENT_CHAIN_H
#define LIBSPEC_JIT_EVENT_CHAIN_H

#include "jit/jit_event.h"
#include "jit/jit_int.h"

/* Per merged event (indexed as the request), what a raise site may call. */
struct jit_chain_fns {
	LLVMTypeRef s_ty;	  /* void (ctx, a0, a1, a2, a3) */
	LLVMTypeRef rec_ty;	  /* void (ctx, const int64_t *args) */
	const LLVMValueRef *inl;  /* guarded body, always inlined */
	const LLVMValueRef *call; /* guarded call of the entry (cycles) */
	const LLVMValueRef *rec;  /* JIT_EV_MUT_MARSHAL's record-taking form */
};

struct jit_chain_sites {
	size_t inlined; /* sites whose raised handlers are inlined */
	size_t called;	/* sites in a raise cycle: guarded direct calls */
};

/* Handler @h of the runtime as cloned into the module of build @id, or NULL. */
LLVMValueRef jit_event_handler_fn(struct jit *j, LLVMModuleRef m, unsigned int id, uint32_t h);

/*
 * @into[e]: index (in @req) of a merged event whose handlers raise event e,
 * directly or through functions they call, or UINT32_MAX. @raise is the
 * module's __spec_ev_raise (NULL: nothing raises); @handlers the bound
 * handlers' functions, event after event, binding after binding.
 */
void jit_chain_raisers(const struct jit_ev_req *req, LLVMValueRef raise,
		       const LLVMValueRef *handlers, uint32_t *into);

/*
 * Replace every raise of a merged event in @m by a call of its guarded
 * body (@fns), counting the sites in @out. Returns 0 or -ENOMEM.
 */
int jit_chain_subsume(LLVMModuleRef m, LLVMBuilderRef b, const struct jit_ev_req *req,
		      LLVMValueRef raise, const LLVMValueRef *handlers,
		      const struct jit_chain_fns *fns, struct jit_chain_sites *out);

#endif /* LIBSPEC_JIT_EVENT_CHAIN_H */
