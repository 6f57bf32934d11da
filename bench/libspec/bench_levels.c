// SPDX-License-Identifier: GPL-2.0
/*
 * What each pass pipeline buys: the same MMul variants compiled at O3, O2
 * and O1, their compile phases next to the cycles their code takes, so a
 * level is chosen by measured benefit rather than assumed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench_levels.h"
#include "bench_mmul.h"
#include "bench_util.h"

#define LEVEL_N 64
#define LEVEL_REPS 11

static const char *const pipelines[] = {"default<O3>", "default<O2>", "default<O1>"};
static const int level_bs[] = {4, 16, 64};

#define NR_PIPELINES (sizeof(pipelines) / sizeof(pipelines[0]))
#define NR_BS (sizeof(level_bs) / sizeof(level_bs[0]))

struct level_row {
	double compile, passes, codegen, cycles;
};

static int one(struct spec_runtime *rt, mmul_fn jit, int b, struct level_row *row)
{
	struct spec_runtime_stats st;
	char cfg[64];
	int ret;

	/* The cache key holds the pipeline: each level compiles anew. */
	snprintf(cfg, sizeof(cfg), "B=%d!noguard", b);
	ret = bench_install(rt, cfg);
	if (!ret)
		ret = spec_runtime__stats(rt, &st, sizeof(st));
	if (ret)
		return ret;
	row->compile = (double)st.last_compile_ns / 1e6;
	row->passes = (double)st.last_optimize_ns / 1e6;
	row->codegen = (double)st.last_codegen_ns / 1e6;
	return bench_mmul_best(jit, LEVEL_N, b, LEVEL_REPS, &row->cycles);
}

int bench_levels(struct spec_runtime *rt)
{
	mmul_fn jit = (mmul_fn)spec_runtime__handler(rt, "matmul");
	struct level_row rows[NR_PIPELINES][NR_BS];
	size_t p, i;
	int ret = 0;

	if (!jit)
		return -errno;
	for (p = 0; p < NR_PIPELINES && !ret; p++) {
		ret = spec_runtime__set_pipeline(rt, pipelines[p]);
		for (i = 0; i < NR_BS && !ret; i++)
			ret = one(rt, jit, level_bs[i], &rows[p][i]);
	}
	spec_runtime__set_pipeline(rt, NULL);
	if (ret) {
		fprintf(stderr, "bench: levels: %s\n", strerror(-ret));
		return ret;
	}
	printf("Pass pipeline per MMul variant (B constant, N=%d, best of %d calls; ratios "
	       "against O3 in this run)\n",
	       LEVEL_N, LEVEL_REPS);
	printf("  %-12s %3s %9s %8s %8s %12s %9s %9s\n", "pipeline", "B", "compile", "passes",
	       "codegen", "cycles", "compile", "cycles");
	for (p = 0; p < NR_PIPELINES; p++) {
		for (i = 0; i < NR_BS; i++) {
			const struct level_row *r = &rows[p][i], *o3 = &rows[0][i];

			printf("  %-12s %3d %6.1f ms %8.1f %8.1f %12.0f %8.2fx %8.2fx\n",
			       pipelines[p], level_bs[i], r->compile, r->passes, r->codegen,
			       r->cycles, r->compile / o3->compile, r->cycles / o3->cycles);
		}
	}
	return bench_install(rt, "");
}
