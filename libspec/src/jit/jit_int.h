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

#include "jit/jit_types.h"

struct jit {
	LLVMOrcLLJITRef lljit;
	LLVMOrcJITDylibRef jd;
	LLVMOrcThreadSafeContextRef tsctx;
	LLVMContextRef ctx;	      /* owned by tsctx */
	LLVMModuleRef master;	      /* parsed and prepared IR, never compiled */
	LLVMTargetMachineRef tm;      /* for the optimizer's cost models */
	LLVMTargetMachineRef tm_fast; /* -O0 codegen of first tiers, made on first use */
	char *cpu, *features;
	struct point_table *pts;
	struct epoch_domain *dom;
	char **handlers; /* defined external functions, original names */
	size_t nr_handlers;
	char **defined; /* names given to jit_define_symbol() */
	size_t nr_defined;
	FILE *perf_map;		    /* /tmp/perf-<pid>.map, or NULL */
	struct jit_sym_size *sizes; /* symbols of the last object linked */
	size_t nr_sizes;
	struct epoch_tls tls; /* inline thread-record access, if tls_ok */
	bool tls_ok;
	const struct libspec_log *log; /* the runtime's */
	struct code_cache *cache;      /* on-disk variants (jit_cache.c), or NULL */
	char *cache_key;	       /* the key parts every variant shares */
};

struct jit_sym_size {
	char *name;
	uint64_t size;
};

struct jit_code {
	LLVMOrcResourceTrackerRef rt;
};

/* Copy an LLVM error's message into @err and consume it. */
void jit_errmsg(LLVMErrorRef e, const char *what, char *err, size_t errsz);

/* Run the variant pipeline (and globaldce for specialized ones) on @m. */
int jit_optimize(struct jit *j, LLVMModuleRef m, const struct jit_variant_req *req, char *err,
		 size_t errsz);
/* -ENOENT naming the first symbol of @m the JIT could not resolve, or 0. */
int jit_check_unresolved(struct jit *j, LLVMModuleRef m, char *err, size_t errsz);
/* The target machine variants are emitted with (-O0 for @fast), or NULL. */
LLVMTargetMachineRef jit_codegen_tm(struct jit *j, bool fast, char *err, size_t errsz);
/* @m's object code by @tm into *@obj; consumes @m. */
LLVMErrorRef jit_emit_object(LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMMemoryBufferRef *obj);
/* Under LIBSPEC_DUMP_IR=<dir>, write @m as variant @id's IR (@pre: before
 * the pipeline, with LIBSPEC_DUMP_IR_PRE=1).
 */
void jit_dump_ir(LLVMModuleRef m, unsigned int id, bool pre);
/* Free a NULL-terminated array of names and the array. */
void jit_free_names(char **names);
/* Add object @obj (consumed) under a new tracker and resolve @names. */
int jit_add_object(struct jit *j, LLVMMemoryBufferRef obj, char **names, size_t n, uint64_t *addrs,
		   struct jit_code **code, char *err, size_t errsz);

/* Add @m (consumed) under a new tracker and resolve @names into @addrs. */
int jit_add_and_lookup(struct jit *j, LLVMModuleRef m, char **names, size_t n, uint64_t *addrs,
		       struct jit_code **code, char *err, size_t errsz);

#endif /* LIBSPEC_JIT_INT_H */
