// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "workload.h"

#define DEFAULT_NH 0

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static lpm_u128 rnd_addr(int width, uint64_t *s)
{
	return (((lpm_u128)rnd(s) << 64) | rnd(s)) & lpm_mask(width, width);
}

/* IPv4: /8../32, most of them /16../24 as in real tables; IPv6: /16../64
 * and some /128 host routes.
 */
static int rnd_len(int width, uint64_t *s)
{
	unsigned int r = (unsigned int)(rnd(s) % 100);

	if (width == 32)
		return r < 70 ? 16 + (int)(rnd(s) % 9) : 8 + (int)(rnd(s) % 25);
	return r < 90 ? 16 + (int)(rnd(s) % 49) : 128;
}

/* A hot destination of the workload's kind. */
static lpm_u128 pick(struct workload *w)
{
	struct lpm_route r[256];
	size_t n = lpm_routes(w->t, r, 256), i, best = 0;

	for (;;) {
		lpm_u128 x = rnd_addr(w->width, &w->seed);

		if (w->kind == 'B') {
			if (lpm_lookup(w->t, x) == DEFAULT_NH)
				return x;
			continue;
		}
		/* A: under the longest of a few sampled routes. */
		for (i = 1; i < 8 && n; i++) {
			size_t k = rnd(&w->seed) % (n < 256 ? n : 256);

			if (r[k].len > r[best].len)
				best = k;
		}
		x = (x & ~lpm_mask(r[best].len, w->width)) | r[best].prefix;
		if (lpm_lookup(w->t, x) == r[best].nh && r[best].len)
			return x;
	}
}

void workload_shift(struct workload *w)
{
	size_t i;

	for (i = 0; i < w->nr_hot; i++)
		w->hot[i] = pick(w);
	for (i = 0; i < WORKLOAD_STREAM; i++)
		w->stream[i] = w->hot[rnd(&w->seed) % w->nr_hot];
}

int workload_init(struct workload *w, int width, char kind, size_t nr_routes, size_t nr_hot,
		  uint64_t seed)
{
	size_t i;

	if (!nr_hot || nr_hot > 64 || (kind != 'A' && kind != 'B'))
		return -EINVAL;
	w->t = lpm_new(width);
	if (!w->t)
		return -ENOMEM;
	w->width = width;
	w->kind = kind;
	w->nr_hot = nr_hot;
	w->seed = seed ? seed : 1;
	for (i = 0; i < nr_routes; i++) {
		if (lpm_add(w->t, rnd_addr(width, &w->seed), rnd_len(width, &w->seed),
			    1 + (long)(rnd(&w->seed) % 4000))) {
			lpm_free(w->t);
			return -ENOMEM;
		}
	}
	if (lpm_add(w->t, 0, 0, DEFAULT_NH)) {
		lpm_free(w->t);
		return -ENOMEM;
	}
	workload_shift(w);
	return 0;
}

void workload_fini(struct workload *w)
{
	lpm_free(w->t);
	w->t = NULL;
}
