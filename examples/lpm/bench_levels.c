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

#define LOOKUPS 2000000
#define ROUNDS 3

struct level {
	const char *name, *pipeline;
	bool fast_codegen;
};

/* clang-format off */
static const struct level levels[] = {
	{"O3", "default<O3>", false},
	{"O2", "default<O2>", false},
	{"O1", "default<O1>", false},
	{"O0", "default<O0>", false},
	{"O1 -O0cg", "default<O1>", true},
	{"O0 -O0cg", "default<O0>", true},
};
/* clang-format on */

#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

static int specialize_at(struct spec_runtime *rt, const struct workload *w, const struct level *l)
{
	LIBSPEC_OPTS(spec_specialize_opts, o, .pipeline = l->pipeline,
		     .fast_codegen = l->fast_codegen);
	struct spec_config *c =
		lpm_gen_config(w->width == 32 ? "lpm4" : "lpm6", w->t, LPM_GEN_NI, 0);
	int ret;

	if (!c)
		return -1;
	ret = spec_runtime__specialize_sync(rt, c, &o);
	spec_config__free(c);
	return ret;
}

/* Best of @reps compiles of NI for w's table at level @l: other load only
 * adds time. The cache is bypassed by invalidating before each compile.
 */
static int compile_best(struct spec_runtime *rt, const struct workload *w, const struct level *l,
			int reps, struct spec_runtime_stats *best)
{
	struct spec_runtime_stats st;
	int rep, ret = 0;

	best->last_compile_ns = UINT64_MAX;
	for (rep = 0; rep < reps && !ret; rep++) {
		spec_runtime__invalidate(rt, w->width == 32 ? "lpm4" : "lpm6", NULL);
		ret = specialize_at(rt, w, l);
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

/*
 * Every level on one table: compile phases (best of 2), then workload A's
 * lookups/s. Each level's variant is cached apart, so the lookups are
 * measured in rounds over the levels (best of each level's rounds): load
 * from other processes then hits every level alike.
 */
static int levels_of(struct spec_runtime *rt, int width, size_t routes)
{
	void *f = spec_runtime__handler(rt, width == 32 ? "route4" : "route6");
	struct spec_runtime_stats best[NR_LEVELS], st;
	double rate[NR_LEVELS] = {0}, r;
	struct workload w;
	int rep, ret = 0;
	size_t i;

	if (!f || workload_init(&w, width, 'A', routes, 8, 11))
		return -1;
	for (i = 0; i < NR_LEVELS; i++)
		best[i].last_compile_ns = UINT64_MAX;
	for (rep = 0; rep < 2 && !ret; rep++) {
		/* A new compile of each level, not the cached one. */
		spec_runtime__invalidate(rt, width == 32 ? "lpm4" : "lpm6", NULL);
		for (i = 0; i < NR_LEVELS && !ret; i++) {
			ret = specialize_at(rt, &w, &levels[i]);
			spec_runtime__stats(rt, &st, sizeof(st));
			if (!ret && st.last_compile_ns < best[i].last_compile_ns)
				best[i] = st;
		}
	}
	for (rep = 0; rep < ROUNDS && !ret; rep++) {
		for (i = 0; i < NR_LEVELS && !ret; i++) {
			ret = specialize_at(rt, &w, &levels[i]);
			r = ret ? 0 : bench_rate(f, &w, LOOKUPS);
			if (r > rate[i])
				rate[i] = r;
		}
	}
	for (i = 0; i < NR_LEVELS && !ret; i++) {
		printf("  IPv%d %6zu %-9s", width == 32 ? 4 : 6, lpm_count(w.t), levels[i].name);
		print_phases(&best[i], lpm_count(w.t));
		printf(" %8.1f %5.2fx %5.2fx\n", rate[i] / 1e6, rate[i] / rate[0],
		       (double)best[i].last_compile_ns / (double)best[0].last_compile_ns);
	}
	workload_fini(&w);
	return ret;
}

int bench_levels(struct spec_runtime *rt)
{
	static const size_t counts[] = {1000, 2000, 8000};
	int width;
	size_t i;

	printf("NI by compile level (workload A; compile best of 2; lookups/s best of %d rounds "
	       "over the levels, best of 5 each;\nratios against O3 in the same run; -O0cg: "
	       "LLVM's fast -O0 code generator)\n",
	       ROUNDS);
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
