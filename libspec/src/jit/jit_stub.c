// SPDX-License-Identifier: GPL-2.0
/*
 * Entry stubs: the stable address a service calls. Each has the handler's
 * own type and does: if the slot holds the generic variant, jump to it;
 * else e = enter(epoch); f = load-acquire(slot); r = f(...);
 * store-release(e, 0); return r. Swapping a variant is one store to the slot.
 */
#include <stdlib.h>
#include <string.h>

#include "jit/jit_stub.h"
#include "jit/jit_guard.h"
#include "jit/jit_tls.h"

static void copy_attrs(LLVMValueRef from, LLVMValueRef to, unsigned int nparams)
{
	unsigned int i;

	for (i = 0; i <= nparams; i++) {
		unsigned int idx = i == nparams ? LLVMAttributeReturnIndex : i + 1;
		unsigned int na = LLVMGetAttributeCountAtIndex(from, idx), k;
		LLVMAttributeRef attrs[32];

		if (!na || na > 32)
			continue;
		LLVMGetAttributesAtIndex(from, idx, attrs);
		for (k = 0; k < na; k++)
			LLVMAddAttributeAtIndex(to, idx, attrs[k]);
	}
}

/*
 * spec_rt_enter() inlined: with this thread's record at hand, a nested call
 * gets the sink word, an outermost one publishes the global epoch; only a
 * thread-local cache miss calls into C.
 */
static LLVMValueRef inline_enter(struct jit *j, LLVMBuilderRef b, LLVMModuleRef m,
				 LLVMValueRef stub, const struct epoch_domain *dom)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMTypeRef enter_ty = LLVMFunctionType(ptr, &ptr, 1, 0);
	LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(j->ctx, stub, "enter.slow");
	LLVMBasicBlockRef publish = LLVMAppendBasicBlockInContext(j->ctx, stub, "enter.publish");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(j->ctx, stub, "enter.done");
	LLVMBasicBlockRef hit, blocks[3];
	LLVMValueRef rec, local, lp, np, g, st, slow_e, vals[3], e;

	rec = jit_tls_rec(j, b, stub, dom, false, slow);
	hit = LLVMGetInsertBlock(b);
	lp = jit_tls_field(j, b, rec, j->tls.off_local);
	np = jit_tls_field(j, b, rec, j->tls.off_nested);
	local = LLVMBuildLoad2(b, i64, lp, "local");
	LLVMSetOrdering(local, LLVMAtomicOrderingMonotonic);
	LLVMSetAlignment(local, 8);
	LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, local, LLVMConstInt(i64, 0, 0), ""), done,
			publish);

	LLVMPositionBuilderAtEnd(b, publish);
	g = LLVMBuildLoad2(b, i64, jit_host_ptr(j, &dom->global), "epoch");
	LLVMSetOrdering(g, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(g, 8);
	st = LLVMBuildStore(b, g, lp);
	LLVMSetOrdering(st, LLVMAtomicOrderingMonotonic);
	LLVMSetAlignment(st, 8);
	/* Compiler barrier with membarrier(2) on the reclaimer's side. */
	LLVMBuildFence(b, LLVMAtomicOrderingSequentiallyConsistent, dom->membarrier, "");
	LLVMBuildBr(b, done);

	LLVMPositionBuilderAtEnd(b, slow);
	slow_e = LLVMBuildCall2(b, enter_ty, jit_helper(m, "__spec_rt_enter", enter_ty),
				(LLVMValueRef[]){jit_host_ptr(j, dom)}, 1, "");
	LLVMBuildBr(b, done);

	LLVMPositionBuilderAtEnd(b, done);
	e = LLVMBuildPhi(b, ptr, "rec");
	vals[0] = np;
	blocks[0] = hit;
	vals[1] = lp;
	blocks[1] = publish;
	vals[2] = slow_e;
	blocks[2] = slow;
	LLVMAddIncoming(e, vals, blocks, 3);
	return e;
}

/* return @r (a call's result) from the function being built */
static void build_ret(LLVMBuilderRef b, LLVMTypeRef fty, LLVMValueRef r)
{
	if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, r);
}

/*
 * The generic variant is never reclaimed, so a call that finds it in the
 * slot needs no epoch: the stub jumps straight to <name>.v0. Any other
 * variant, which a later swap may free, goes through @epoch_fn (enter,
 * reload the slot, call, leave): a pointer read outside the epoch may
 * already be retired. Apart, so this path saves no registers (measured:
 * the single-function stub pushed five before the test).
 */
