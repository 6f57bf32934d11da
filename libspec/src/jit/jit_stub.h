/* SPDX-License-Identifier: GPL-2.0 */
/* Entry stub modules: the stable addresses handed to the service. */
#ifndef LIBSPEC_JIT_STUB_H
#define LIBSPEC_JIT_STUB_H

#include "jit/jit_int.h"

/* Module holding the entry stub of handler @h; its name goes to @name. */
int jit_stub_module(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		    LLVMModuleRef *out, char *name, size_t namesz);

/* An empty module with the handler IR's target and data layout. */
LLVMModuleRef jit_stub_new_module(struct jit *j, const char *name);
/* Declare @name in @m with the type, calling convention and attributes of
 * handler function @f, for the host CPU.
 */
LLVMValueRef jit_stub_like(struct jit *j, LLVMModuleRef m, LLVMValueRef f, const char *name);

#endif /* LIBSPEC_JIT_STUB_H */
