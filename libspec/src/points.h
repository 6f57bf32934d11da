/* SPDX-License-Identifier: GPL-2.0 */
/* The points found in the handler IR, one per label, with their counters. */
#ifndef LIBSPEC_POINTS_H
#define LIBSPEC_POINTS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "libspec/libspec.h"

struct spec_gen;

struct spec_site {
	char *function;
	char *file;
	int line;
};

/* Immutable once published; replaced, never freed before the runtime. */
struct spec_cleanup {
	spec_cleanup_fn fn;
	void *ctx;
	struct spec_cleanup *older;
};

struct spec_point {
	char *label;
	enum spec_point_kind kind;
	size_t idx; /* index in the table and in per-thread sampler arrays */
	int64_t *values;
	size_t nr_values;
	int64_t lo, hi;
	struct spec_site *sites;
	size_t nr_sites;
	/* Set when some site cannot take a guard: "file:line: reason". */
	char *unguardable;
	_Atomic uint64_t failures;
	_Atomic(struct spec_cleanup *) cleanup;
	spec_custom_gen_fn gen; /* under the runtime lock */
	void *gen_ctx;
	/* spec_gen() points: the code generator (libspec/gen.h's spec_gen_fn) */
	int (*emit)(void *ctx, struct spec_gen *g);
	void *emit_ctx;
	uint64_t version;	  /* data version (invalidations), under the runtime lock */
	struct epoch_domain *dom; /* the sampler's per-thread records */
};

struct point_table {
	struct spec_point **p;
	size_t n, cap;
};

struct spec_point *points_find(const struct point_table *t, const char *label);

/*
 * Add a site of @label; the first site defines kind and values, later ones
 * must agree. On error a message is written to @err.
 */
int points_add_site(struct point_table *t, const char *label, enum spec_point_kind kind,
		    const int64_t *values, size_t nr_values, int64_t lo, int64_t hi,
		    const struct spec_site *site, char *err, size_t errsz);

/* Record why a site of @p cannot be guarded (first reason kept). */
void points_set_unguardable(struct spec_point *p, const char *why);

void points_free(struct point_table *t);

const char *points_kind_name(enum spec_point_kind kind);

/* Called from JIT code when a guard fails: count, then the cleanup. */
void spec_rt_guard_fail(struct spec_point *p, int64_t observed);

#endif /* LIBSPEC_POINTS_H */
