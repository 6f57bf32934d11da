/* SPDX-License-Identifier: GPL-2.0 */
/* Guard placement and the IR helpers guards and stubs share. */
#ifndef LIBSPEC_JIT_GUARD_H
#define LIBSPEC_JIT_GUARD_H

#include "jit/jit_int.h"

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

#endif /* LIBSPEC_JIT_GUARD_H */
