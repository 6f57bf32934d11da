/* SPDX-License-Identifier: GPL-2.0 */
/* Inline access from JIT code to the calling thread's record (x86-64). */
#ifndef LIBSPEC_JIT_TLS_H
#define LIBSPEC_JIT_TLS_H

#include "jit/jit_int.h"

/*
 * Emit the fast path to this thread's record of @dom at the end of the
 * builder's block: when the thread-local cache holds another domain, branch
 * to @slow. Returns the record pointer; the builder is left in the block
 * where it is valid. Only when j->tls_ok. @rebindable: the domain's number
 * is loaded from @dom rather than compiled in, so that the disk cache can
 * serve the code to another domain (jit_cache.c rebinds the address).
 */
LLVMValueRef jit_tls_rec(struct jit *j, LLVMBuilderRef b, LLVMValueRef fn,
			 const struct epoch_domain *dom, bool rebindable, LLVMBasicBlockRef slow);

/* Pointer @off bytes into @base. */
LLVMValueRef jit_tls_field(struct jit *j, LLVMBuilderRef b, LLVMValueRef base, size_t off);

/* Give @br (a two-way branch) a strong bias to its first successor. */
void jit_mark_likely(struct jit *j, LLVMValueRef br);

#endif /* LIBSPEC_JIT_TLS_H */
