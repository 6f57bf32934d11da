// SPDX-License-Identifier: GPL-2.0
/*
 * Why chunks: a tree with one leaf per range gives the join block one
 * predecessor (and its phi one entry) per range, and LLVM's code generator
 * (CodeGenPrepare, branch folding, AVX-512 domain reassignment) grows
 * faster than linearly in that: 2,000 LPM intervals took 1.3-3.5 s. A leaf
 * that picks among eight ranges by counting compares (no branches) and
 * loads the answer keeps that join eight times smaller.
 */
#include "jit_gen_chunk.h"

static LLVMValueRef const_array(struct spec_gen *g, LLVMTypeRef ty, LLVMValueRef *vals, size_t n,
				const char *name)
{
	LLVMTypeRef aty = LLVMArrayType(ty, (unsigned int)n);
	LLVMValueRef arr = LLVMAddGlobal(LLVMGetGlobalParent(g->fn), aty, name);

	LLVMSetInitializer(arr, LLVMConstArray(ty, vals, (unsigned int)n));
	LLVMSetGlobalConstant(arr, 1);
	LLVMSetLinkage(arr, LLVMPrivateLinkage);
	LLVMSetUnnamedAddress(arr, LLVMGlobalUnnamedAddr);
	return arr;
}

static LLVMValueRef load_at(LLVMBuilderRef b, LLVMTypeRef ty, LLVMValueRef arr, size_t n,
			    LLVMValueRef idx)
{
	LLVMTypeRef i64 = LLVMTypeOf(idx);
	LLVMValueRef p =
		LLVMBuildInBoundsGEP2(b, LLVMArrayType(ty, (unsigned int)n), arr,
				      (LLVMValueRef[]){LLVMConstInt(i64, 0, 0), idx}, 2, "");

	return LLVMBuildLoad2(b, ty, p, "");
}

void jit_gen_chunk(struct spec_gen *g, LLVMValueRef x, const struct spec_gen_range *r, size_t n,
		   struct spec_u128 klo, LLVMBasicBlockRef miss)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef ty = LLVMTypeOf(x), i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(ty));
	LLVMValueRef his[JIT_GEN_CHUNK], outs[JIT_GEN_CHUNK], idx, hi_arr, out_arr, c;
	LLVMBasicBlockRef hit;
	size_t i;

	for (i = 0; i < n; i++) {
		his[i] = jit_gen_const(ty, r[i].hi);
		outs[i] = LLVMConstInt(i64, (unsigned long long)r[i].out, 1);
	}
	hi_arr = const_array(g, ty, his, n, "spec.gen.range.hi");
	out_arr = const_array(g, i64, outs, n, "spec.gen.range.out");
	/* idx = the last range starting at or below x */
	idx = LLVMConstInt(i64, 0, 0);
	for (i = 1; i < n; i++) {
		c = LLVMBuildICmp(b, LLVMIntUGE, x, jit_gen_const(ty, r[i].lo), "");
		idx = LLVMBuildAdd(b, idx, LLVMBuildZExt(b, c, i64, ""), "");
	}
	c = LLVMBuildICmp(b, LLVMIntULE, x, load_at(b, ty, hi_arr, n, idx), "");
	if (r[0].lo.hi != klo.hi || r[0].lo.lo != klo.lo)
		c = LLVMBuildAnd(
			b, c, LLVMBuildICmp(b, LLVMIntUGE, x, jit_gen_const(ty, r[0].lo), ""), "");
	hit = spec_gen__block(g, "gen.range.hit");
	LLVMBuildCondBr(b, c, hit, miss);
	LLVMPositionBuilderAtEnd(b, hit);
	jit_gen_yield_here(g, load_at(b, i64, out_arr, n, idx));
}
