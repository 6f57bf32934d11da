// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_mmul.h"
#include "bench_util.h"
#include "mmul_aot.h"

#define MAX_REPS 21

struct mm_case {
	int n, reps;
	const int *bs;
	size_t nr_bs;
};

struct mm_bufs {
	uint64_t *L, *R, *O;
	uint64_t expect; /* checksum of the AOT generic result */
};

static mmul_fn aot_const(int b)
{
	switch (b) {
	case 2:
		return mmul_aot_b2;
	case 4:
		return mmul_aot_b4;
	case 8:
		return mmul_aot_b8;
	case 16:
		return mmul_aot_b16;
	case 32:
		return mmul_aot_b32;
	case 64:
		return mmul_aot_b64;
	}
	return NULL;
}

static uint64_t checksum(const uint64_t *O, int n)
{
	uint64_t s = 0;
	long i;

	for (i = 0; i < (long)n * n; i++)
		s = s * 31 + O[i];
	return s;
}

/*
 * Fewest cycles of @reps calls (after a warm-up call when there are several:
 * a single call is long enough for page faults not to matter); flags a
 * wrong result.
 */
static double measure(mmul_fn f, struct mm_bufs *m, int n, int b, int reps, int *wrong)
{
	double v[MAX_REPS];
	size_t cells = (size_t)n * (size_t)n;
	int r;

	for (r = reps > 1 ? -1 : 0; r < reps; r++) {
		uint64_t t0;

		memset(m->O, 0, cells * sizeof(uint64_t));
		t0 = bench_cycles();
		f(m->L, m->R, m->O, n, b);
		if (r >= 0)
			v[r] = (double)(bench_cycles() - t0);
	}
	if (checksum(m->O, n) != m->expect)
		*wrong = 1;
	return bench_min(v, (size_t)reps);
}

static int mm_bufs_init(struct mm_bufs *m, int n)
{
	size_t cells = (size_t)n * (size_t)n, i;

	m->L = malloc(cells * sizeof(uint64_t));
	m->R = malloc(cells * sizeof(uint64_t));
	m->O = calloc(cells, sizeof(uint64_t));
	if (!m->L || !m->R || !m->O)
		return -ENOMEM;
	for (i = 0; i < cells; i++) {
		m->L[i] = i * 2654435761u + 1;
		m->R[i] = i * 40503u + 7;
	}
	mmul_aot_generic(m->L, m->R, m->O, n, 16);
	m->expect = checksum(m->O, n);
	return 0;
}

static void mm_bufs_fini(struct mm_bufs *m)
{
	free(m->L);
	free(m->R);
	free(m->O);
}

static int run_case(struct spec_runtime *rt, mmul_fn jit, const struct mm_case *c)
{
	double best_g = 0, best_j = 0, best_a = 0, best_n = 0;
	struct mm_bufs m;
	char cfg[64];
	size_t i;
	int ret, wrong = 0;

	ret = mm_bufs_init(&m, c->n);
	if (ret)
		goto out;
	for (i = 0; i < c->nr_bs; i++) {
		int b = c->bs[i];
		double g, j, a, nat;

		ret = bench_install(rt, "");
		if (ret)
			goto out;
		g = measure(jit, &m, c->n, b, c->reps, &wrong);
		snprintf(cfg, sizeof(cfg), "B=%d!noguard", b);
		ret = bench_install(rt, cfg);
		if (ret)
			goto out;
		j = measure(jit, &m, c->n, b, c->reps, &wrong);
		a = measure(aot_const(b), &m, c->n, b, c->reps, &wrong);
		nat = measure(mmul_aot_generic, &m, c->n, b, c->reps, &wrong);
		printf("  %5d %4d %14.0f %14.0f %14.0f %14.0f %9.2fx %9.2fx %9.2fx\n", c->n, b, nat,
		       g, j, a, g / j, j / a, g / nat);
		best_g = i && best_g < g ? best_g : g;
		best_j = i && best_j < j ? best_j : j;
		best_a = i && best_a < a ? best_a : a;
		best_n = i && best_n < nat ? best_n : nat;
	}
	if (c->nr_bs > 1)
		printf("  %5d best %14.0f %14.0f %14.0f %14.0f %9.2fx %9.2fx %9.2fx\n", c->n,
		       best_n, best_g, best_j, best_a, best_g / best_j, best_j / best_a,
		       best_g / best_n);
	if (wrong)
		printf("  %5d WRONG RESULTS: a variant disagrees with the AOT generic build\n",
		       c->n);
out:
	mm_bufs_fini(&m);
	return ret;
}

int bench_mmul_best(mmul_fn f, int n, int b, int reps, double *cycles)
{
	struct mm_bufs m;
	int ret = mm_bufs_init(&m, n), wrong = 0;

	if (!ret) {
		*cycles = measure(f, &m, n, b, reps > MAX_REPS ? MAX_REPS : reps, &wrong);
		ret = wrong ? -EPROTO : 0;
	}
	mm_bufs_fini(&m);
	return ret;
}

int bench_mmul(struct spec_runtime *rt)
{
	static const int all[] = {2, 4, 8, 16, 32, 64}, big[] = {16};
	const struct mm_case cases[] = {
		{64, 21, all, 6},
		{256, 5, all, 6},
		/* ~1e9 multiply-adds per call: one block size, one call each */
		{1024, 1, big, 1},
	};
	mmul_fn jit = (mmul_fn)spec_runtime__handler(rt, "matmul");
	size_t i;
	int ret;

	if (!jit) {
		fprintf(stderr, "bench: no handler 'matmul': %s\n", strerror(errno));
		return -errno;
	}
	printf("MMul (examples/matmul/handlers.c), TSC cycles/op, best of 21 (N=64), 5 (256), 1 "
	       "(1024)\n"
	       "the paper reports variable/constant = 1.61x-4.48x (Table 3, N=64, optimal B)\n");
	printf("  %5s %4s %14s %14s %14s %14s %10s %10s %10s\n", "N", "B", "AOT generic",
	       "JIT generic", "JIT B-const", "AOT B-const", "gen/const", "JIT/AOT", "JIT/AOT gen");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ret = run_case(rt, jit, &cases[i]);
		if (ret)
			return ret;
	}
	return bench_install(rt, "");
}
