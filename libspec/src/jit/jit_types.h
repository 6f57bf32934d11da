/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The types of the JIT's interface: what a variant is asked to be and what
 * building it cost. Apart from jit.h so that the internals (jit_int.h) can
 * use them without including the interface their files implement.
 */
#ifndef LIBSPEC_JIT_TYPES_H
#define LIBSPEC_JIT_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "epoch.h"
#include "points.h"

struct jit;
struct jit_code;

/* What a variant does at one point (indexed like the point table). */
struct jit_setting {
	int mode; /* enum cfg_mode */
	int64_t value;
	bool guard;
	uint32_t every;
	const struct spec_case *cases; /* custom points: inline answers */
	size_t nr_cases;
	/* spec_gen points: generator, and the hot inputs with their answers */
	int (*emit)(void *ctx, struct spec_gen *g);
	void *emit_ctx;
	int64_t param;
	const struct spec_observed *hot;
	size_t nr_hot;
};

struct jit_variant_req {
	unsigned int id;		    /* 0: the generic variant */
	const char *pipeline;		    /* LLVM new-PM pipeline text */
	const struct jit_setting *settings; /* [nr points]; NULL: all disabled */
	bool fast_codegen;		    /* LLVM's -O0 codegen instead of the JIT's */
};

/* What the disk cache (jit_set_cache()) did for one variant. */
enum jit_cache_result {
	JIT_CACHE_OFF,	    /* no cache */
	JIT_CACHE_HIT,	    /* loaded from a file */
	JIT_CACHE_STORED,   /* compiled and stored */
	JIT_CACHE_UNSTORED, /* compiled, the store failed (logged) */
	JIT_CACHE_BYPASS,   /* not rebindable, or a live variant's twin: not stored */
};

struct jit_phases {
	uint64_t specialize_ns, optimize_ns, codegen_ns;
	enum jit_cache_result cache;
	bool cache_rejected; /* a file was there but unusable (corrupt, other key) */
};

#endif /* LIBSPEC_JIT_TYPES_H */
