/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LLVM side of libspec behind a plain-C interface: load the handler IR,
 * find its points, build variants (specialize, optimize, JIT) and entry
 * stubs, release them. Not thread-safe: the runtime serializes every call.
 */
#ifndef LIBSPEC_JIT_H
#define LIBSPEC_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "epoch.h"
#include "jit/jit_types.h"
#include "points.h"

struct libspec_log;

/*
 * Parse @path, collect its points into @pts (sampling through @dom) and its
 * handlers. On error, -errno and a message in @err.
 */
int jit_open(struct jit **out, const char *path, struct point_table *pts, struct epoch_domain *dom,
	     const struct libspec_log *log, bool perf_map, char *err, size_t errsz);
void jit_close(struct jit *j);

size_t jit_nr_handlers(const struct jit *j);
const char *jit_handler_name(const struct jit *j, size_t i);
/* Index of handler @name, or -ENOENT. */
int jit_handler_index(const struct jit *j, const char *name);

int jit_define_symbol(struct jit *j, const char *name, uint64_t addr, char *err, size_t errsz);

/*
 * Build a variant: clone the IR, apply the settings, verify, optimize, add
 * to the JIT and resolve every handler into @addrs[nr_handlers]. Nothing is
 * left behind on failure.
 */
int jit_build_variant(struct jit *j, const struct jit_variant_req *req, struct jit_code **code,
		      uint64_t *addrs, struct jit_phases *ph, char *err, size_t errsz);

/*
 * Entry stub of handler @h with the handler's own type: enters the epoch of
 * @dom, calls the function pointer in *@slot, leaves.
 */
int jit_build_stub(struct jit *j, size_t h, void *const *slot, struct epoch_domain *dom,
		   uint64_t *addr, char *err, size_t errsz);

/*
 * Which handlers a variant with @settings would recompile (@changed has
 * one entry per handler); the others run the generic code in it.
 */
int jit_changed_handlers(struct jit *j, const struct jit_setting *settings, bool *changed);

struct code_cache;
/*
 * Serve and store variants through @cc (owned by the JIT from now on, even
 * on failure). Only before the first variant. 0 or -errno with a message.
 */
int jit_set_cache(struct jit *j, struct code_cache *cc, char *err, size_t errsz);

/* Release a variant's code; callers guarantee no thread runs it. */
void jit_free_code(struct jit *j, struct jit_code *code);

#endif /* LIBSPEC_JIT_H */
