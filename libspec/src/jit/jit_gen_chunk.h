/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A leaf of spec_gen__ranges() on large sets: a few sorted ranges found by
 * counting compares and read from constant arrays, one answer per leaf;
 * and compares of 128-bit keys narrowed to one 64-bit half where the
 * bounds allow.
 */
#ifndef LIBSPEC_JIT_GEN_CHUNK_H
#define LIBSPEC_JIT_GEN_CHUNK_H

#include "jit/jit_gen.h"

/* Above this many ranges, the tree ends in chunks of JIT_GEN_CHUNK. */
#define JIT_GEN_CHUNK_ABOVE 64
#define JIT_GEN_CHUNK 32

/* A key and, for 128-bit keys, its halves (built once per stage). */
struct jit_gen_key {
	LLVMValueRef x, lo, hi;
	unsigned int bits;
};

/* @k's halves emitted at the builder (the stage's first block). */
void jit_gen_key_init(struct spec_gen *g, struct jit_gen_key *k, LLVMValueRef x, unsigned int bits);

/*
 * x @op @c (LLVMIntULT, LLVMIntUGE or LLVMIntULE) for x known to lie in
 * [klo, khi], and c inside that window: a 64-bit compare of one half of a
 * 128-bit key when that decides it (c's low half 0 for < and >=, all ones
 * for <=; or x's high half known), else the full compare.
 */
LLVMValueRef jit_gen_cmp(struct spec_gen *g, const struct jit_gen_key *k, LLVMIntPredicate op,
			 struct spec_u128 c, struct spec_u128 klo, struct spec_u128 khi);

/*
 * Answer x from sorted, disjoint @r[0..n) (n <= JIT_GEN_CHUNK), x known
 * to lie in [klo, khi]; x in no range goes to @miss.
 */
void jit_gen_chunk(struct spec_gen *g, const struct jit_gen_key *k, const struct spec_gen_range *r,
		   size_t n, struct spec_u128 klo, struct spec_u128 khi, LLVMBasicBlockRef miss);

#endif /* LIBSPEC_JIT_GEN_CHUNK_H */
