/* SPDX-License-Identifier: GPL-2.0 */
/* Chain subsumption in merged modules (LLVM side). */
#ifndef LIBSPEC_JIT_EVENT_CHAIN_H
#define LIBSPEC_JIT_EVENT_CHAIN_H

#include "jit_event.h"
#include "jit_int.h"

/* Handler @h of the runtime as cloned into the module of build @id, or NULL. */
LLVMValueRef jit_event_handler_fn(struct jit *j, LLVMModuleRef m, unsigned int id, uint32_t h);

/*
 * @into[e]: index (in @req) of a merged event whose handlers raise event e,
 * directly or through functions they call, or UINT32_MAX. @raise is the
 * module's __spec_ev_raise (NULL: nothing raises).
 */
void jit_chain_raisers(struct jit *j, LLVMModuleRef m, const struct jit_ev_req *req,
		       LLVMValueRef raise, uint32_t *into);

/* Replace every raise of a merged event e in @m by a call of @sfn[e] (type
 * @s_ty); returns the number of sites replaced.
 */
size_t jit_chain_subsume(LLVMModuleRef m, LLVMBuilderRef b, const struct jit_ev_req *req,
			 LLVMValueRef raise, const LLVMValueRef *sfn, LLVMTypeRef s_ty);

#endif /* LIBSPEC_JIT_EVENT_CHAIN_H */
