/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a variant recompiles: only the functions whose points the
 * configuration sets (or samples), and the functions that reach them.
 * Everything else is the generic variant's code: kept in the module as
 * available_externally <name>.v0 (callable, inlinable, never compiled
 * again) or dropped when nothing compiled refers to it.
 */
#ifndef LIBSPEC_JIT_SCOPE_H
#define LIBSPEC_JIT_SCOPE_H

#include "jit/jit_int.h"

struct jit_scope {
	LLVMValueRef *fns; /* the module's defined functions */
	bool *dirty;	   /* [i]: recompiled in this variant */
	size_t n;
};

/* Before the markers are replaced: which functions @req changes. */
int jit_scope_compute(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		      struct jit_scope *sc);
/* Whether function @fn (by identity) is recompiled. */
bool jit_scope_dirty(const struct jit_scope *sc, LLVMValueRef fn);
void jit_scope_free(struct jit_scope *sc);

#endif /* LIBSPEC_JIT_SCOPE_H */
