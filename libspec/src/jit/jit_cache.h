/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Variants through the on-disk code cache (code_cache.h). A variant's key
 * is its specialized IR before optimization - every configuration value,
 * generator output and data-derived constant is in it - with the process
 * addresses it embeds taken out into a table the code loads them from,
 * plus the pipeline, the code generator, target, CPU, features, LLVM and
 * libspec versions and the handler IR's digest. Equal keys compile to
 * equal objects, so a hit is the code a compile would produce, rebound to
 * this process's addresses.
 */
#ifndef LIBSPEC_JIT_CACHE_H
#define LIBSPEC_JIT_CACHE_H

#include "jit/jit_int.h"

/* jit_cache_build() did nothing: compile @m the ordinary way. */
#define JIT_CACHE_PASS 1

/*
 * Build the variant of @req from its specialized, verified module @m:
 * from the cache, else compiled and stored. Returns 0 (code and addrs set)
 * or -errno with @m consumed, or JIT_CACHE_PASS with @m untouched.
 */
int jit_cache_build(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req,
		    const bool *dirty, struct jit_code **code, uint64_t *addrs,
		    struct jit_phases *ph, char *err, size_t errsz);

/*
 * The key parts every variant of @j shares (j->cache_key): versions and
 * builds of LLVM and libspec, target, CPU, features, the IR's digest.
 * 0 or -errno with a message.
 */
int jit_cache_key(struct jit *j, char *err, size_t errsz);

#endif /* LIBSPEC_JIT_CACHE_H */
