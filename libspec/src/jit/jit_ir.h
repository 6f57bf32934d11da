/* SPDX-License-Identifier: GPL-2.0 */
/* Loading the handler IR and finding its points (LLVM side). */
#ifndef LIBSPEC_JIT_IR_H
#define LIBSPEC_JIT_IR_H

#include "jit/jit_int.h"
#include "libspec/gen.h"

/* Operand of a spec_gen marker where its inputs begin (label, file, line,
 * fn, data come first).
 */
#define JIT_GEN_FIRST_INPUT 5

/* Parse @path into j->ctx and prepare it (host CPU, mem2reg). */
int jit_ir_load(struct jit *j, const char *path, char *err, size_t errsz);
/*
 * Whether a 128-bit spec_gen input is passed to its function as the two
 * i64 parameters at @params (@left of them remain).
 */
bool jit_ir_gen_split(LLVMTypeRef input, const LLVMTypeRef *params, unsigned int left);
/* Collect points and handlers of j->master. */
int jit_ir_scan(struct jit *j, char *err, size_t errsz);
/* Point kind of a marker call, or 0 if @inst is not one. */
enum spec_point_kind jit_ir_marker_kind(LLVMValueRef inst);
/* String contents of a constant global (label, file), or NULL. */
const char *jit_ir_cstring(LLVMValueRef v);

#endif /* LIBSPEC_JIT_IR_H */
