// SPDX-License-Identifier: GPL-2.0
/*
 * Measured tiers on two handlers that need opposite choices: MMul, where
 * only O3 code beats the generic variant (the cheap tier is slower than
 * what it replaces, so the runtime learns to skip it), and SimpleBench's
 * f, where O1 code is as fast as O3 (so it learns to skip the final
 * tier). A thread keeps calling while the jobs run, as a service would.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_measured.h"
#include "bench_util.h"
#include "handlers/simple.h"
#include "mmul_aot.h"

#define MEAS_N 64
#define MEAS_JOBS 6
#define PAPER_MS 10.0

struct caller {
	void *fn;
	bool mmul;
	atomic_long arg;
	atomic_bool stop;
	atomic_long calls, wrong;
	pthread_t thread;
};

static uint64_t mat_l[MEAS_N * MEAS_N], mat_r[MEAS_N * MEAS_N], mat_o[MEAS_N * MEAS_N];

static void *call_loop(void *arg)
{
	struct caller *c = arg;

	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		long a = atomic_load_explicit(&c->arg, memory_order_relaxed);

		if (c->mmul) {
			((mmul_fn)c->fn)(mat_l, mat_r, mat_o, MEAS_N, (int)a);
		} else if (((long (*)(long))c->fn)(a) != simple_f(a)) {
			atomic_fetch_add(&c->wrong, 1);
		}
		atomic_fetch_add_explicit(&c->calls, 1, memory_order_relaxed);
	}
	return NULL;
}

struct job_row {
	int arg;
	double first_ms, final_ms, old_c, first_c, final_c;
	bool first, final, kept_first;
};

static int run_jobs(struct spec_runtime *rt, struct caller *c, const char *label, const int *args,
		    struct job_row *rows)
{
	struct spec_runtime_stats a, b;
	char cfg[64];
	int i, ret = 0;

	for (i = 0; i < MEAS_JOBS; i++) {
		struct job_row *r = &rows[i];

		atomic_store(&c->arg, args[i]);
		snprintf(cfg, sizeof(cfg), "%s=%d", label, args[i]);
		ret = spec_runtime__stats(rt, &a, sizeof(a));
		if (!ret)
			ret = bench_install(rt, cfg);
		if (!ret)
			ret = spec_runtime__wait(rt);
		if (!ret)
			ret = spec_runtime__stats(rt, &b, sizeof(b));
		if (ret)
			break;
		r->arg = args[i];
		r->first = b.tier_first > a.tier_first;
		r->final = b.tier_final > a.tier_final;
		r->kept_first = b.tier_first_kept > a.tier_first_kept;
		r->first_ms = r->first ? (double)b.last_first_install_ns / 1e6 : 0;
		r->final_ms = r->final ? (double)b.last_final_install_ns / 1e6 : 0;
		r->old_c = (double)b.last_old_cycles;
		r->first_c = (double)b.last_first_cycles;
		r->final_c = (double)b.last_final_cycles;
		if (b.tier_measured == a.tier_measured)
			r->old_c = r->first_c = r->final_c = 0;
	}
	return ret;
}

static void print_rows(const char *label, const struct job_row *rows)
{
	double first = 0;
	int i, n = 0;

	printf("  %4s %11s %11s %10s %10s %10s  %s\n", label, "first", "final", "c before",
	       "c first", "c final", "kept");
	for (i = 0; i < MEAS_JOBS; i++) {
		const struct job_row *r = &rows[i];
		char f1[16] = "skipped", f2[16] = "skipped";

		if (r->first)
			snprintf(f1, sizeof(f1), "%.1f ms", r->first_ms);
		if (r->final)
			snprintf(f2, sizeof(f2), "%.1f ms", r->final_ms);
		printf("  %4d %11s %11s %10.0f %10.0f %10.0f  %s\n", r->arg, f1, f2, r->old_c,
		       r->first_c, r->final_c,
		       r->kept_first ? "first"
		       : r->final    ? "final"
				     : "first");
		/* Time to the first specialized code a caller ran. */
		first += r->first ? r->first_ms : r->final_ms;
		n++;
	}
	printf("  time to the first installed variant, mean of %d jobs: %.2f ms (paper: %.0f ms, "
	       "%.2fx)\n",
	       n, first / n, PAPER_MS, first / n / PAPER_MS);
}

static int one(const char *ir, const char *handler, bool mmul, const char *label, const int *args,
	       const char *what)
{
	char err[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		     .first_pipeline = "default<O1>", .first_fast_codegen = true,
		     .measure_tiers = true);
	struct spec_runtime *rt = spec_runtime__open(ir, &o);
	struct job_row rows[MEAS_JOBS];
	struct caller c = {.mmul = mmul};
	int ret;

	if (!rt || spec_runtime__load(rt)) {
		fprintf(stderr, "bench: cannot open %s: %s\n", ir, err[0] ? err : strerror(errno));
		spec_runtime__close(rt);
		return -EINVAL;
	}
	c.fn = spec_runtime__handler(rt, handler);
	atomic_store(&c.arg, args[0]);
	if (!c.fn || pthread_create(&c.thread, NULL, call_loop, &c)) {
		spec_runtime__close(rt);
		return -EINVAL;
	}
	ret = run_jobs(rt, &c, label, args, rows);
	atomic_store(&c.stop, true);
	pthread_join(c.thread, NULL);
	spec_runtime__close(rt);
	if (ret)
		return ret;
	if (c.wrong) {
		fprintf(stderr, "bench: %ld wrong results\n", (long)c.wrong);
		return -EPROTO;
	}
	printf("%s\n", what);
	print_rows(label, rows);
	return 0;
}

int bench_measured(const char *mmul_ir, const char *simple_ir)
{
	static const int bs[MEAS_JOBS] = {16, 4, 64, 8, 32, 2}, as[MEAS_JOBS] = {3, 4, 5, 6, 7, 8};
	int ret;

	for (int i = 0; i < MEAS_N * MEAS_N; i++) {
		mat_l[i] = (uint64_t)i * 3 + 1;
		mat_r[i] = (uint64_t)i ^ 0x55;
	}
	printf("Measured tiers (measure_tiers; first tier default<O1> with -O0 codegen, final "
	       "default<O3>),\na thread calling meanwhile; c = median cycles of a timed call "
	       "before the job and under\neach tier (0: too few calls timed to decide)\n");
	ret = one(mmul_ir, "matmul", true, "B", bs,
		  "MMul N=64: O3 pays, the O1 tier is slower than the generic code it replaces");
	if (!ret)
		ret = one(simple_ir, "simple_f", false, "a", as,
			  "SimpleBench f(a)=a*a: O1 code is as fast, the O3 tier stops being "
			  "compiled");
	return ret;
}
