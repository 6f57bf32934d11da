// SPDX-License-Identifier: GPL-2.0
/*
 * Why chunks: a tree with one leaf per range gives the join block one
 * predecessor (and its phi one entry) per range, and LLVM's code generator
 * (CodeGenPrepare, branch folding, AVX-512 domain reassignment) grows
 * faster than linearly in that: 2,000 LPM intervals took 1.3-3.5 s. A leaf
 * that picks among 32 ranges by counting compares (no branches) and loads
 * the answer keeps that join 32 times smaller.
 *
 * Why the count is emitted as one vector compare and a popcount: as 31
 * scalar compares and adds, the pass pipeline's SLP vectorizer spent most
 * of its time turning them into exactly that, chunk by chunk.
 *
 * Why 128-bit keys are narrowed: the routes of an IPv6 table are mostly
 * /64 or shorter, so most bounds have a zero low half and the high half
 * alone decides; a 64-bit compare vectorizes, a 128-bit one does not.
 */
#include "jit/jit_gen_chunk.h"

static bool eq128(struct spec_u128 a, struct spec_u128 b)
{
	return a.lo == b.lo && a.hi == b.hi;
}

static struct spec_u128 inc128(struct spec_u128 a)
{
	if (!++a.lo)
		a.hi++;
	return a;
}

void jit_gen_key_init(struct spec_gen *g, struct jit_gen_key *k, LLVMValueRef x, unsigned int bits)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(x)));

	k->x = x;
	k->bits = bits;
	k->lo = k->hi = NULL;
	if (bits <= 64)
		return;
	/* Unused halves are dead code the pipeline drops. */
	k->lo = LLVMBuildTrunc(b, x, i64, "key.lo");
	k->hi = LLVMBuildTrunc(b, LLVMBuildLShr(b, x, LLVMConstInt(LLVMTypeOf(x), 64, 0), ""), i64,
			       "key.hi");
}

/* Which half decides x @op @c, or NULL: the full key. */
static LLVMValueRef half_for(const struct jit_gen_key *k, LLVMIntPredicate op, struct spec_u128 c,
			     struct spec_u128 klo, struct spec_u128 khi, uint64_t *cv)
{
	if (k->bits <= 64)
		return NULL;
	if (klo.hi == khi.hi && c.hi == klo.hi) {
		*cv = c.lo;
		return k->lo;
	}
	if ((op != LLVMIntULE && !c.lo) || (op == LLVMIntULE && c.lo == ~0ull)) {
		*cv = c.hi;
		return k->hi;
	}
	return NULL;
}

LLVMValueRef jit_gen_cmp(struct spec_gen *g, const struct jit_gen_key *k, LLVMIntPredicate op,
			 struct spec_u128 c, struct spec_u128 klo, struct spec_u128 khi)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	uint64_t cv;
	LLVMValueRef h = half_for(k, op, c, klo, khi, &cv);

	if (h)
		return LLVMBuildICmp(b, op, h, LLVMConstInt(LLVMTypeOf(h), cv, 0), "");
	return LLVMBuildICmp(b, op, k->x, jit_gen_const(LLVMTypeOf(k->x), c), "");
}

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

static LLVMValueRef splat(LLVMBuilderRef b, LLVMValueRef x, unsigned int p)
{
	LLVMTypeRef vty = LLVMVectorType(LLVMTypeOf(x), p);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(x)));
	LLVMValueRef v =
		LLVMBuildInsertElement(b, LLVMGetPoison(vty), x, LLVMConstInt(i32, 0, 0), "");

	return LLVMBuildShuffleVector(b, v, LLVMGetPoison(vty),
				      LLVMConstNull(LLVMVectorType(i32, p)), "");
}

static LLVMValueRef const_vec(LLVMTypeRef ety, const uint64_t *v, size_t m, unsigned int p)
{
	LLVMValueRef c[JIT_GEN_CHUNK];
	size_t i;

	for (i = 0; i < p; i++)
		c[i] = LLVMConstInt(ety, i < m ? v[i] : 0, 0);
	return LLVMConstVector(c, p);
}

/*
 * How many of the m bounds lie above x: ctpop(bitcast(splat(x) < bounds)),
 * padded to a power of two with bounds 0 (never above). With @xlo (a
 * 128-bit key as halves @x:@xlo), x < b is x.hi < b.hi or x.hi == b.hi and
 * x.lo < b.lo, still one vector expression.
 */
