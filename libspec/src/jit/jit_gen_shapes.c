// SPDX-License-Identifier: GPL-2.0
/*
 * Code shapes for generators. Each helper is one stage: it starts in the
 * builder's open block, yields its answers, and leaves the builder in the
 * block where its misses go.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jit_gen_shapes.h"
#include "jit/jit_gen_chunk.h"

static struct spec_u128 trunc_to(struct spec_u128 k, unsigned int bits)
{
	if (bits < 128)
		k.hi = bits <= 64 ? 0 : k.hi & ((1ull << (bits - 64)) - 1);
	if (bits < 64)
		k.lo &= (1ull << bits) - 1;
	return k;
}

static int cmp_u128(struct spec_u128 a, struct spec_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	return a.lo < b.lo ? -1 : a.lo > b.lo;
}

static struct spec_u128 and_u128(struct spec_u128 a, struct spec_u128 b)
{
	return (struct spec_u128){a.lo & b.lo, a.hi & b.hi};
}

static int fail(struct spec_gen *g, int err)
{
	if (!g->err)
		g->err = err;
	return err;
}

/* ---- exact set ---------------------------------------------------------- */

struct keyed {
	struct spec_u128 key;
	size_t pos; /* order given: the first of equal keys wins */
	int64_t out;
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = cmp_u128(x->key, y->key);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

int spec_gen__exact(struct spec_gen *g, size_t input, const struct spec_gen_exact *cases, size_t n)
{
	unsigned int bits;
	LLVMValueRef x = jit_gen_input_as(g, input, &bits), sw;
	LLVMBasicBlockRef miss;
	struct keyed *k;
	size_t i;

	if (!x || (n && !cases))
		return fail(g, -EINVAL);
	k = calloc(n ? n : 1, sizeof(*k));
	if (!k)
		return fail(g, -ENOMEM);
	for (i = 0; i < n; i++)
		k[i] = (struct keyed){trunc_to(cases[i].key, bits), i, cases[i].out};
	qsort(k, n, sizeof(*k), by_key);
	miss = spec_gen__block(g, "gen.exact.miss");
	sw = LLVMBuildSwitch(spec_gen__builder(g), x, miss, (unsigned int)n);
	for (i = 0; i < n; i++) {
		LLVMBasicBlockRef hit;

		if (i && !cmp_u128(k[i].key, k[i - 1].key))
			continue;
		hit = spec_gen__block(g, "gen.exact.hit");
		LLVMAddCase(sw, jit_gen_const(LLVMTypeOf(x), k[i].key), hit);
		LLVMPositionBuilderAtEnd(spec_gen__builder(g), hit);
		jit_gen_yield_const(g, k[i].out);
	}
	free(k);
	LLVMPositionBuilderAtEnd(spec_gen__builder(g), miss);
	return g->err;
}

/* ---- ranges: a balanced tree of compares -------------------------------- */

static int by_lo(const void *a, const void *b)
{
	const struct spec_gen_range *x = a, *y = b;

	return cmp_u128(x->lo, y->lo);
}

static struct spec_u128 dec128(struct spec_u128 a)
{
	if (!a.lo--)
		a.hi--;
	return a;
}

/*
 * Inputs reaching a node lie in [klo, khi] (what the compares above it
 * established): a leaf only tests the bounds its range does not share with
 * that window, so contiguous ranges make a plain binary search.
 */
static void range_tree(struct spec_gen *g, const struct jit_gen_key *k,
		       const struct spec_gen_range *r, size_t n, struct spec_u128 klo,
		       struct spec_u128 khi, LLVMBasicBlockRef miss, bool chunk)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMBasicBlockRef left, right, hit;
	LLVMValueRef c = NULL;
	size_t mid;

	if (chunk && n <= JIT_GEN_CHUNK) {
		jit_gen_chunk(g, k, r, n, klo, khi, miss);
		return;
	}
	if (n == 1) {
		if (cmp_u128(r->lo, klo) > 0)
			c = jit_gen_cmp(g, k, LLVMIntUGE, r->lo, klo, khi);
		if (cmp_u128(r->hi, khi) < 0) {
			LLVMValueRef le = jit_gen_cmp(g, k, LLVMIntULE, r->hi, klo, khi);

			c = c ? LLVMBuildAnd(b, c, le, "") : le;
		}
		if (c) {
			hit = spec_gen__block(g, "gen.range.hit");
			LLVMBuildCondBr(b, c, hit, miss);
			LLVMPositionBuilderAtEnd(b, hit);
		}
		jit_gen_yield_const(g, r->out);
		return;
	}
	mid = n / 2;
	left = spec_gen__block(g, "gen.range.lt");
	right = spec_gen__block(g, "gen.range.ge");
	c = jit_gen_cmp(g, k, LLVMIntULT, r[mid].lo, klo, khi);
	LLVMBuildCondBr(b, c, left, right);
	LLVMPositionBuilderAtEnd(b, left);
	range_tree(g, k, r, mid, klo, dec128(r[mid].lo), miss, chunk);
	LLVMPositionBuilderAtEnd(b, right);
	range_tree(g, k, r + mid, n - mid, r[mid].lo, khi, miss, chunk);
}

