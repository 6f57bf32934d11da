/* SPDX-License-Identifier: GPL-2.0 */
/* The matmul server's hot handler, shared by the native and the IR build. */
#ifndef MATMUL_HANDLERS_H
#define MATMUL_HANDLERS_H

#include <stdint.h>

/*
 * O += L * R for N x N row-major matrices, in blocks of B x B (any B >= 1
 * and N >= 1; the runtime specializes B to a power of two from 2 to 64).
 */
void matmul(const uint64_t *L, const uint64_t *R, uint64_t *O, int N, int B);

#endif /* MATMUL_HANDLERS_H */