static LLVMValueRef count_above(struct spec_gen *g, LLVMValueRef x, const uint64_t *bound,
				LLVMValueRef xlo, const uint64_t *bound_lo, size_t m)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef ety = LLVMTypeOf(x), mty;
	LLVMContextRef ctx = LLVMGetTypeContext(ety);
	LLVMValueRef v, c, fn;
	unsigned int p = 1, id;

	while (p < m)
		p *= 2;
	v = splat(b, x, p);
	c = LLVMBuildICmp(b, LLVMIntULT, v, const_vec(ety, bound, m, p), "");
	if (xlo) {
		LLVMValueRef eq = LLVMBuildICmp(b, LLVMIntEQ, v, const_vec(ety, bound, m, p), "");
		LLVMValueRef lt = LLVMBuildICmp(b, LLVMIntULT, splat(b, xlo, p),
						const_vec(ety, bound_lo, m, p), "");

		c = LLVMBuildOr(b, c, LLVMBuildAnd(b, eq, lt, ""), "");
	}
	mty = LLVMIntTypeInContext(ctx, p);
	c = LLVMBuildBitCast(b, c, mty, "");
	id = LLVMLookupIntrinsicID("llvm.ctpop", 10);
	fn = LLVMGetIntrinsicDeclaration(LLVMGetGlobalParent(g->fn), id, &mty, 1);
	c = LLVMBuildCall2(b, LLVMIntrinsicGetType(ctx, id, &mty, 1), fn, &c, 1, "");
	return LLVMBuildZExt(b, c, LLVMInt64TypeInContext(ctx), "");
}

/* Index of the last range starting at or below x. */
static LLVMValueRef find(struct spec_gen *g, const struct jit_gen_key *k,
			 const struct spec_gen_range *r, size_t n, struct spec_u128 klo,
			 struct spec_u128 khi)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(k->x)));
	uint64_t lo[JIT_GEN_CHUNK], hi[JIT_GEN_CHUNK], both_lo[JIT_GEN_CHUNK],
		both_hi[JIT_GEN_CHUNK];
	size_t i, nh = 0, nb = 0;
	LLVMValueRef above;

	if (n < 2)
		return LLVMConstInt(i64, 0, 0);
	for (i = 1; i < n; i++) {
		lo[i - 1] = r[i].lo.lo;
		/* bounds the high half decides, and the others */
		if (!r[i].lo.lo) {
			hi[nh++] = r[i].lo.hi;
		} else {
			both_lo[nb] = r[i].lo.lo;
			both_hi[nb++] = r[i].lo.hi;
		}
	}
	/* x's high half known: the low half decides every bound. */
	if (k->bits <= 64 || klo.hi == khi.hi)
		above = count_above(g, k->bits <= 64 ? k->x : k->lo, lo, NULL, NULL, n - 1);
	else if (!nb)
		above = count_above(g, k->hi, hi, NULL, NULL, nh);
	else if (!nh)
		above = count_above(g, k->hi, both_hi, k->lo, both_lo, nb);
	else
		above = LLVMBuildAdd(b, count_above(g, k->hi, hi, NULL, NULL, nh),
				     count_above(g, k->hi, both_hi, k->lo, both_lo, nb), "");
	return LLVMBuildSub(b, LLVMConstInt(i64, n - 1, 0), above, "");
}

void jit_gen_chunk(struct spec_gen *g, const struct jit_gen_key *k, const struct spec_gen_range *r,
		   size_t n, struct spec_u128 klo, struct spec_u128 khi, LLVMBasicBlockRef miss)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef ty = LLVMTypeOf(k->x), i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(ty));
	LLVMValueRef his[JIT_GEN_CHUNK], outs[JIT_GEN_CHUNK], idx, c = NULL, le;
	LLVMBasicBlockRef hit;
	bool gapless = true, same = true;
	size_t i;

	for (i = 0; i < n; i++) {
		his[i] = jit_gen_const(ty, r[i].hi);
		outs[i] = LLVMConstInt(i64, (unsigned long long)r[i].out, 1);
		if (i && !eq128(inc128(r[i - 1].hi), r[i].lo))
			gapless = false;
		if (i && r[i].out != r[0].out)
			same = false;
	}
	idx = find(g, k, r, n, klo, khi);
	/* Without gaps only the chunk's own ends can miss: no load. */
	if (!gapless)
		c = LLVMBuildICmp(
			b, LLVMIntULE, k->x,
			load_at(b, ty, const_array(g, ty, his, n, "spec.gen.range.hi"), n, idx),
			"");
	else if (!eq128(r[n - 1].hi, khi))
		c = jit_gen_cmp(g, k, LLVMIntULE, r[n - 1].hi, klo, khi);
	if (!eq128(r[0].lo, klo)) {
		le = jit_gen_cmp(g, k, LLVMIntUGE, r[0].lo, klo, khi);
		c = c ? LLVMBuildAnd(b, c, le, "") : le;
	}
	if (c) {
		hit = spec_gen__block(g, "gen.range.hit");
		LLVMBuildCondBr(b, c, hit, miss);
		LLVMPositionBuilderAtEnd(b, hit);
	}
	if (same) {
		jit_gen_yield_const(g, r[0].out);
		return;
	}
	jit_gen_yield_here(
		g, load_at(b, i64, const_array(g, i64, outs, n, "spec.gen.range.out"), n, idx));
}