static void build_dispatch(struct jit *j, LLVMValueRef stub, LLVMTypeRef fty, void *const *slot,
			   const char *handler, LLVMValueRef epoch_fn)
{
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMModuleRef m = LLVMGetGlobalParent(stub);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(j->ctx, stub, "entry");
	LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(j->ctx, stub, "generic");
	LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(j->ctx, stub, "variant");
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	LLVMValueRef fp, generic, r;
	char name[512];

	snprintf(name, sizeof(name), "%s.v0", handler);
	generic = jit_helper(m, name, fty);
	LLVMPositionBuilderAtEnd(b, entry);
	fp = LLVMBuildLoad2(b, ptr, jit_host_ptr(j, slot), "current");
	LLVMSetOrdering(fp, LLVMAtomicOrderingMonotonic);
	LLVMSetAlignment(fp, sizeof(void *));
	jit_mark_likely(
		j, LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, fp, generic, ""), fast, other));
	LLVMPositionBuilderAtEnd(b, fast);
	r = jit_forward_call(b, stub, fty, generic);
	LLVMSetTailCall(r, 1);
	build_ret(b, fty, r);
	LLVMPositionBuilderAtEnd(b, other);
	r = jit_forward_call(b, stub, fty, epoch_fn);
	LLVMSetTailCall(r, 1);
	build_ret(b, fty, r);
	LLVMDisposeBuilder(b);
}

LLVMModuleRef jit_stub_new_module(struct jit *j, const char *name)
{
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, j->ctx);
	char *dl = strdup(LLVMGetDataLayoutStr(j->master));

	LLVMSetTarget(m, LLVMGetTarget(j->master));
	if (dl) {
		LLVMSetDataLayout(m, dl);
		free(dl);
	}
	return m;
}

LLVMValueRef jit_stub_like(struct jit *j, LLVMModuleRef m, LLVMValueRef f, const char *name)
{
	LLVMValueRef fn = LLVMAddFunction(m, name, LLVMGlobalGetValueType(f));

	LLVMSetFunctionCallConv(fn, LLVMGetFunctionCallConv(f));
	copy_attrs(f, fn, LLVMCountParams(f));
	LLVMAddTargetDependentFunctionAttr(fn, "target-cpu", j->cpu);
	LLVMAddTargetDependentFunctionAttr(fn, "target-features", j->features);
	return fn;
}

int jit_stub_module(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		    LLVMModuleRef *out, char *name, size_t namesz)
{
	LLVMValueRef f = LLVMGetNamedFunction(j->master, j->handlers[h]);
	LLVMTypeRef fty, ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMTypeRef enter_ty;
	LLVMValueRef stub, efn, rec, fp, r, leave;
	char ename[512];
	LLVMBuilderRef b;
	LLVMModuleRef m;

	if (!f)
		return -ENOENT;
	fty = LLVMGlobalGetValueType(f);
	if (LLVMIsFunctionVarArg(fty))
		return -EINVAL;
	snprintf(name, namesz, "%s.stub", j->handlers[h]);
	m = jit_stub_new_module(j, name);
	stub = jit_stub_like(j, m, f, name);
	snprintf(ename, sizeof(ename), "%s.epoch", name);
	efn = jit_stub_like(j, m, f, ename);
	LLVMSetLinkage(efn, LLVMInternalLinkage);
	LLVMAddAttributeAtIndex(
		efn, LLVMAttributeFunctionIndex,
		LLVMCreateEnumAttribute(j->ctx, LLVMGetEnumAttributeKindForName("noinline", 8), 0));
	build_dispatch(j, stub, fty, slot, j->handlers[h], efn);

	enter_ty = LLVMFunctionType(ptr, &ptr, 1, 0);
	b = LLVMCreateBuilderInContext(j->ctx);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(j->ctx, efn, "entry"));
	rec = j->tls_ok ? inline_enter(j, b, m, efn, dom)
			: LLVMBuildCall2(b, enter_ty, jit_helper(m, "__spec_rt_enter", enter_ty),
					 (LLVMValueRef[]){jit_host_ptr(j, dom)}, 1, "rec");
	fp = LLVMBuildLoad2(b, ptr, jit_host_ptr(j, slot), "variant");
	LLVMSetOrdering(fp, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(fp, sizeof(void *));
	r = jit_forward_call(b, efn, fty, fp);
	/* Leave: publish "outside" after the call (release). */
	leave = LLVMBuildStore(b, LLVMConstInt(LLVMInt64TypeInContext(j->ctx), 0, 0), rec);
	LLVMSetOrdering(leave, LLVMAtomicOrderingRelease);
	LLVMSetAlignment(leave, 8);
	build_ret(b, fty, r);
	LLVMDisposeBuilder(b);
	*out = m;
	return 0;
}
