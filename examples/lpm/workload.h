/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Iridescent paper's LPM workloads on our table: many routes plus a
 * default route, and a stream of destinations drawn from a small hot set
 *   A: each hot destination lies under one of the most specific routes
 *   B: each hot destination matches only the default route
 */
#ifndef LPM_WORKLOAD_H
#define LPM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "lpm.h"

#define WORKLOAD_STREAM 4096

struct workload {
	struct lpm *t;
	int width;
	char kind; /* 'A' or 'B' */
	lpm_u128 hot[64];
	size_t nr_hot;
	lpm_u128 stream[WORKLOAD_STREAM]; /* destinations, in lookup order */
	uint64_t seed;
};

/* Build table and stream; 0 or -ENOMEM / -EINVAL. */
int workload_init(struct workload *w, int width, char kind, size_t nr_routes, size_t nr_hot,
		  uint64_t seed);
/* New hot destinations of the same kind (the hot set shifts). */
void workload_shift(struct workload *w);
void workload_fini(struct workload *w);

#endif /* LPM_WORKLOAD_H */
