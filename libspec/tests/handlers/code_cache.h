/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by tests/handlers/code_cache.c and tests/test_code_cache.c. */
#ifndef LIBSPEC_TEST_CODE_CACHE_H
#define LIBSPEC_TEST_CODE_CACHE_H

#include <stdint.h>

#define CC_TABLE_MAX 8

/* What the generator of point "find" compiles: key -> value pairs. */
struct cc_table {
	uint32_t n;
	uint32_t keys[CC_TABLE_MAX];
	long vals[CC_TABLE_MAX];
};

/* The fixed code behind "find" (defined by the test). */
long cc_lookup(const struct cc_table *t, uint32_t x);

long cc_scale(long a, long k);
long cc_read(const long *tab, long i);
long cc_find(const struct cc_table *t, uint32_t x);

#endif /* LIBSPEC_TEST_CODE_CACHE_H */
