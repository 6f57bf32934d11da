// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench_hash.h"
#include "bench_simple.h"
#include "bench_util.h"
#include "handlers/simple.h"

#define CALLS 1000000 /* per measurement, as in the paper */
#define RUNS 5	      /* measurements; the best is printed */

typedef long (*f_fn)(long);
typedef long (*g_fn)(long, long);

/* Opaque to the optimizer: no call below is inlined or hoisted. */
static f_fn volatile f_ptr;
static g_fn volatile g_ptr;
static volatile long sink;

/* Inputs: @vary distinct values (1: always @base), cycling. */
static double per_call(bool is_g, long base, long vary)
{
	double v[RUNS];
	int r;

	for (r = -1; r < RUNS; r++) {
		f_fn f = f_ptr;
		g_fn g = g_ptr;
		long acc = 0, i;
		uint64_t t0 = bench_cycles();

		if (is_g)
			for (i = 0; i < CALLS; i++)
				acc += g(i, base + i % vary);
		else
			for (i = 0; i < CALLS; i++)
				acc += f(base + i % vary);
		if (r >= 0)
			v[r] = (double)(bench_cycles() - t0) / CALLS;
		sink = acc;
	}
	return bench_min(v, RUNS);
}

struct row {
	const char *what;
	const char *cfg; /* NULL: the native build */
	long base, vary;
	const char *paper;
};

static const struct row f_rows[] = {
	{"native build (baseline)", NULL, 5, 1, "~8 (normal mode)"},
	{"JIT generic", "", 5, 1, "~8 (normal mode)"},
	{"specialized a=5, no guard", "a=5!noguard", 5, 1, "7"},
	{"specialized a=5, guard passing", "a=5", 5, 1, "8"},
	{"specialized a=5, guard failing (a=7)", "a=5", 7, 1, "~5000"},
	{"sampling every call", "a~1", 5, 1, "+450..500"},
	{"sampling every call, 64 values", "a~1", 5, 64, "+450..500"},
	{"sampling every 64th call", "a~64", 5, 1, "(Fig. 11: falls with rate)"},
};

static const struct row g_rows[] = {
	{"native build (baseline)", NULL, 5, 1, "~8 (normal mode)"},
	{"JIT generic", "", 5, 1, "~8 (normal mode)"},
	{"specialized b=5, no guard", "b=5!noguard", 5, 1, "-"},
	{"specialized b=5, guard passing", "b=5", 5, 1, "-"},
	{"specialized b=5, guard failing (b=7)", "b=5", 7, 1, "-"},
	{"sampling every call", "b~1", 5, 1, "+~1"},
	{"sampling every call, 64 values", "b~1", 5, 64, "+~1"},
	{"sampling every 64th call", "b~64", 5, 1, "-"},
};

static int run_rows(struct spec_runtime *rt, bool is_g, const struct row *rows, size_t n)
{
	void *jit = spec_runtime__handler(rt, is_g ? "simple_g" : "simple_f");
	double native = 0, generic = 0, c;
	size_t i;
	int ret;

	if (!jit) {
		fprintf(stderr, "bench: no handler %s: %s\n", is_g ? "simple_g" : "simple_f",
			strerror(errno));
		return -errno;
	}
	for (i = 0; i < n; i++) {
		if (rows[i].cfg) {
			ret = bench_install(rt, rows[i].cfg);
			if (ret)
				return ret;
			f_ptr = (f_fn)jit;
			g_ptr = (g_fn)jit;
		} else {
			f_ptr = simple_f;
			g_ptr = simple_g;
		}
		c = per_call(is_g, rows[i].base, rows[i].vary);
		if (!rows[i].cfg)
			native = c;
		else if (!rows[i].cfg[0])
			generic = c;
		printf("  %-38s %8.1f %8.2fx %+9.1f   %s\n", rows[i].what, c, c / native,
		       rows[i].cfg && rows[i].cfg[0] ? c - generic : 0.0, rows[i].paper);
	}
	return bench_install(rt, "");
}

int bench_simple(struct spec_runtime *rt)
{
	int ret;

	printf("SimpleBench (paper section 6.4), TSC cycles per call through the handler pointer,\n"
	       "best of %d x %d calls; overhead = minus JIT generic\n",
	       RUNS, CALLS);
	printf("  %-38s %8s %9s %9s   %s\n", "f(a) = a*a, generic point a", "cycles", "/native",
	       "overhead", "paper");
	ret = run_rows(rt, false, f_rows, sizeof(f_rows) / sizeof(f_rows[0]));
	if (ret)
		return ret;
	printf("  %-38s %8s %9s %9s   %s\n", "g(a,b) = a*b, range point b", "cycles", "/native",
	       "overhead", "paper");
	ret = run_rows(rt, true, g_rows, sizeof(g_rows) / sizeof(g_rows[0]));
	return ret ? ret : (printf("\n"), bench_hash(rt));
}
