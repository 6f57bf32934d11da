// SPDX-License-Identifier: GPL-2.0
/*
 * NI by route count and by compile level: where the compile time goes
 * (the generator's IR, the pass pipeline, x86 code generation) and what
 * each level buys in lookups/s. Each level is forced per specialization
 * (spec_specialize_opts.pipeline / .fast_codegen), so the runtime's own
 * default is left alone. Figures only: ratios are against default<O3>
 * measured in the same run.
 */
#include <stdbool.h>
#include <stdio.h>

#include "bench_lpm.h"
#include "lpm_gen.h"

#define LOOKUPS 400000

struct level {
	const char *name, *pipeline;
	bool fast_codegen;
};

static const struct level levels[] = {
	{"O3", "default<O3>", false},	   {"O2", "default<O2>", false},
	{"O1", "default<O1>", false},	   {"O1 -O0cg", "default<O1>", true},
	{"O0 -O0cg", "default<O0>", true},
};

#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

/* Best of @reps compiles of NI for w's table at level @l: other load only
 * adds time. The cache is bypassed by invalidating before each compile.
 */
static int compile_best(struct spec_runtime *rt, const struct workload *w, const struct level *l,
			int reps, struct spec_runtime_stats *best)
{
	const char *label = w->width == 32 ? "lpm4" : "lpm6";
	LIBSPEC_OPTS(spec_specialize_opts, o, .pipeline = l->pipeline,
		     .fast_codegen = l->fast_codegen);
	struct spec_runtime_stats st;
	struct spec_config *c;
	int rep, ret = 0;

	best->last_compile_ns = UINT64_MAX;
	for (rep = 0; rep < reps && !ret; rep++) {
		c = lpm_gen_config(label, w->t, LPM_GEN_NI, 0);
		if (!c)
			return -1;
		spec_runtime__invalidate(rt, label, NULL);
		ret = spec_runtime__specialize_sync(rt, c, &o);
		spec_config__free(c);
		spec_runtime__stats(rt, &st, sizeof(st));
		if (!ret && st.last_compile_ns < best->last_compile_ns)
			*best = st;
	}
	return ret;
}

static void print_phases(const struct spec_runtime_stats *s, size_t routes)
{
	printf("%8.1f ms %7.1f %8.1f %8.1f %8.1f ms", (double)s->last_compile_ns / 1e6,
	       (double)s->last_specialize_ns / 1e6, (double)s->last_optimize_ns / 1e6,
	       (double)s->last_codegen_ns / 1e6, (double)s->last_compile_ns / 1e3 / (double)routes);
}

/* NI at default<O3> by route count, IPv4 and IPv6: is it linear? */
int bench_compile(struct spec_runtime *rt)
{
	static const size_t counts[] = {100, 500, 1000, 2000, 4000, 8000};
	struct spec_runtime_stats best;
	int width;
	size_t i;

	printf("NI compile time by route count (default<O3>, best of 3; the paper: linear in the "
	       "entries, no absolute figure)\n");
	printf("  %-4s %6s  %11s %7s %8s %8s   %s\n", "", "routes", "total", "IR", "passes",
	       "codegen", "per 1000 routes");
	for (width = 32; width <= 128; width += 96) {
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			struct workload w;

			if (workload_init(&w, width, 'A', counts[i], 1, 7))
				return -1;
			if (compile_best(rt, &w, &levels[0], 3, &best)) {
				workload_fini(&w);
				return -1;
			}
			printf("  IPv%d %6zu  ", width == 32 ? 4 : 6, lpm_count(w.t));
			print_phases(&best, lpm_count(w.t));
			printf("\n");
			workload_fini(&w);
		}
	}
	return 0;
}

/* Every level on one table: compile phases and workload A's lookups/s. */
static int levels_of(struct spec_runtime *rt, int width, size_t routes)
{
	void *f = spec_runtime__handler(rt, width == 32 ? "route4" : "route6");
	struct spec_runtime_stats best;
	double o3_rate = 0, o3_ms = 0;
	struct workload w;
	size_t i;

	if (!f || workload_init(&w, width, 'A', routes, 8, 11))
		return -1;
	for (i = 0; i < NR_LEVELS; i++) {
		double rate, ms;

		if (compile_best(rt, &w, &levels[i], 2, &best)) {
			workload_fini(&w);
			return -1;
		}
		rate = bench_rate(f, &w, LOOKUPS);
		ms = (double)best.last_compile_ns / 1e6;
		if (!i) {
			o3_rate = rate;
			o3_ms = ms;
		}
		printf("  IPv%d %6zu %-9s", width == 32 ? 4 : 6, lpm_count(w.t), levels[i].name);
		print_phases(&best, lpm_count(w.t));
		printf(" %8.1f %5.2fx %5.2fx\n", rate / 1e6, rate / o3_rate, ms / o3_ms);
	}
	workload_fini(&w);
	return 0;
}

int bench_levels(struct spec_runtime *rt)
{
	static const size_t counts[] = {1000, 2000, 8000};
	int width;
	size_t i;

	printf("NI by compile level (workload A; compile best of 2, lookups/s best of 5; ratios "
	       "against O3 in the same run;\n-O0cg: LLVM's fast -O0 code generator)\n");
	printf("  %-4s %6s %-9s%11s %7s %8s %8s %8s %9s %6s %6s\n", "", "routes", "level", "total",
	       "IR", "passes", "codegen", "/1000 r", "Mlookup/s", "speed", "time");
	for (width = 32; width <= 128; width += 96) {
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			if (levels_of(rt, width, counts[i]))
				return -1;
		}
	}
	spec_runtime__invalidate(rt, "lpm4", NULL);
	spec_runtime__invalidate(rt, "lpm6", NULL);
	return 0;
}
