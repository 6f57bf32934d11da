/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the LPM benchmark's parts (bench_lpm.c, bench_levels.c, bench_shift.c,
 * bench_policy.c). */
#ifndef LPM_BENCH_LPM_H
#define LPM_BENCH_LPM_H

#include <libspec/libspec.h>

#include "workload.h"

/* Lookups per second of @f (route4/route6 type by w->width) over w's stream. */
double bench_rate(void *f, const struct workload *w, long lookups);
/* Specialize @label for w's table with generator parameter @param. */
int bench_specialize(struct spec_runtime *rt, const char *label, const struct workload *w,
		     int64_t param, uint32_t every);
/* NI compile time by route count, IPv4 and IPv6, at default<O3>. */
int bench_compile(struct spec_runtime *rt);
/* NI at each compile level: phases and lookups/s side by side. */
int bench_levels(struct spec_runtime *rt);
/* The hot-set shift (the paper's Fig. 9): FP follows the hot set. */
int bench_shift(struct spec_runtime *rt);
/* The exhaustive policy choosing the fast path's size. */
int bench_policy(struct spec_runtime *rt);

#endif /* LPM_BENCH_LPM_H */
