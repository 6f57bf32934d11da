/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matmul handler (examples/matmul/handlers.c) compiled ahead of time:
 * generic, and once per block size with B a compile-time constant - the
 * limit a JIT-constant B can reach.
 */
#ifndef MMUL_AOT_H
#define MMUL_AOT_H

#include <stdint.h>

typedef void (*mmul_fn)(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);

/* B a variable, as the native build of the server has it. */
void mmul_aot_generic(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
/* B fixed at build time; the b argument is ignored. */
void mmul_aot_b2(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
void mmul_aot_b4(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
void mmul_aot_b8(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
void mmul_aot_b16(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
void mmul_aot_b32(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);
void mmul_aot_b64(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b);

#endif /* MMUL_AOT_H */
