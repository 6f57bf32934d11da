/* SPDX-License-Identifier: GPL-2.0 */
/* Data and fixed code of tests/handlers/gen.c. */
#ifndef TESTS_HANDLERS_GEN_H
#define TESTS_HANDLERS_GEN_H

#include <stddef.h>
#include <stdint.h>

/* (x & mask) == value -> out; the most specific match wins, else dflt. */
struct gen_rule {
	unsigned __int128 mask, value;
	long out;
};

struct gen_table {
	size_t n;
	struct gen_rule *r;
	long dflt;
};

/* lo[i] <= x <= hi[i] -> out[i], else -1. */
struct gen_ranges {
	size_t n;
	uint32_t *lo, *hi;
	long *out;
};

long gen_match32(const struct gen_table *t, uint32_t x);
long gen_match128(const struct gen_table *t, unsigned __int128 x);
long gen_two(const struct gen_table *t, uint32_t a, uint16_t b);
long gen_in_ranges(const struct gen_ranges *r, uint32_t x);

long gen_h32(const struct gen_table *t, uint32_t x);
long gen_h128(const struct gen_table *t, unsigned __int128 x);
long gen_h2(const struct gen_table *t, uint32_t a, uint16_t b);
long gen_hr(const struct gen_ranges *r, uint32_t x);

#endif /* TESTS_HANDLERS_GEN_H */
