/* SPDX-License-Identifier: GPL-2.0 */
/* The specializer: one variant from a clone of the handler IR. */
#ifndef LIBSPEC_JIT_SPEC_H
#define LIBSPEC_JIT_SPEC_H

#include "jit/jit_int.h"

/*
 * Apply @req to module @m (a clone of the master) and rename its symbols;
 * @handler_dirty[nr_handlers] says which handlers this variant compiles
 * (the others are the generic variant's <name>.v0).
 */
int jit_spec_apply(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		   bool *handler_dirty, char *err, size_t errsz);

/* What a sample records: a value (hi:lo for wide ones) and, for spec_gen
 * points, the answer (out); hi and out may be NULL, all are i64.
 */
struct jit_sample_vals {
	LLVMValueRef lo, hi, out;
};

/*
 * Sample @v every @every calls of point @p in function @fn, before @at; the
 * builder is left before @at.
 */
void jit_emit_sample(struct jit *j, LLVMBuilderRef b, LLVMValueRef at, LLVMValueRef fn,
		     struct spec_point *p, const struct jit_sample_vals *v, uint32_t every);

#endif /* LIBSPEC_JIT_SPEC_H */
