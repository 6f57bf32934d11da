// SPDX-License-Identifier: GPL-2.0
/*
 * MMulBlockBench handler (the Iridescent paper, Fig. 2a): blocked square
 * matrix multiply, O += L * R, with the block size B and the matrix size N
 * as specialization points.
 *
 * Built twice from this one source: natively (annotations are identities,
 * this is the generic version) and to LLVM IR with spec-cc for the runtime.
 * With B a JIT-time constant the two inner loops have constant trip counts,
 * so the optimizer unrolls the k loop and vectorizes across j.
 */
#include <libspec/annotate.h>

#include "handlers.h"

void matmul(const uint64_t *L, const uint64_t *R, uint64_t *O, int n, int b)
{
	const int B = spec_enum("B", b, 2, 4, 8, 16, 32, 64);
	const int N = spec_generic("N", n);
	/* Full blocks in the paper's loop order; B is a power of two, so the
	 * edge is cheap to find and handled apart, keeping the block loops'
	 * trip counts exactly B.
	 */
	const int nb = N - N % B;

	for (int kk = 0; kk < nb; kk += B)
		for (int jj = 0; jj < nb; jj += B)
			for (int i = 0; i < N; i++)
				for (int j = jj; j < jj + B; j++)
					for (int k = kk; k < kk + B; k++)
						O[i * N + j] += L[i * N + k] * R[k * N + j];
	if (nb == N)
		return;
	for (int i = 0; i < N; i++) {
		for (int j = 0; j < nb; j++)
			for (int k = nb; k < N; k++)
				O[i * N + j] += L[i * N + k] * R[k * N + j];
		for (int j = nb; j < N; j++)
			for (int k = 0; k < N; k++)
				O[i * N + j] += L[i * N + k] * R[k * N + j];
	}
}
