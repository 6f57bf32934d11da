/* SPDX-License-Identifier: GPL-2.0 */
/* The specializer: one variant from a clone of the handler IR. */
#ifndef LIBSPEC_JIT_SPEC_H
#define LIBSPEC_JIT_SPEC_H

#include "jit_int.h"

/* Apply @req to module @m (a clone of the master) and rename its symbols. */
int jit_spec_apply(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req, char *err,
		   size_t errsz);

#endif /* LIBSPEC_JIT_SPEC_H */
