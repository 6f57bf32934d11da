/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matmul handler (examples/matmul/handlers.c) compiled ahead of time:
 * generic, and with B a compile-time constant - the limit a JIT-constant B
 * can reach.
 */
#ifndef MMUL_AOT_H
#define MMUL_AOT_H

#include <stdint.h>

typedef void (*mmul_fn)(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);

/* The native build with B a variable. */
void mmul_aot_generic(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);

/* The native build with B fixed to @b (its b argument ignored), or NULL
 * when @b is not a power of two from 2 to 64.
 */
mmul_fn mmul_aot_const(int b);

#endif /* MMUL_AOT_H */
