// SPDX-License-Identifier: GPL-2.0
/*
 * Guards: a failed check must leave the service as if the specialized
 * variant had never been entered, then run the generic function. This is
 * only sound where nothing observable happened yet, so a guard goes
 *  - to a new entry block, when the checked value is a pure expression of
 *    the arguments (rebuilt there; arguments never change), or
 *  - at the point itself, when every path from the entry to it is free of
 *    stores, calls and other side effects (loads are fine: re-reading gives
 *    the generic version the same inputs).
 * Otherwise the point cannot be guarded and only runs with its guard off.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jit_guard.h"
#include "jit/jit_ir.h"
#include "jit/jit_tls.h"

#define PURE_DEPTH 16

LLVMValueRef jit_host_ptr(struct jit *j, const void *p)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);

	return LLVMConstIntToPtr(LLVMConstInt(i64, (unsigned long long)(uintptr_t)p, 0),
				 LLVMPointerTypeInContext(j->ctx, 0));
}

LLVMValueRef jit_helper(LLVMModuleRef m, const char *name, LLVMTypeRef ty)
{
	LLVMValueRef f = LLVMGetNamedFunction(m, name);

	return f ? f : LLVMAddFunction(m, name, ty);
}

LLVMValueRef jit_forward_call(LLVMBuilderRef b, LLVMValueRef fn, LLVMTypeRef fty,
			      LLVMValueRef callee)
{
	unsigned int n = LLVMCountParams(fn), i;
	LLVMValueRef *args = calloc(n ? n : 1, sizeof(*args)), call;

	if (!args)
		return NULL;
	LLVMGetParams(fn, args);
	call = LLVMBuildCall2(b, fty, callee, args, n, "");
	free(args);
	LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(fn));
	/* ABI attributes (sret, byval, zeroext, ...) must match the callee. */
	for (i = 0; i <= n; i++) {
		unsigned int idx = i == n ? LLVMAttributeReturnIndex : i + 1;
		unsigned int na = LLVMGetAttributeCountAtIndex(fn, idx), k;
		LLVMAttributeRef *attrs;

		if (!na)
			continue;
		attrs = calloc(na, sizeof(*attrs));
		if (!attrs)
			return NULL;
		LLVMGetAttributesAtIndex(fn, idx, attrs);
		for (k = 0; k < na; k++)
			LLVMAddCallSiteAttribute(call, idx, attrs[k]);
		free(attrs);
	}
	return call;
}

static bool pure_over_args(LLVMValueRef v, int depth)
{
	unsigned int i, n;

	if (LLVMIsAArgument(v))
		return true;
	if (LLVMIsAConstantInt(v) || LLVMIsAConstantPointerNull(v))
		return true;
	if (!LLVMIsAInstruction(v) || depth > PURE_DEPTH)
		return false;
	switch (LLVMGetInstructionOpcode(v)) {
	/* No division: rebuilt at the entry it could trap where the original
	 * was guarded by control flow.
	 */
	case LLVMAdd:
	case LLVMSub:
	case LLVMMul:
	case LLVMShl:
	case LLVMLShr:
	case LLVMAShr:
	case LLVMAnd:
	case LLVMOr:
	case LLVMXor:
	case LLVMTrunc:
	case LLVMZExt:
	case LLVMSExt:
	case LLVMICmp:
	case LLVMSelect:
	case LLVMFreeze:
		break;
	default:
		return false;
	}
	n = (unsigned int)LLVMGetNumOperands(v);
	for (i = 0; i < n; i++) {
		if (!pure_over_args(LLVMGetOperand(v, i), depth + 1))
			return false;
	}
	return true;
}

static bool pure_intrinsic(const char *name)
{
	static const char *const ok[] = {
		"llvm.lifetime.", "llvm.dbg.",	"llvm.assume",	"llvm.experimental.noalias",
		"llvm.smax.",	  "llvm.smin.", "llvm.umax.",	"llvm.umin.",
		"llvm.abs.",	  "llvm.ctpop", "llvm.ctlz",	"llvm.cttz",
		"llvm.bswap",	  "llvm.fsh",	"llvm.fmuladd", "llvm.fabs",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (!strncmp(name, ok[i], strlen(ok[i])))
			return true;
	}
	return false;
}

