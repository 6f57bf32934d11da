/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code cache tests' runtime (tests/handlers/code_cache.c): a value
 * point k, a pointer point tab, a generator point find over a table, and
 * checks of every handler against the native build.
 */
#ifndef LIBSPEC_TEST_CACHE_FIXTURE_H
#define LIBSPEC_TEST_CACHE_FIXTURE_H

#include <stdarg.h>
#include <stdint.h>

#include "handlers/code_cache.h"
#include "libspec/libspec.h"

struct spec_gen;

/* The print callback of cct_open()'s runtimes: counts the warnings about
 * the code cache (then as tu_print()).
 */
void cct_print(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap);
/* Code cache warnings since the last call; the last one into *@last. */
int cct_cache_lines(const char **last);

/* Point find's generator; @ctx non-NULL: code the cache cannot rebind. */
int gen_find(void *ctx, struct spec_gen *g);
/* A table of CC_TABLE_MAX entries whose values depend on @seed. */
void cct_table(struct cc_table *t, long seed);
/* A loaded runtime of @ir on cache directory @dir (bound @max), or NULL. */
struct spec_runtime *cct_open(const char *ir, const char *dir, uint64_t max);
/* k, guarded, sampled every @every calls (0: not), tab, find. */
int cct_specialize_every(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t,
			 uint32_t every);
int cct_specialize(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t);
/* Mismatches of the JIT handlers against the native build (0: none). */
int cct_mismatches(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t);
struct spec_runtime_stats cct_stats(struct spec_runtime *rt);
/* Bytes of cache files in @d. */
uint64_t cct_dir_bytes(const char *d);
/* Entries of @d whose name contains @what. */
int cct_count(const char *d, const char *what);

#endif /* LIBSPEC_TEST_CACHE_FIXTURE_H */
