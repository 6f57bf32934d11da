// SPDX-License-Identifier: GPL-2.0
/*
 * Call timers: a function of the handler's own type that forwards to the
 * variant under measurement and times one call in mask + 1. It is
 * only ever in a slot while the runtime compares compile tiers, so the
 * calls of a service that is not being measured pay nothing for it.
 */
#include <stdlib.h>

#include "jit/jit_guard.h"
#include "jit/jit_int.h"
#include "jit/jit_stub.h"
#include "jit/jit_timer.h"
#include "jit/jit_tls.h"

static LLVMValueRef cycles(struct jit *j, LLVMBuilderRef b, LLVMModuleRef m)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	unsigned int id = LLVMLookupIntrinsicID("llvm.readcyclecounter", 21);
	LLVMValueRef fn = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);

	return LLVMBuildCall2(b, LLVMFunctionType(i64, NULL, 0, 0), fn, NULL, 0, "");
}

static LLVMValueRef relaxed(LLVMValueRef inst)
{
	LLVMSetOrdering(inst, LLVMAtomicOrderingMonotonic);
	LLVMSetAlignment(inst, 8);
	return inst;
}

/* ring[samples++] = @d while the window has room */
static void record(struct jit *j, LLVMBuilderRef b, LLVMValueRef fn, struct jit_timer *t,
		   LLVMValueRef d)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(j->ctx, fn, "keep");
	LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(j->ctx, fn, "done");
	LLVMValueRef idx, slot;

	idx = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpAdd, jit_host_ptr(j, &t->samples),
				 LLVMConstInt(i64, 1, 0), LLVMAtomicOrderingMonotonic, 0);
	LLVMBuildCondBr(b,
			LLVMBuildICmp(b, LLVMIntULT, idx, LLVMConstInt(i64, JIT_TIMER_RING, 0), ""),
			keep, done);
	LLVMPositionBuilderAtEnd(b, keep);
	slot = LLVMBuildGEP2(b, i64, jit_host_ptr(j, t->ring), &idx, 1, "");
	relaxed(LLVMBuildStore(b, d, slot));
	LLVMBuildBr(b, done);
	LLVMPositionBuilderAtEnd(b, done);
}

static void ret_of(LLVMBuilderRef b, LLVMTypeRef fty, LLVMValueRef r)
{
	if (LLVMGetTypeKind(LLVMGetReturnType(fty)) == LLVMVoidTypeKind)
		LLVMBuildRetVoid(b);
	else
		LLVMBuildRet(b, r);
}

static void build_body(struct jit *j, LLVMModuleRef m, LLVMValueRef fn, LLVMTypeRef fty,
		       struct jit_timer *t)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(j->ctx, fn, "entry");
	LLVMBasicBlockRef plain = LLVMAppendBasicBlockInContext(j->ctx, fn, "plain");
	LLVMBasicBlockRef timed = LLVMAppendBasicBlockInContext(j->ctx, fn, "timed");
	LLVMBuilderRef b = LLVMCreateBuilderInContext(j->ctx);
	LLVMValueRef n, mask, target, r, t0, t1, skip;

	LLVMPositionBuilderAtEnd(b, entry);
	n = relaxed(LLVMBuildLoad2(b, i64, jit_host_ptr(j, &t->calls), "calls"));
	relaxed(LLVMBuildStore(b, LLVMBuildAdd(b, n, LLVMConstInt(i64, 1, 0), ""),
			       jit_host_ptr(j, &t->calls)));
	target = LLVMBuildLoad2(b, ptr, jit_host_ptr(j, &t->target), "target");
	LLVMSetOrdering(target, LLVMAtomicOrderingAcquire);
	LLVMSetAlignment(target, sizeof(void *));
	mask = relaxed(LLVMBuildLoad2(b, i64, jit_host_ptr(j, &t->mask), "mask"));
	skip = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, n, mask, ""), LLVMConstInt(i64, 0, 0),
			     "");
	jit_mark_likely(j, LLVMBuildCondBr(b, skip, plain, timed));

	LLVMPositionBuilderAtEnd(b, plain);
	r = jit_forward_call(b, fn, fty, target);
	LLVMSetTailCall(r, 1);
	ret_of(b, fty, r);

	LLVMPositionBuilderAtEnd(b, timed);
	t0 = cycles(j, b, m);
	r = jit_forward_call(b, fn, fty, target);
	t1 = cycles(j, b, m);
	record(j, b, fn, t, LLVMBuildSub(b, t1, t0, "cycles"));
	ret_of(b, fty, r);
	LLVMDisposeBuilder(b);
}

int jit_build_timer(struct jit *j, size_t h, struct jit_timer *t, uint64_t *addr, char *err,
		    size_t errsz)
{
	LLVMValueRef f = LLVMGetNamedFunction(j->master, j->handlers[h]), fn;
	char name[300], *names[1] = {name};
	struct jit_code *code;
	LLVMModuleRef m;
	int ret;

	if (!f || LLVMIsFunctionVarArg(LLVMGlobalGetValueType(f))) {
		snprintf(err, errsz, "handler '%s': no call timer for %s", j->handlers[h],
			 f ? "a variadic function" : "an unknown function");
		return f ? -EINVAL : -ENOENT;
	}
	snprintf(name, sizeof(name), "%s.timer", j->handlers[h]);
	m = jit_stub_new_module(j, name);
	fn = jit_stub_like(j, m, f, name);
	build_body(j, m, fn, LLVMGlobalGetValueType(f), t);
	ret = jit_add_and_lookup(j, m, names, 1, addr, &code, err, errsz);
	if (!ret) {
		/* Like the stubs: lives as long as the JIT. */
		LLVMOrcReleaseResourceTracker(code->rt);
		free(code);
	}
	return ret;
}