int spec_gen__ranges(struct spec_gen *g, size_t input, const struct spec_gen_range *ranges,
		     size_t n)
{
	unsigned int bits;
	LLVMValueRef x = jit_gen_input_as(g, input, &bits);
	struct spec_gen_range *r;
	struct jit_gen_key k;
	LLVMBasicBlockRef miss;
	size_t i;

	if (!x || (n && !ranges))
		return fail(g, -EINVAL);
	if (!n)
		return 0;
	r = malloc(n * sizeof(*r));
	if (!r)
		return fail(g, -ENOMEM);
	for (i = 0; i < n; i++) {
		r[i] = ranges[i];
		r[i].lo = trunc_to(r[i].lo, bits);
		r[i].hi = trunc_to(r[i].hi, bits);
	}
	qsort(r, n, sizeof(*r), by_lo);
	for (i = 0; i < n; i++) {
		if (cmp_u128(r[i].lo, r[i].hi) > 0 || (i && cmp_u128(r[i - 1].hi, r[i].lo) >= 0)) {
			free(r);
			return fail(g, -EINVAL);
		}
	}
	miss = spec_gen__block(g, "gen.range.miss");
	jit_gen_key_init(g, &k, x, bits);
	range_tree(g, &k, r, n, (struct spec_u128){0, 0},
		   trunc_to((struct spec_u128){~0ull, ~0ull}, bits), miss, n > JIT_GEN_CHUNK_ABOVE);
	free(r);
	LLVMPositionBuilderAtEnd(spec_gen__builder(g), miss);
	return g->err;
}

/* ---- masked rules: nested ifs ------------------------------------------- */

struct mnode {
	const struct spec_gen_mask *rule;
	size_t child, next; /* first child, next sibling: indices + 1, 0 = none */
	size_t last;	    /* last child, to keep siblings in order */
};

static int popcount128(struct spec_u128 m)
{
	return __builtin_popcountll(m.lo) + __builtin_popcountll(m.hi);
}

static bool covers(const struct spec_gen_mask *a, const struct spec_gen_mask *b)
{
	return !cmp_u128(and_u128(a->mask, b->mask), a->mask) &&
	       !cmp_u128(and_u128(b->value, a->mask), a->value);
}

/*
 * Insert node @i under the deepest node covering its rule (root: node 0).
 * False for a rule equal to one already placed (the earlier one wins).
 */
static bool insert(struct mnode *t, size_t i)
{
	size_t parent = 0, c;

again:
	for (c = t[parent].child; c; c = t[c - 1].next) {
		if (covers(t[c - 1].rule, t[i].rule)) {
			if (covers(t[i].rule, t[c - 1].rule))
				return false;
			parent = c - 1;
			goto again;
		}
	}
	if (t[parent].last)
		t[t[parent].last - 1].next = i + 1;
	else
		t[parent].child = i + 1;
	t[parent].last = i + 1;
	return true;
}

static int emit_level(struct spec_gen *g, LLVMValueRef x, const struct mnode *t, size_t first,
		      LLVMBasicBlockRef miss);

/* Rule @c answers, after the rules nested in it had their chance. */
static int emit_hit(struct spec_gen *g, LLVMValueRef x, const struct mnode *t, size_t c)
{
	LLVMBasicBlockRef inner;
	int ret;

	if (t[c - 1].child) {
		inner = spec_gen__block(g, "gen.mask.outer");
		ret = emit_level(g, x, t, t[c - 1].child, inner);
		if (ret)
			return ret;
		LLVMPositionBuilderAtEnd(spec_gen__builder(g), inner);
	}
	return jit_gen_yield_const(g, t[c - 1].rule->out);
}

/* Siblings sharing one mask become one switch on x & mask. */
static int emit_level(struct spec_gen *g, LLVMValueRef x, const struct mnode *t, size_t first,
		      LLVMBasicBlockRef miss)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	size_t n = 0, c, i, k, *ids;
	char *done;
	int ret = 0;

	for (c = first; c; c = t[c - 1].next)
		n++;
	ids = malloc(n * sizeof(*ids));
	done = calloc(n, 1);
	if (!ids || !done) {
		free(ids);
		free(done);
		return -ENOMEM;
	}
	for (c = first, i = 0; c; c = t[c - 1].next)
		ids[i++] = c;
	for (i = 0; i < n && !ret; i++) {
		struct spec_u128 mask = t[ids[i] - 1].rule->mask;
		LLVMBasicBlockRef next = miss, hit;
		LLVMValueRef sw;
		size_t cnt = 0;

		if (done[i])
			continue;
		for (k = i; k < n; k++) {
			if (done[k])
				continue;
			if (cmp_u128(t[ids[k] - 1].rule->mask, mask))
				next = NULL;
			else
				cnt++;
		}
		if (!next)
			next = spec_gen__block(g, "gen.mask.next");
		sw = LLVMBuildSwitch(b, LLVMBuildAnd(b, x, jit_gen_const(LLVMTypeOf(x), mask), ""),
				     next, (unsigned int)cnt);
		for (k = i; k < n && !ret; k++) {
			if (done[k] || cmp_u128(t[ids[k] - 1].rule->mask, mask))
				continue;
			done[k] = 1;
			hit = spec_gen__block(g, "gen.mask.hit");
			LLVMAddCase(sw, jit_gen_const(LLVMTypeOf(x), t[ids[k] - 1].rule->value),
				    hit);
			LLVMPositionBuilderAtEnd(b, hit);
			ret = emit_hit(g, x, t, ids[k]);
		}
		LLVMPositionBuilderAtEnd(b, next);
	}
	free(ids);
	free(done);
	return ret;
}

