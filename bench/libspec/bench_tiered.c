// SPDX-License-Identifier: GPL-2.0
/*
 * Does tiering pay: a cheap pipeline first should put specialized code in
 * place in a fraction of today's compile time, and the final code must run
 * as fast as today's. Both runtimes are fresh, so every variant compiles.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench_mmul.h"
#include "bench_tiered.h"
#include "bench_util.h"

#define TIER_N 64
#define TIER_REPS 11
#define TIER_FIRST "default<O1>"
#define PAPER_MS 10.0

static const int tier_bs[] = {2, 4, 8, 16, 32, 64};
#define NR_TIER_BS (sizeof(tier_bs) / sizeof(tier_bs[0]))

struct tier_row {
	double today_ms, first_ms, fast_ms, final_ms, today_cycles, final_cycles, fast_cycles;
};

static struct spec_runtime *open_rt(const char *ir, const char *first, bool fast)
{
	char err[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		     .first_pipeline = first, .first_fast_codegen = fast);
	struct spec_runtime *rt = spec_runtime__open(ir, &o);

	if (!rt) {
		fprintf(stderr, "bench: cannot open %s: %s\n", ir, err[0] ? err : strerror(errno));
		return NULL;
	}
	if (spec_runtime__load(rt)) {
		spec_runtime__close(rt);
		return NULL;
	}
	return rt;
}

/* The -O0-codegen first tier, forced back in from the cache: its cycles. */
static int fast_tier_cycles(struct spec_runtime *rt, const char *text, int b, double *cycles)
{
	LIBSPEC_OPTS(spec_specialize_opts, o, .pipeline = TIER_FIRST, .fast_codegen = true);
	mmul_fn f = (mmul_fn)spec_runtime__handler(rt, "matmul");
	struct spec_config *cfg = spec_config__parse(text);
	int ret = cfg && f ? spec_runtime__specialize_sync(rt, cfg, &o) : -EINVAL;

	spec_config__free(cfg);
	return ret ? ret : bench_mmul_best(f, TIER_N, b, TIER_REPS, cycles);
}

static int row(struct spec_runtime *today, struct spec_runtime *tiered, struct spec_runtime *fast,
	       int b, struct tier_row *r)
{
	mmul_fn ft = (mmul_fn)spec_runtime__handler(today, "matmul");
	mmul_fn fx = (mmul_fn)spec_runtime__handler(tiered, "matmul");
	struct spec_runtime_stats st;
	char cfg[64];
	uint64_t t0;
	int ret;

	if (!ft || !fx)
		return -errno;
	snprintf(cfg, sizeof(cfg), "B=%d!noguard", b);
	t0 = bench_ns();
	ret = bench_install(today, cfg);
	r->today_ms = (double)(bench_ns() - t0) / 1e6;
	if (!ret)
		ret = bench_install(tiered, cfg);
	if (!ret)
		ret = spec_runtime__stats(tiered, &st, sizeof(st));
	if (ret)
		return ret;
	r->first_ms = (double)st.last_first_install_ns / 1e6;
	r->final_ms = (double)st.last_final_install_ns / 1e6;
	ret = bench_install(fast, cfg);
	if (!ret)
		ret = spec_runtime__stats(fast, &st, sizeof(st));
	if (ret)
		return ret;
	r->fast_ms = (double)st.last_first_install_ns / 1e6;
	ret = bench_mmul_best(ft, TIER_N, b, TIER_REPS, &r->today_cycles);
	if (!ret)
		ret = bench_mmul_best(fx, TIER_N, b, TIER_REPS, &r->final_cycles);
	if (!ret)
		ret = fast_tier_cycles(fast, cfg, b, &r->fast_cycles);
	return ret;
}

int bench_tiered(const char *ir)
{
	struct spec_runtime *today = open_rt(ir, NULL, false),
			    *tiered = open_rt(ir, TIER_FIRST, false),
			    *fast = open_rt(ir, TIER_FIRST, true);
	struct tier_row rows[NR_TIER_BS];
	double first[NR_TIER_BS], fastv[NR_TIER_BS], final[NR_TIER_BS], base[NR_TIER_BS], m, sd, mt,
		sdt;
	size_t i;
	int ret = today && tiered && fast ? 0 : -EINVAL;

	for (i = 0; i < NR_TIER_BS && !ret; i++)
		ret = row(today, tiered, fast, tier_bs[i], &rows[i]);
	spec_runtime__close(today);
	spec_runtime__close(tiered);
	spec_runtime__close(fast);
	if (ret) {
		fprintf(stderr, "bench: tiered: %s\n", strerror(-ret));
		return ret;
	}
	printf("Tiered compile of one MMul variant (%s first, then default<O3>; N=%d, best of "
	       "%d calls; today = default<O3> only, same run)\n",
	       TIER_FIRST, TIER_N, TIER_REPS);
	printf("  %3s %10s %10s %10s %10s %8s %12s %12s %7s %9s\n", "B", "today", "first",
	       "first cg0", "final", "paper", "cyc today", "cyc final", "ratio", "cg0 cyc");
	for (i = 0; i < NR_TIER_BS; i++) {
		const struct tier_row *r = &rows[i];

		printf("  %3d %7.1f ms %7.1f ms %7.1f ms %7.1f ms %5.0f ms %12.0f %12.0f %6.2fx "
		       "%8.2fx\n",
		       tier_bs[i], r->today_ms, r->first_ms, r->fast_ms, r->final_ms, PAPER_MS,
		       r->today_cycles, r->final_cycles, r->final_cycles / r->today_cycles,
		       r->fast_cycles / r->today_cycles);
		first[i] = r->first_ms;
		fastv[i] = r->fast_ms;
		final[i] = r->final_ms;
		base[i] = r->today_ms;
	}
	bench_mean_sd(base, NR_TIER_BS, &mt, &sdt);
	printf("  today: time to the installed variant   %6.2f +- %5.2f ms  paper: %.0f ms "
	       "(%.2fx)\n",
	       mt, sdt, PAPER_MS, mt / PAPER_MS);
	bench_mean_sd(first, NR_TIER_BS, &m, &sd);
	printf("  tiered: time to the first variant      %6.2f +- %5.2f ms  paper: %.0f ms "
	       "(%.2fx), "
	       "%.2fx today's\n",
	       m, sd, PAPER_MS, m / PAPER_MS, m / mt);
	bench_mean_sd(fastv, NR_TIER_BS, &m, &sd);
	printf("  ... with -O0 codegen (first cg0)      %6.2f +- %5.2f ms  paper: %.0f ms (%.2fx), "
	       "%.2fx today's\n",
	       m, sd, PAPER_MS, m / PAPER_MS, m / mt);
	bench_mean_sd(final, NR_TIER_BS, &m, &sd);
	printf("  tiered: time to the final variant      %6.2f +- %5.2f ms  paper: %.0f ms "
	       "(%.2fx), "
	       "%.2fx today's\n",
	       m, sd, PAPER_MS, m / PAPER_MS, m / mt);
	return 0;
}
