// SPDX-License-Identifier: GPL-2.0
/*
 * The epoch and sampler fast paths need this thread's record. Calling into
 * C for it costs a call per handler entry and per instrumented point; on
 * x86-64 the thread-local cache sits at a fixed offset from %fs in every
 * thread (static TLS), so JIT code reads it directly through LLVM's address
 * space 257 (%fs-relative) and calls C only on a miss.
 */
#include "jit/jit_guard.h"
#include "jit/jit_tls.h"

#define X86_FS_ADDRSPACE 257

void jit_mark_likely(struct jit *j, LLVMValueRef br)
{
	LLVMTypeRef i32 = LLVMInt32TypeInContext(j->ctx);
	LLVMMetadataRef md[3] = {
		LLVMMDStringInContext2(j->ctx, "branch_weights", 14),
		LLVMValueAsMetadata(LLVMConstInt(i32, 1u << 20, 0)),
		LLVMValueAsMetadata(LLVMConstInt(i32, 1, 0)),
	};

	LLVMSetMetadata(br, LLVMGetMDKindIDInContext(j->ctx, "prof", 4),
			LLVMMetadataAsValue(j->ctx, LLVMMDNodeInContext2(j->ctx, md, 3)));
}

static LLVMValueRef fs_ptr(struct jit *j, intptr_t off)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);

	return LLVMConstIntToPtr(LLVMConstInt(i64, (unsigned long long)(int64_t)off, 1),
				 LLVMPointerTypeInContext(j->ctx, X86_FS_ADDRSPACE));
}

LLVMValueRef jit_tls_field(struct jit *j, LLVMBuilderRef b, LLVMValueRef base, size_t off)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(j->ctx);
	LLVMValueRef idx = LLVMConstInt(LLVMInt64TypeInContext(j->ctx), off, 0);

	return off ? LLVMBuildGEP2(b, i8, base, &idx, 1, "") : base;
}

LLVMValueRef jit_tls_rec(struct jit *j, LLVMBuilderRef b, LLVMValueRef fn,
			 const struct epoch_domain *dom, bool rebindable, LLVMBasicBlockRef slow)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(j->ctx);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(j->ctx, 0);
	LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(j->ctx, fn, "tls.hit");
	LLVMValueRef id, want, same;

	id = LLVMBuildLoad2(b, i64, fs_ptr(j, j->tls.off_id), "tls.id");
	want = LLVMConstInt(i64, dom->id, 0);
	if (rebindable) {
		/* Set once when the domain is made: invariant for the code. */
		want = LLVMBuildLoad2(b, i64, jit_host_ptr(j, &dom->id), "dom.id");
		LLVMSetMetadata(want, LLVMGetMDKindIDInContext(j->ctx, "invariant.load", 14),
				LLVMMetadataAsValue(j->ctx, LLVMMDNodeInContext2(j->ctx, NULL, 0)));
	}
	same = LLVMBuildICmp(b, LLVMIntEQ, id, want, "");
	jit_mark_likely(j, LLVMBuildCondBr(b, same, fast, slow));
	LLVMPositionBuilderAtEnd(b, fast);
	return LLVMBuildLoad2(b, ptr, fs_ptr(j, j->tls.off_rec), "tls.rec");
}
