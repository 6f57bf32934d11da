// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>

#include "workload.h"

/* xorshift64*: reproducible inputs without libc's rand() state. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

uint64_t workload_checksum(const uint64_t *O, int n)
{
	uint64_t sum = 0;
	long i;

	for (i = 0; i < (long)n * n; i++)
		sum += O[i] * (uint64_t)(2 * i + 1);
	return sum;
}

int workload_init(struct workload *w, int n, uint64_t seed)
{
	size_t cells = (size_t)n * (size_t)n;
	uint64_t s = seed ? seed : 1, *O;
	size_t i;
	int r, c, k;

	w->n = n;
	w->L = malloc(cells * sizeof(uint64_t));
	w->R = malloc(cells * sizeof(uint64_t));
	O = calloc(cells, sizeof(uint64_t));
	if (!w->L || !w->R || !O) {
		free(O);
		workload_fini(w);
		return -ENOMEM;
	}
	for (i = 0; i < cells; i++) {
		w->L[i] = next_rand(&s);
		w->R[i] = next_rand(&s);
	}
	for (r = 0; r < n; r++)
		for (k = 0; k < n; k++)
			for (c = 0; c < n; c++)
				O[r * n + c] += w->L[r * n + k] * w->R[k * n + c];
	w->checksum = workload_checksum(O, n);
	free(O);
	return 0;
}

void workload_fini(struct workload *w)
{
	free(w->L);
	free(w->R);
	w->L = NULL;
	w->R = NULL;
}
