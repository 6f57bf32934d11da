// SPDX-License-Identifier: GPL-2.0
/*
 * Entry stubs: the stable address a service calls. Each has the handler's
 * own type and does: e = enter(epoch); f = load-acquire(slot); r = f(...);
 * store-release(e, 0); return r. Swapping a variant is one store to the slot.
 */
#include <stdlib.h>
#include <string.h>

#include "jit_stub.h"
#include "jit_guard.h"

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

int jit_stub_module(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		    LLVMModuleRef *out, char *name, size_t namesz)
{
	LLVMValueRef f = LLVMGetNamedFunction(j->master, j->handlers[h]);
	LLVMTypeRef fty, ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMTypeRef enter_ty;
	LLVMValueRef stub, rec, fp, r, leave;
	LLVMBuilderRef b;
	LLVMModuleRef m;
	char *dl;

	if (!f)
		return -ENOENT;
	fty = LLVMGlobalGetValueType(f);
	if (LLVMIsFunctionVarArg(fty))
		return -EINVAL;
	snprintf(name, namesz, "%s.stub", j->handlers[h]);
	m = LLVMModuleCreateWithNameInContext(name, j->ctx);
	LLVMSetTarget(m, LLVMGetTarget(j->master));
	dl = strdup(LLVMGetDataLayoutStr(j->master));
	if (dl) {
		LLVMSetDataLayout(m, dl);
		free(dl);
	}
	stub = LLVMAddFunction(m, name, fty);
	LLVMSetFunctionCallConv(stub, LLVMGetFunctionCallConv(f));
	copy_attrs(f, stub, LLVMCountParams(f));
	LLVMAddTargetDependentFunctionAttr(stub, "target-cpu", j->cpu);
	LLVMAddTargetDependentFunctionAttr(stub, "target-features", j->features);

	enter_ty = LLVMFunctionType(ptr, &ptr, 1, 0);
	b = LLVMCreateBuilderInContext(j->ctx);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(j->ctx, stub, "entry"));
	rec = LLVMBuildCall2(b, enter_ty, jit_helper(m, "__spec_rt_enter", enter_ty),
			     (LLVMValueRef[]){jit_host_ptr(j, dom)}, 1, "rec");
	fp = LLVMBuildLoad2(b, ptr, jit_host_ptr(j, slot), "variant");
	LLVMSetOrdering(fp, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(fp, sizeof(void *));
	r = jit_forward_call(b, stub, fty, fp);
	/* Leave: publish "outside" after the call (release). */
	leave = LLVMBuildStore(b, LLVMConstInt(LLVMInt64TypeInContext(j->ctx), 0, 0), rec);
	LLVMSetOrdering(leave, LLVMAtomicOrderingRelease);
	LLVMSetAlignment(leave, 8);
	if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, r);
	LLVMDisposeBuilder(b);
	*out = m;
	return 0;
}
