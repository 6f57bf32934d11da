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

/* Add @m (consumed) under a new tracker and resolve @names into @addrs. */
int jit_add_and_lookup(struct jit *j, LLVMModuleRef m, char **names, size_t n, uint64_t *addrs,
		       struct jit_code **code, char *err, size_t errsz);

#endif /* LIBSPEC_JIT_INT_H */
