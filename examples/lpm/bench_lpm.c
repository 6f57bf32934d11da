// SPDX-License-Identifier: GPL-2.0
/*
 * LPM benchmark: lookups/s of the native lookup, the JIT's generic variant
 * and the FP, NI and NI-FP specializations on workloads A and B, IPv4 and
 * IPv6, next to the Iridescent paper's figures; the NI compile time per
 * route count and per compile level (bench_levels.c); then the hot-set
 * shift. Figures only, never a verdict.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_lpm.h"
#include "handlers.h"
#include "lpm_gen.h"

#define FP_SIZE 8
#define REPS 5
#define ROUTES 1000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef long (*r4_fn)(const struct lpm *, uint32_t);
typedef long (*r6_fn)(const struct lpm *, lpm_u128);

/* Best of REPS: the run least disturbed by other load on a shared machine. */
double bench_rate(void *f, const struct workload *w, long lookups)
{
	double best = 0;
	volatile long sink = 0;
	int rep;

	for (rep = 0; rep < REPS; rep++) {
		double t0 = now(), dt;
		long i, acc = 0;

		if (w->width == 32) {
			for (i = 0; i < lookups; i++)
				acc += ((r4_fn)f)(w->t, (uint32_t)w->stream[i % WORKLOAD_STREAM]);
		} else {
			for (i = 0; i < lookups; i++)
				acc += ((r6_fn)f)(w->t, w->stream[i % WORKLOAD_STREAM]);
		}
		dt = now() - t0;
		sink += acc;
		if (lookups / dt > best)
			best = (double)lookups / dt;
	}
	(void)sink;
	return best;
}

int bench_specialize(struct spec_runtime *rt, const char *label, const struct workload *w,
		     int64_t param, uint32_t every)
{
	struct spec_config *c = lpm_gen_config(label, w->t, param, every);
	int ret;

	if (!c)
		return -1;
	ret = spec_runtime__specialize_sync(rt, c, NULL);
	spec_config__free(c);
	return ret;
}

struct row {
	const char *name;
	int64_t param;
	uint32_t every;
	const char *paper_a, *paper_b; /* what the paper reports, per workload */
};

static int bench_workload(struct spec_runtime *rt, int width, char kind, size_t routes)
{
	static const struct row rows[] = {
		{"JIT generic", 0, 0, "baseline", "baseline"},
		{"instrumented", 0, 10, "10% sampling", "10% sampling"},
		{"FP", LPM_GEN_FP(FP_SIZE), 0, "FP-A up to 6x, 72+-9 ms",
		 "FP-B up to 30x, 72+-9 ms"},
		{"NI", LPM_GEN_NI, 0, "NI up to 6x", "NI up to 6x, not the best for B"},
		{"NI-FP", LPM_GEN_NI | LPM_GEN_FP(FP_SIZE), 0, "up to 6x", "up to 30x"},
	};
	const char *label = width == 32 ? "lpm4" : "lpm6";
	void *f = spec_runtime__handler(rt, width == 32 ? "route4" : "route6");
	void *native = width == 32 ? (void *)route4 : (void *)route6;
	long lookups = 400000;
	struct spec_runtime_stats st;
	struct workload w;
	double base;
	size_t i;

	if (!f || workload_init(&w, width, kind, routes, FP_SIZE, 42 + (uint64_t)kind))
		return -1;
	spec_runtime__invalidate(rt, label, NULL);
	/* Instrument the generic code so FP has hot destinations to compile. */
	if (bench_specialize(rt, label, &w, 0, 1))
		return -1;
	bench_rate(f, &w, 20000);
	base = bench_rate(native, &w, lookups);
	printf("IPv%d %c, %zu routes, %zu hot destinations\n", width == 32 ? 4 : 6, kind,
	       lpm_count(w.t), w.nr_hot);
	printf("  %-12s %12.2f Mlookups/s  1.00x  (baseline: native -O3 lookup)\n", "native",
	       base / 1e6);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double r, compile_ms = 0;

		if (bench_specialize(rt, label, &w, rows[i].param, rows[i].every))
			return -1;
		if (rows[i].param) {
			spec_runtime__stats(rt, &st, sizeof(st));
			compile_ms = (double)st.last_compile_ns / 1e6;
		}
		r = bench_rate(f, &w, lookups);
		printf("  %-12s %12.2f Mlookups/s %5.2fx", rows[i].name, r / 1e6, r / base);
		if (compile_ms)
			printf("  compile %7.1f ms", compile_ms);
		else
			printf("  %18s", "");
		printf("  paper: %s\n", kind == 'A' ? rows[i].paper_a : rows[i].paper_b);
	}
	workload_fini(&w);
	return 0;
}

static bool want(int argc, char **argv, const char *part)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], part))
			return true;
	}
	return argc < 2;
}

int main(int argc, char **argv)
{
	struct spec_runtime *rt = spec_runtime__open(LPM_IR, NULL);
	int ret = 0;

	if (!rt || spec_runtime__add_gen(rt, "lpm4", lpm_gen, NULL) ||
	    spec_runtime__add_gen(rt, "lpm6", lpm_gen, NULL)) {
		fprintf(stderr, "lpm-bench: cannot open %s\n", LPM_IR);
		return 1;
	}
	if (want(argc, argv, "table")) {
		printf("LPM (examples/lpm): lookups/s, best of %d; ratios against the native "
		       "lookup measured in the same run\n(a shared machine: figures move with "
		       "other load)\n\n",
		       REPS);
		ret |= bench_workload(rt, 32, 'A', ROUTES);
		ret |= bench_workload(rt, 32, 'B', ROUTES);
		ret |= bench_workload(rt, 128, 'A', ROUTES);
		ret |= bench_workload(rt, 128, 'B', ROUTES);
		printf("\n");
	}
	if (want(argc, argv, "compile")) {
		ret |= bench_compile(rt);
		printf("\n");
	}
	if (want(argc, argv, "levels")) {
		ret |= bench_levels(rt);
		printf("\n");
	}
	if (want(argc, argv, "shift")) {
		ret |= bench_shift(rt);
		printf("\n");
	}
	if (want(argc, argv, "policy"))
		ret |= bench_policy(rt);
	spec_runtime__close(rt);
	return ret ? 1 : 0;
}
