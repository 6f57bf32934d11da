/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the LPM tests: test_lpm.c (FP, NI, NI-FP, updates) and
 * test_lpm_ni.c (NI's interval tree at the route bounds, per shape).
 */
#ifndef LPM_TEST_LPM_H
#define LPM_TEST_LPM_H

#include <libspec/libspec.h>

#include "lpm.h"

#define LOOKUPS 4000

typedef long (*route_fn)(const struct lpm *, lpm_u128);
typedef long (*route4_fn)(const struct lpm *, uint32_t);

extern struct spec_runtime *rt; /* with lpm_gen for lpm4 and lpm6 */

uint64_t rnd(uint64_t *s);
lpm_u128 rnd_addr(int width, uint64_t *s);
/* An address under a random route (or anywhere, a quarter of the time). */
lpm_u128 addr_for(const struct lpm *t, uint64_t *s);
/* route4/route6 @f on @x, by @width. */
long call(void *f, int width, const struct lpm *t, lpm_u128 x);
/* Specialize @label for @t (lpm_gen_config()) and wait. */
int specialize(const char *label, const struct lpm *t, int64_t param, uint32_t every);

void test_lpm_ni_bounds_ipv4(void **state);
void test_lpm_ni_bounds_ipv6(void **state);
void test_lpm_dump_pre_ir(void **state);

#endif /* LPM_TEST_LPM_H */
