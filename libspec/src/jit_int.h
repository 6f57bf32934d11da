/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by the jit*.c files, the only ones that see LLVM. */
#ifndef LIBSPEC_JIT_INT_H
#define LIBSPEC_JIT_INT_H

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <errno.h>
#include <stdio.h>

#include "jit.h"

struct jit {
	LLVMOrcLLJITRef lljit;
	LLVMOrcJITDylibRef jd;
	LLVMOrcThreadSafeContextRef tsctx;
	LLVMContextRef ctx;	 /* owned by tsctx */
	LLVMModuleRef master;	 /* parsed and prepared IR, never compiled */
	LLVMTargetMachineRef tm; /* for the optimizer's cost models */
	char *cpu, *features;
	struct point_table *pts;
	struct epoch_domain *dom;
	char **handlers; /* defined external functions, original names */
	size_t nr_handlers;
	char **defined; /* names given to jit_define_symbol() */
	size_t nr_defined;
	FILE *perf_map; /* /tmp/perf-<pid>.map, or NULL */
	unsigned int nr_stubs;
};

struct jit_code {
	LLVMOrcResourceTrackerRef rt;
};

/* Copy an LLVM error's message into @err and consume it. */
void jit_errmsg(LLVMErrorRef e, const char *what, char *err, size_t errsz);

/* jit_ir.c: parse @path into j->ctx and prepare it (host CPU, mem2reg). */
int jit_ir_load(struct jit *j, const char *path, char *err, size_t errsz);
/* jit_ir.c: collect points and handlers of j->master. */
int jit_ir_scan(struct jit *j, char *err, size_t errsz);
/* jit_ir.c: point kind of a marker call, or 0 if @inst is not one. */
enum spec_point_kind jit_ir_marker_kind(LLVMValueRef inst);
/* jit_ir.c: string contents of a constant global (label, file), or NULL. */
const char *jit_ir_cstring(LLVMValueRef v);

/* jit_spec.c: apply @req to module @m (a clone of the master). */
int jit_spec_apply(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req, char *err,
		   size_t errsz);

/* jit_guard.c */
struct guard_site {
	LLVMValueRef fn; /* function holding the point */
	LLVMValueRef at; /* the marker call */
	bool hoistable;	 /* checked value is a pure expression of arguments */
	bool clean;	 /* only reached through side-effect-free code */
};
/* Whether guards can be placed at marker @call for checked value @v. */
void jit_guard_classify(LLVMValueRef fn, LLVMValueRef call, LLVMValueRef v, struct guard_site *gs);
/*
 * Make "@ok(@v) or fall back": where @v is pure over the arguments, the
 * check is rebuilt at a new entry block; otherwise at the point. @build_ok
 * emits the i1 check for a value; on failure spec_rt_guard_fail(@point,
 * @observed) runs, then @generic with the function's arguments, whose result
 * is returned.
 */
int jit_guard_emit(struct jit *j, const struct guard_site *gs, LLVMValueRef v,
		   LLVMValueRef (*build_ok)(LLVMBuilderRef b, LLVMValueRef v, void *arg), void *arg,
		   struct spec_point *point, LLVMValueRef generic, char *err, size_t errsz);
/* Move @at and what follows it in its block to a new block; returns it. */
LLVMBasicBlockRef jit_split_before(struct jit *j, LLVMValueRef at);
/* Constant pointer to a host object. */
LLVMValueRef jit_host_ptr(struct jit *j, const void *p);
/* Declaration of runtime helper @name with type @ty in @m. */
LLVMValueRef jit_helper(LLVMModuleRef m, const char *name, LLVMTypeRef ty);
/* Call @callee with the arguments of @fn, copying parameter attributes. */
LLVMValueRef jit_forward_call(LLVMBuilderRef b, LLVMValueRef fn, LLVMTypeRef fty,
			      LLVMValueRef callee);

/* jit_stub.c */
int jit_stub_module(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		    LLVMModuleRef *out, char *name, size_t namesz);

#endif /* LIBSPEC_JIT_INT_H */