static bool has_effect(LLVMValueRef inst)
{
	LLVMValueRef callee;

	switch (LLVMGetInstructionOpcode(inst)) {
	case LLVMStore:
	case LLVMAtomicRMW:
	case LLVMAtomicCmpXchg:
	case LLVMFence:
	case LLVMVAArg:
	case LLVMInvoke:
	case LLVMCallBr:
		return true;
	case LLVMLoad:
		return LLVMGetVolatile(inst);
	case LLVMCall:
		if (jit_ir_marker_kind(inst))
			return false;
		callee = LLVMGetCalledValue(inst);
		return !(callee && LLVMIsAFunction(callee) &&
			 pure_intrinsic(LLVMGetValueName2(callee, &(size_t){0})));
	default:
		return false;
	}
}

static size_t block_index(LLVMBasicBlockRef *bbs, size_t n, LLVMBasicBlockRef bb)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (bbs[i] == bb)
			return i;
	}
	return n;
}

/* Must-analysis over the CFG: is the start of each block reached only
 * through effect-free blocks? Greatest fixpoint from "all clean".
 */
static bool point_clean(LLVMValueRef fn, LLVMValueRef call)
{
	size_t n = LLVMCountBasicBlocks(fn), i, at;
	LLVMBasicBlockRef *bbs = calloc(n, sizeof(*bbs));
	bool *in = calloc(n, sizeof(bool)), *effects = calloc(n, sizeof(bool));
	bool changed = true, clean = false;
	LLVMValueRef inst;

	if (!bbs || !in || !effects)
		goto out;
	LLVMGetBasicBlocks(fn, bbs);
	for (i = 0; i < n; i++) {
		in[i] = true;
		for (inst = LLVMGetFirstInstruction(bbs[i]); inst;
		     inst = LLVMGetNextInstruction(inst))
			effects[i] |= has_effect(inst);
	}
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			LLVMValueRef term = LLVMGetBasicBlockTerminator(bbs[i]);
			unsigned int s, ns = term ? LLVMGetNumSuccessors(term) : 0;

			for (s = 0; s < ns; s++) {
				size_t k = block_index(bbs, n, LLVMGetSuccessor(term, s));

				if (k < n && k && in[k] && !(in[i] && !effects[i])) {
					in[k] = false;
					changed = true;
				}
			}
		}
	}
	at = block_index(bbs, n, LLVMGetInstructionParent(call));
	if (at == n || !in[at])
		goto out;
	for (inst = LLVMGetFirstInstruction(bbs[at]); inst != call;
	     inst = LLVMGetNextInstruction(inst)) {
		if (has_effect(inst))
			goto out;
	}
	clean = true;
out:
	free(bbs);
	free(in);
	free(effects);
	return clean;
}

void jit_guard_classify(LLVMValueRef fn, LLVMValueRef call, LLVMValueRef v, struct guard_site *gs)
{
	gs->fn = fn;
	gs->at = call;
	gs->hoistable = pure_over_args(v, 0);
	gs->clean = gs->hoistable || point_clean(fn, call);
}

/* Rebuild a pure expression of the arguments at the builder's position. */
static LLVMValueRef clone_expr(LLVMBuilderRef b, LLVMValueRef v)
{
	unsigned int i, n;
	LLVMValueRef c;

	if (!LLVMIsAInstruction(v))
		return v;
	c = LLVMInstructionClone(v);
	n = (unsigned int)LLVMGetNumOperands(v);
	for (i = 0; i < n; i++)
		LLVMSetOperand(c, i, clone_expr(b, LLVMGetOperand(v, i)));
	LLVMInsertIntoBuilder(b, c);
	return c;
}

/* Rewrite the phis of @succ that name @from as a predecessor to @to
 * (the C API cannot set a phi's incoming block, so rebuild the phi).
 */
static void retarget_phis(LLVMBuilderRef b, LLVMBasicBlockRef succ, LLVMBasicBlockRef from,
			  LLVMBasicBlockRef to)
{
	LLVMValueRef phi = LLVMGetFirstInstruction(succ), next;

	for (; phi && LLVMIsAPHINode(phi); phi = next) {
		unsigned int k, nin = LLVMCountIncoming(phi);
		LLVMValueRef np;

		next = LLVMGetNextInstruction(phi);
		LLVMPositionBuilderBefore(b, phi);
		np = LLVMBuildPhi(b, LLVMTypeOf(phi), "");
		for (k = 0; k < nin; k++) {
			LLVMValueRef val = LLVMGetIncomingValue(phi, k);
			LLVMBasicBlockRef blk = LLVMGetIncomingBlock(phi, k);

			if (blk == from)
				blk = to;
			LLVMAddIncoming(np, &val, &blk, 1);
		}
		LLVMReplaceAllUsesWith(phi, np);
		LLVMInstructionEraseFromParent(phi);
	}
}