static int by_specificity(const void *a, const void *b)
{
	const struct mnode *x = a, *y = b;
	int px = popcount128(x->rule->mask), py = popcount128(y->rule->mask);

	if (px != py)
		return px - py;
	return (x->rule > y->rule) - (x->rule < y->rule);
}

int spec_gen__masked(struct spec_gen *g, size_t input, const struct spec_gen_mask *rules, size_t n)
{
	unsigned int bits;
	LLVMValueRef x = jit_gen_input_as(g, input, &bits);
	struct spec_gen_mask *r;
	struct mnode *t;
	LLVMBasicBlockRef miss;
	size_t i, kept = 0;
	int ret;

	if (!x || (n && !rules))
		return fail(g, -EINVAL);
	if (!n)
		return 0;
	r = malloc(n * sizeof(*r));
	t = calloc(n + 1, sizeof(*t));
	if (!r || !t) {
		free(r);
		free(t);
		return fail(g, -ENOMEM);
	}
	for (i = 0; i < n; i++) {
		r[i] = rules[i];
		r[i].mask = trunc_to(r[i].mask, bits);
		if (cmp_u128(and_u128(r[i].value, r[i].mask), r[i].value)) {
			free(r);
			free(t);
			return fail(g, -EINVAL);
		}
		t[i + 1].rule = &r[i];
	}
	/* Least specific first, so every rule's cover is already placed. */
	qsort(t + 1, n, sizeof(*t), by_specificity);
	for (i = 1; i <= n; i++) {
		t[++kept] = t[i];
		if (!insert(t, kept))
			kept--;
	}
	miss = spec_gen__block(g, "gen.mask.miss");
	ret = emit_level(g, x, t, t[0].child, miss);
	free(t);
	free(r);
	if (ret)
		return fail(g, ret);
	LLVMPositionBuilderAtEnd(spec_gen__builder(g), miss);
	return g->err;
}

/* ---- dense table -------------------------------------------------------- */

int spec_gen__table(struct spec_gen *g, size_t input, uint64_t base, const int64_t *out, size_t n)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(g->fn));
	LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), aty;
	unsigned int bits;
	LLVMValueRef x = jit_gen_input_as(g, input, &bits), *vals, arr, idx, c, v;
	LLVMBasicBlockRef hit, miss;
	size_t i;

	if (!x || !n || !out || n > UINT32_MAX)
		return fail(g, -EINVAL);
	vals = malloc(n * sizeof(*vals));
	if (!vals)
		return fail(g, -ENOMEM);
	for (i = 0; i < n; i++)
		vals[i] = LLVMConstInt(i64, (unsigned long long)out[i], 1);
	aty = LLVMArrayType(i64, (unsigned int)n);
	arr = LLVMAddGlobal(LLVMGetGlobalParent(g->fn), aty, "spec.gen.table");
	LLVMSetInitializer(arr, LLVMConstArray(i64, vals, (unsigned int)n));
	free(vals);
	LLVMSetGlobalConstant(arr, 1);
	LLVMSetLinkage(arr, LLVMPrivateLinkage);
	LLVMSetUnnamedAddress(arr, LLVMGlobalUnnamedAddr);
	idx = LLVMBuildSub(b, x, jit_gen_const(LLVMTypeOf(x), (struct spec_u128){base, 0}), "");
	c = LLVMBuildICmp(b, LLVMIntULT, idx,
			  jit_gen_const(LLVMTypeOf(x), (struct spec_u128){(uint64_t)n, 0}), "");
	hit = spec_gen__block(g, "gen.table.hit");
	miss = spec_gen__block(g, "gen.table.miss");
	LLVMBuildCondBr(b, c, hit, miss);
	LLVMPositionBuilderAtEnd(b, hit);
	idx = LLVMBuildIntCast2(b, idx, i64, 0, "");
	v = LLVMBuildInBoundsGEP2(b, aty, arr, (LLVMValueRef[]){LLVMConstInt(i64, 0, 0), idx}, 2,
				  "");
	jit_gen_yield_here(g, LLVMBuildLoad2(b, i64, v, "gen.table.out"));
	LLVMPositionBuilderAtEnd(b, miss);
	return g->err;
}
