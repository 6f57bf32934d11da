// SPDX-License-Identifier: GPL-2.0
/*
 * spec_gen() points for tests/test_gen.c: one input of 32 and of 128 bits,
 * two inputs, ranges. The functions behind the points are the test's fixed
 * code (declared here, defined in test_gen.c): natively these handlers
 * just call them, which makes the reference.
 */
#include <stddef.h>
#include <stdint.h>

#include <libspec/annotate.h>

#include "gen.h"

long gen_h32(const struct gen_table *t, uint32_t x)
{
	return spec_gen("m32", gen_match32, t, x);
}

long gen_h128(const struct gen_table *t, unsigned __int128 x)
{
	return spec_gen("m128", gen_match128, t, x) + 1;
}

long gen_h2(const struct gen_table *t, uint32_t a, uint16_t b)
{
	return spec_gen("two", gen_two, t, a, b);
}

long gen_hr(const struct gen_ranges *r, uint32_t x)
{
	return spec_gen("rg", gen_in_ranges, r, x);
}