/* Move @at and everything after it in its block to a new block; returns it. */
static LLVMBasicBlockRef split_before(struct jit *j, LLVMBuilderRef b, LLVMValueRef at)
{
	LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
	LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb), cont;
	LLVMValueRef inst, nx, term;
	unsigned int s, ns;

	cont = next ? LLVMInsertBasicBlockInContext(j->ctx, next, "spec.cont")
		    : LLVMAppendBasicBlockInContext(j->ctx, LLVMGetBasicBlockParent(bb),
						    "spec.cont");
	LLVMPositionBuilderAtEnd(b, cont);
	for (inst = at; inst; inst = nx) {
		nx = LLVMGetNextInstruction(inst);
		LLVMInstructionRemoveFromParent(inst);
		LLVMInsertIntoBuilder(b, inst);
	}
	term = LLVMGetBasicBlockTerminator(cont);
	ns = term ? LLVMGetNumSuccessors(term) : 0;
	for (s = 0; s < ns; s++)
		retarget_phis(b, LLVMGetSuccessor(term, s), bb, cont);
	return cont;
}

LLVMBasicBlockRef jit_split_before(struct jit *j, LLVMValueRef at)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	LLVMBasicBlockRef cont = split_before(j, b, at);

	LLVMDisposeBuilder(b);
	return cont;
}

static void emit_fail(struct jit *j, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef observed,
		      struct spec_point *point, LLVMValueRef generic)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMTypeRef fty = LLVMGlobalGetValueType(fn);
	LLVMTypeRef hty =
		LLVMFunctionType(LLVMVoidTypeInContext(j->ctx), (LLVMTypeRef[]){ptr, i64}, 2, 0);
	LLVMModuleRef m = LLVMGetGlobalParent(fn);
	LLVMValueRef args[2], r, helper;

	args[0] = jit_host_ptr(j, point);
	args[1] = LLVMGetTypeKind(LLVMTypeOf(observed)) == LLVMPointerTypeKind
			  ? LLVMBuildPtrToInt(b, observed, i64, "")
			  : LLVMBuildIntCast2(b, observed, i64, 1, "");
	helper = jit_helper(m, "__spec_rt_guard_fail", hty);
	LLVMAddAttributeAtIndex(
		helper, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(j->ctx, LLVMGetEnumAttributeKindForName("cold", 4), 0));
	LLVMBuildCall2(b, hty, helper, args, 2, "");
	r = jit_forward_call(b, fn, fty, generic);
	if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, r);
}

int jit_guard_emit(struct jit *j, const struct guard_site *gs, LLVMValueRef v,
		   LLVMValueRef (*build_ok)(LLVMBuilderRef b, LLVMValueRef v, void *arg), void *arg,
		   struct spec_point *point, LLVMValueRef generic, char *err, size_t errsz)
{
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	LLVMBasicBlockRef check, pass, fail;
	LLVMValueRef val;

	if (gs->hoistable) {
		LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(gs->fn);
		LLVMValueRef inst, nx;

		check = LLVMInsertBasicBlockInContext(j->ctx, entry, "spec.guard");
		pass = entry;
		LLVMPositionBuilderAtEnd(b, check);
		/* Static allocas must stay in the entry block for SROA. */
		for (inst = LLVMGetFirstInstruction(entry); inst && LLVMIsAAllocaInst(inst);
		     inst = nx) {
			nx = LLVMGetNextInstruction(inst);
			LLVMInstructionRemoveFromParent(inst);
			LLVMInsertIntoBuilder(b, inst);
		}
		val = clone_expr(b, v);
	} else if (gs->clean) {
		check = LLVMGetInstructionParent(gs->at);
		pass = split_before(j, b, gs->at);
		LLVMPositionBuilderAtEnd(b, check);
		val = v;
	} else {
		snprintf(err, errsz, "guard of '%s' cannot be placed: %s", point->label,
			 point->unguardable ? point->unguardable : "side effects before the point");
		LLVMDisposeBuilder(b);
		return -EINVAL;
	}
	/* A poison input must not make the branch undefined. */
	val = LLVMBuildFreeze(b, val, "");
	/* The passing side is the one to lay out straight. */
	fail = LLVMAppendBasicBlockInContext(j->ctx, gs->fn, "spec.fail");
	jit_mark_likely(j, LLVMBuildCondBr(b, build_ok(b, val, arg), pass, fail));
	LLVMPositionBuilderAtEnd(b, fail);
	emit_fail(j, b, gs->fn, val, point, generic);
	LLVMDisposeBuilder(b);
	return 0;
}
