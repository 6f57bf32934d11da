// SPDX-License-Identifier: GPL-2.0
/*
 * The hot set shifts (the paper's Fig. 9): an FP variant compiled for one
 * hot set keeps sampling (every 256th lookup); a watcher compares what the
 * samples see with what was compiled. When most sampled lookups miss the
 * fast path it re-instruments (forgets the old samples) and, one period
 * later, rebuilds the fast path from the fresh ones (invalidate keeping the
 * current variant, specialize again: the data version makes it a new
 * compile).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench_lpm.h"
#include "lpm_gen.h"

#define FP_SIZE 8
#define EVERY 256
#define PERIODS 8
#define SHIFT_AT 3

/* Share of the sampled lookups that the compiled hot set answers. */
static double fp_coverage(struct spec_runtime *rt, const lpm_u128 *compiled, size_t n)
{
	struct spec_space *sp = spec_runtime__space(rt);
	const struct spec_point_info *pi = sp ? spec_space__find(sp, "lpm4") : NULL;
	uint64_t hit = 0, all = 0;
	size_t i, k;

	for (i = 0; pi && i < pi->nr_observed; i++) {
		all += pi->observed[i].count;
		for (k = 0; k < n; k++) {
			if ((uint64_t)compiled[k] == (uint64_t)pi->observed[i].value)
				hit += pi->observed[i].count;
		}
	}
	spec_space__free(sp);
	return all ? (double)hit / (double)all : 1.0;
}

/* What the next fast path will compile: the sampled hot destinations. */
static size_t observed(struct spec_runtime *rt, lpm_u128 *out, size_t max)
{
	struct spec_space *sp = spec_runtime__space(rt);
	const struct spec_point_info *pi = sp ? spec_space__find(sp, "lpm4") : NULL;
	size_t i, n = 0;

	for (i = 0; pi && i < pi->nr_observed && n < max; i++)
		out[n++] = (lpm_u128)(uint64_t)pi->observed[i].value;
	spec_space__free(sp);
	return n;
}

static int rebuild(struct spec_runtime *rt, const struct workload *w, lpm_u128 *compiled,
		   size_t *nr)
{
	LIBSPEC_OPTS(spec_invalidate_opts, keep, .keep_current = true);

	*nr = observed(rt, compiled, FP_SIZE);
	spec_runtime__invalidate(rt, "lpm4", &keep);
	return bench_specialize(rt, "lpm4", w, LPM_GEN_FP(FP_SIZE), EVERY);
}

int bench_shift(struct spec_runtime *rt)
{
	void *f = spec_runtime__handler(rt, "route4");
	bool collecting = false;
	lpm_u128 compiled[FP_SIZE];
	size_t nr = 0;
	struct workload w;
	int p;

	if (!f || workload_init(&w, 32, 'B', 2000, FP_SIZE, 99))
		return -1;
	printf("Hot-set shift (IPv4 B, FP of %d, sampling every %d; the paper's Fig. 9)\n", FP_SIZE,
	       EVERY);
	spec_runtime__invalidate(rt, "lpm4", NULL);
	if (bench_specialize(rt, "lpm4", &w, 0, 1))
		return -1;
	bench_rate(f, &w, 20000);
	if (rebuild(rt, &w, compiled, &nr))
		return -1;
	spec_runtime__reset_counters(rt);
	for (p = 0; p < PERIODS; p++) {
		double rate, cov;
		const char *what = "";

		if (p == SHIFT_AT) {
			workload_shift(&w);
			what = "  <- hot set shifts";
		}
		rate = bench_rate(f, &w, 300000);
		cov = fp_coverage(rt, compiled, nr);
		printf("  period %d  %8.2f Mlookups/s  fast-path coverage %3.0f%%%s\n", p,
		       rate / 1e6, 100 * cov, what);
		if (collecting) {
			if (rebuild(rt, &w, compiled, &nr))
				return -1;
			spec_runtime__reset_counters(rt);
			collecting = false;
			printf("            rebuilt the fast path from the fresh samples\n");
		} else if (cov < 0.5) {
			spec_runtime__reset_counters(rt);
			collecting = true;
			printf("            hot set moved: re-instrumenting\n");
		}
	}
	workload_fini(&w);
	return 0;
}
