/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A leaf of spec_gen__ranges() on large sets: a few sorted ranges found by
 * counting compares and read from constant arrays, one answer per leaf.
 */
#ifndef LIBSPEC_JIT_GEN_CHUNK_H
#define LIBSPEC_JIT_GEN_CHUNK_H

#include "jit_gen.h"

/* Above this many ranges, the tree ends in chunks of JIT_GEN_CHUNK. */
#define JIT_GEN_CHUNK_ABOVE 64
#define JIT_GEN_CHUNK 32

/*
 * Answer x from sorted, disjoint @r[0..n) (n <= JIT_GEN_CHUNK), known to
 * lie at or above @klo; x in no range goes to @miss.
 */
void jit_gen_chunk(struct spec_gen *g, LLVMValueRef x, const struct spec_gen_range *r, size_t n,
		   struct spec_u128 klo, LLVMBasicBlockRef miss);

#endif /* LIBSPEC_JIT_GEN_CHUNK_H */
