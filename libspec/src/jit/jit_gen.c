// SPDX-License-Identifier: GPL-2.0
/*
 * spec_gen() points. Disabled, the marker becomes the call fn(data, x...).
 * Enabled, the block holding it is split: the code before it ends in the
 * generator's open block (behind an identity check of the data when the
 * variant is set to one), every answer the generator yields flows into a phi
 * at the split, and what is still unmatched after the generator gets the
 * default (the call, or the generator's value).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "jit/jit_gen.h"
#include "jit/jit_guard.h"
#include "jit/jit_ir.h"
#include "jit/jit_spec.h"
#include "jit/jit_tls.h"

static LLVMTypeRef i64_of(const struct spec_gen *g)
{
	return LLVMInt64TypeInContext(g->j->ctx);
}

/* fn(data, inputs...) with each input converted to its parameter's type. */
static LLVMValueRef call_fn(struct spec_gen *g, LLVMValueRef fn, LLVMValueRef data)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(fn), params[1 + 2 * SPEC_GEN_MAX_INPUTS];
	LLVMValueRef args[1 + 2 * SPEC_GEN_MAX_INPUTS], r, x;
	unsigned int np = LLVMCountParamTypes(fty), k = 1;
	size_t i;

	LLVMGetParamTypes(fty, params);
	args[0] = data;
	for (i = 0; i < g->nr_inputs; i++) {
		x = g->inputs[i];
		if (jit_ir_gen_split(LLVMTypeOf(x), params + k, np - k)) {
			args[k] = LLVMBuildTrunc(g->b, x, params[k], "");
			args[k + 1] = LLVMBuildTrunc(
				g->b,
				LLVMBuildLShr(g->b, x, LLVMConstInt(LLVMTypeOf(x), 64, 0), ""),
				params[k + 1], "");
			k += 2;
		} else {
			args[k] = LLVMBuildIntCast2(g->b, x, params[k], 0, "");
			k++;
		}
	}
	r = LLVMBuildCall2(g->b, fty, fn, args, k, "spec.gen.call");
	return LLVMBuildIntCast2(g->b, r, i64_of(g), 1, "");
}

static int add_incoming(struct spec_gen *g, LLVMValueRef v, LLVMBasicBlockRef from)
{
	if (g->nr_vals == g->cap_vals) {
		size_t cap = g->cap_vals ? 2 * g->cap_vals : 64;
		LLVMValueRef *nv = realloc(g->vals, cap * sizeof(*nv));
		LLVMBasicBlockRef *nf;

		if (!nv)
			return -ENOMEM;
		g->vals = nv;
		nf = realloc(g->from, cap * sizeof(*nf));
		if (!nf)
			return -ENOMEM;
		g->from = nf;
		g->cap_vals = cap;
	}
	g->vals[g->nr_vals] = v;
	g->from[g->nr_vals++] = from;
	return 0;
}

static void note_err(struct spec_gen *g, int err)
{
	if (!g->err)
		g->err = err;
}

LLVMBasicBlockRef spec_gen__block(struct spec_gen *g, const char *name)
{
	return LLVMInsertBasicBlockInContext(g->j->ctx, g->join, name ? name : "gen");
}

int jit_gen_yield_here(struct spec_gen *g, LLVMValueRef v)
{
	LLVMBasicBlockRef bb;
	int ret;

	if (!g || !v || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind ||
	    LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64) {
		if (g)
			note_err(g, -EINVAL);
		return -EINVAL;
	}
	bb = LLVMGetInsertBlock(g->b);
	v = LLVMBuildIntCast2(g->b, v, i64_of(g), 1, "");
	ret = add_incoming(g, v, bb);
	if (ret) {
		note_err(g, ret);
		return ret;
	}
	LLVMBuildBr(g->b, g->join);
	return 0;
}

int spec_gen__yield(struct spec_gen *g, LLVMValueRef v)
{
	int ret = jit_gen_yield_here(g, v);

	if (!ret)
		LLVMPositionBuilderAtEnd(g->b, spec_gen__block(g, "gen.open"));
	return ret;
}

int jit_gen_yield_const(struct spec_gen *g, int64_t out)
{
	return jit_gen_yield_here(g, LLVMConstInt(i64_of(g), (unsigned long long)out, 1));
}

/* Blocks the generator opened and left (yield opens one each time) are
 * unreachable; a function valid before had no unterminated block.
 */
