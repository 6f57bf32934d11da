/* SPDX-License-Identifier: GPL-2.0 */
/* spec_gen() points: the generator's view of the code being built. */
#ifndef LIBSPEC_JIT_GEN_H
#define LIBSPEC_JIT_GEN_H

#include "jit/jit_int.h"
#include "libspec/gen.h"

struct spec_gen {
	struct jit *j;
	LLVMBuilderRef b;
	LLVMValueRef fn; /* function holding the point */
	const struct spec_point *p;
	const struct jit_setting *s;
	const void *data;
	LLVMValueRef inputs[SPEC_GEN_MAX_INPUTS];
	size_t nr_inputs;
	LLVMBasicBlockRef join; /* where every answer meets */
	LLVMValueRef *vals;	/* answers (i64) and the blocks they come from */
	LLVMBasicBlockRef *from;
	size_t nr_vals, cap_vals;
	bool has_default;
	int64_t default_value;
	int err; /* first failure of a helper; fails the compile */
};

/*
 * Replace spec_gen marker @call (in @fn) as setting @s says: the generic
 * call fn(data, inputs), or the generator's code behind an identity check
 * of the data; sampling records the first input with the answer.
 */
int jit_gen_apply(struct jit *j, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef fn,
		  struct spec_point *p, const struct jit_setting *s, char *err, size_t errsz);

/* The input @i of @g as an integer of @bits (zero-extended), or NULL. */
LLVMValueRef jit_gen_input_as(struct spec_gen *g, size_t i, unsigned int *bits);
/* Constant of type @ty from a 128-bit key. */
LLVMValueRef jit_gen_const(LLVMTypeRef ty, struct spec_u128 k);
/* Answer @v / constant @out from the builder's block, terminating it; the
 * builder stays there (unlike spec_gen__yield(), no new block).
 */
int jit_gen_yield_here(struct spec_gen *g, LLVMValueRef v);
int jit_gen_yield_const(struct spec_gen *g, int64_t out);

#endif /* LIBSPEC_JIT_GEN_H */
