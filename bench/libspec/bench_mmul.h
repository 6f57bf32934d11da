/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_MMUL_H
#define BENCH_MMUL_H

#include <libspec/libspec.h>

#include "mmul_aot.h"

/*
 * MMul cycles/op for N = 64, 256, 1024: JIT generic (B a variable) vs JIT
 * with B constant vs the same source compiled ahead of time with B constant
 * (the limit). @rt holds examples/matmul's handler IR. Returns 0 or -errno.
 */
int bench_mmul(struct spec_runtime *rt);

/* Fewest TSC cycles of @reps calls of @f (N = @n, block @b) into *@cycles;
 * -EPROTO if its result differs from the AOT generic build's.
 */
int bench_mmul_best(mmul_fn f, int n, int b, int reps, double *cycles);

#endif /* BENCH_MMUL_H */