static void close_open_blocks(struct spec_gen *g)
{
	LLVMBasicBlockRef bb;

	for (bb = LLVMGetFirstBasicBlock(g->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
		if (LLVMGetBasicBlockTerminator(bb))
			continue;
		LLVMPositionBuilderAtEnd(g->b, bb);
		LLVMBuildUnreachable(g->b);
	}
}

LLVMValueRef jit_gen_const(LLVMTypeRef ty, struct spec_u128 k)
{
	uint64_t words[2] = {k.lo, k.hi};

	return LLVMConstIntOfArbitraryPrecision(ty, 2, words);
}

LLVMValueRef jit_gen_input_as(struct spec_gen *g, size_t i, unsigned int *bits)
{
	if (i >= g->nr_inputs) {
		note_err(g, -EINVAL);
		return NULL;
	}
	*bits = LLVMGetIntTypeWidth(LLVMTypeOf(g->inputs[i]));
	return g->inputs[i];
}

const char *spec_gen__label(const struct spec_gen *g)
{
	return g->p->label;
}

const void *spec_gen__data(const struct spec_gen *g)
{
	return g->data;
}

int64_t spec_gen__param(const struct spec_gen *g)
{
	return g->s->param;
}

size_t spec_gen__nr_inputs(const struct spec_gen *g)
{
	return g->nr_inputs;
}

unsigned int spec_gen__input_bits(const struct spec_gen *g, size_t i)
{
	return i < g->nr_inputs ? LLVMGetIntTypeWidth(LLVMTypeOf(g->inputs[i])) : 0;
}

LLVMValueRef spec_gen__input(const struct spec_gen *g, size_t i)
{
	return i < g->nr_inputs ? g->inputs[i] : NULL;
}

LLVMBuilderRef spec_gen__builder(const struct spec_gen *g)
{
	return g->b;
}

const struct spec_observed *spec_gen__hot(const struct spec_gen *g, size_t *n)
{
	*n = g->s->nr_hot;
	return g->s->nr_hot ? g->s->hot : NULL;
}

const struct spec_observed *spec_gen__hot_at(const struct spec_gen *g, size_t i)
{
	if (!g || i >= g->s->nr_hot) {
		errno = ERANGE;
		return NULL;
	}
	return &g->s->hot[i];
}

int spec_gen__default_value(struct spec_gen *g, int64_t v)
{
	g->has_default = true;
	g->default_value = v;
	return 0;
}

/* Run the generator in the open block; close what it leaves open. */
static int generate(struct spec_gen *g, LLVMValueRef callee, LLVMValueRef data, char *err,
		    size_t errsz)
{
	LLVMBasicBlockRef open;
	int ret;

	ret = g->s->emit(g->s->emit_ctx, g);
	if (!ret)
		ret = g->err;
	if (ret) {
		snprintf(err, errsz, "generator of spec_gen point '%s' failed: %s", g->p->label,
			 strerror(-ret));
		return ret;
	}
	open = LLVMGetInsertBlock(g->b);
	if (LLVMGetBasicBlockTerminator(open))
		return 0;
	if (g->has_default)
		return jit_gen_yield_const(g, g->default_value);
	return jit_gen_yield_here(g, call_fn(g, callee, data));
}

/* Answer of an enabled point: generated code behind the data check. */
static int build_enabled(struct spec_gen *g, LLVMValueRef call, LLVMValueRef callee,
			 LLVMValueRef data, LLVMValueRef *answer, char *err, size_t errsz)
{
	LLVMBasicBlockRef head = LLVMGetInstructionParent(call), other, mine;
	int ret;

	g->join = jit_split_before(g->j, call);
	LLVMPositionBuilderAtEnd(g->b, head);
	if (g->s->mode == CFG_VALUE) {
		/* Compiled for one table: any other takes the generic call. */
		LLVMValueRef ok = LLVMBuildICmp(g->b, LLVMIntEQ, data, jit_host_ptr(g->j, g->data),
						"gen.mine");

		mine = spec_gen__block(g, "gen.open");
		other = spec_gen__block(g, "gen.other");
		jit_mark_likely(g->j, LLVMBuildCondBr(g->b, ok, mine, other));
		LLVMPositionBuilderAtEnd(g->b, other);
		ret = jit_gen_yield_here(g, call_fn(g, callee, data));
		if (ret)
			return ret;
		LLVMPositionBuilderAtEnd(g->b, mine);
	}
	ret = generate(g, callee, data, err, errsz);
	if (ret)
		return ret;
	/* The join holds the marker, still unterminated while split. */
	close_open_blocks(g);
	LLVMPositionBuilderBefore(g->b, call);
	*answer = LLVMBuildPhi(g->b, i64_of(g), "spec.gen");
	LLVMAddIncoming(*answer, g->vals, g->from, (unsigned int)g->nr_vals);
	return 0;
}

int jit_gen_apply(struct jit *j, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef fn,
		  struct spec_point *p, const struct jit_setting *s, char *err, size_t errsz)
{
	struct spec_gen g = {.j = j, .b = b, .fn = fn, .p = p, .s = s};
	LLVMValueRef callee = LLVMGetOperand(call, 3), data = LLVMGetOperand(call, 4), r = NULL;
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	size_t i;
	int ret = 0;

	g.nr_inputs = (size_t)LLVMGetNumArgOperands(call) - JIT_GEN_FIRST_INPUT;
	for (i = 0; i < g.nr_inputs; i++)
		g.inputs[i] = LLVMGetOperand(call, (unsigned int)(JIT_GEN_FIRST_INPUT + i));
	g.data = s->mode == CFG_VALUE ? (const void *)(uintptr_t)s->value : NULL;
	LLVMPositionBuilderBefore(b, call);
	if (s->mode != CFG_DISABLED && s->emit) {
		ret = build_enabled(&g, call, callee, data, &r, err, errsz);
	} else {
		r = call_fn(&g, callee, data);
	}
	free(g.vals);
	free(g.from);
	if (ret)
		return ret;
	LLVMReplaceAllUsesWith(call, r);
	if (s->every) {
		/* Record the first input with the answer: a fast path built from
		 * the samples needs no recomputation.
		 */
		struct jit_sample_vals v;
		LLVMValueRef x = g.inputs[0];
		unsigned int bits = LLVMGetIntTypeWidth(LLVMTypeOf(x));

		LLVMPositionBuilderBefore(b, call);
		v.lo = LLVMBuildIntCast2(b, x, i64, 0, "");
		v.hi = bits > 64 ? LLVMBuildTrunc(b,
						  LLVMBuildLShr(b, x,
								LLVMConstInt(LLVMTypeOf(x), 64, 0),
								""),
						  i64, "")
				 : NULL;
		v.out = r;
		jit_emit_sample(j, b, call, fn, p, &v, s->every);
	}
	LLVMInstructionEraseFromParent(call);
	return 0;
}
