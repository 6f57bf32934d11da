/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The matmul server's requests: pre-generated input matrices of one size and
 * the checksum every correct answer must have, computed by a plain triple
 * loop that shares no code with the handler (so a wrong variant is caught).
 */
#ifndef MATMUL_WORKLOAD_H
#define MATMUL_WORKLOAD_H

#include <stdint.h>

struct workload {
	int n;
	uint64_t *L, *R;
	uint64_t checksum; /* of L * R */
};

/* Random inputs of size @n from @seed. Returns 0 or -ENOMEM. */
int workload_init(struct workload *w, int n, uint64_t seed);
void workload_fini(struct workload *w);

/* Position-weighted sum of an n x n result, wrapping mod 2^64. */
uint64_t workload_checksum(const uint64_t *O, int n);

#endif /* MATMUL_WORKLOAD_H */
