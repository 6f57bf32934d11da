// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bench_jit.h"
#include "bench_util.h"

#define SWAPS 10

typedef long (*f_fn)(long);

/* Wall time of compiling MMul variants nobody asked for before. */
static int compile_times(struct spec_runtime *rt)
{
	static const int bs[] = {2, 4, 8, 16, 32, 64}, ns[] = {128, 512};
	double wall[12], inner[12], spec[12], opt[12], cg[12], mw, sw, mi, si, m, sd;
	struct spec_runtime_stats st;
	size_t i, k = 0;
	char cfg[64];
	int ret;

	for (i = 0; i < 12; i++) {
		uint64_t t0;

		snprintf(cfg, sizeof(cfg), "B=%d,N=%d", bs[i % 6], ns[i / 6]);
		t0 = bench_ns();
		ret = bench_install(rt, cfg);
		if (ret)
			return ret;
		wall[k] = (double)(bench_ns() - t0) / 1e6;
		ret = spec_runtime__stats(rt, &st, sizeof(st));
		if (ret)
			return ret;
		spec[k] = (double)st.last_specialize_ns / 1e6;
		opt[k] = (double)st.last_optimize_ns / 1e6;
		cg[k] = (double)st.last_codegen_ns / 1e6;
		inner[k++] = (double)st.last_compile_ns / 1e6;
	}
	bench_mean_sd(wall, k, &mw, &sw);
	bench_mean_sd(inner, k, &mi, &si);
	printf("JIT compile of one MMul variant (%zu new configurations, default<O3>)\n", k);
	printf("  specialize_sync() wall time   %7.2f +- %5.2f ms   paper: 10 +- 1 ms (%.2fx)\n",
	       mw, sw, mw / 10.0);
	printf("  compile thread's own timing   %7.2f +- %5.2f ms\n", mi, si);
	bench_mean_sd(spec, k, &m, &sd);
	printf("    clone + specialize + verify %7.2f +- %5.2f ms\n", m, sd);
	bench_mean_sd(opt, k, &m, &sd);
	printf("    pass pipeline (O3)          %7.2f +- %5.2f ms   issue: 12.6 ms\n", m, sd);
	bench_mean_sd(cg, k, &m, &sd);
	printf("    x86 codegen + link          %7.2f +- %5.2f ms   issue: 14.7 ms\n", m, sd);
	/* Full unrolling makes the cost grow with B: show where it goes. */
	printf("  by B (mean of N=128, 512):   ");
	for (i = 0; i < 6; i++)
		printf(" %d: %.0f ms%s", bs[i], (inner[i] + inner[i + 6]) / 2, i < 5 ? "," : "\n");
	return bench_install(rt, "");
}

/* Configuration "a=@k" without guard, or NULL. */
static struct spec_config *unguarded(long k)
{
	struct spec_config *cfg = spec_config__new();

	if (cfg &&
	    (spec_config__set_value(cfg, "a", k) || spec_config__set_guard(cfg, "a", false))) {
		spec_config__free(cfg);
		return NULL;
	}
	return cfg;
}

/* Call f until it answers @want; the time it took in us, or -1. */
static double until_swapped(struct spec_runtime *rt, const struct spec_config *cfg, long want)
{
	f_fn f = (f_fn)spec_runtime__handler(rt, "simple_f");
	uint64_t t0 = bench_ns(), calls;

	if (!f || spec_runtime__specialize(rt, cfg, NULL))
		return -1;
	for (calls = 0; f(3) != want; calls++)
		if (calls > 4000000000ull)
			return -1;
	return (double)(bench_ns() - t0) / 1e3;
}

/*
 * A variant without guard, specialized to a value the caller never passes,
 * answers differently from the generic one: that is how the caller sees the
 * swap. The caller keeps calling while the compile runs elsewhere.
 */
static int swap_latency(struct spec_runtime *rt, bool cached, double *out)
{
	double v[SWAPS], sd;
	int i, ret = 0;

	for (i = 0; i < SWAPS && !ret; i++) {
		long k = (cached ? 2000 : 1000) + i;
		struct spec_config *cfg = unguarded(k);

		if (!cfg)
			return -ENOMEM;
		if (cached) /* compile it once, then go back to the generic variant */
			ret = spec_runtime__specialize_sync(rt, cfg, NULL);
		if (!ret)
			ret = bench_install(rt, "");
		if (!ret) {
			v[i] = until_swapped(rt, cfg, k * k);
			ret = v[i] < 0 ? -ETIMEDOUT : spec_runtime__wait(rt);
		}
		spec_config__free(cfg);
	}
	if (!ret)
		bench_mean_sd(v, SWAPS, out, &sd);
	return ret;
}

int bench_jit(struct spec_runtime *mm, struct spec_runtime *simple)
{
	double fresh, cached;
	int ret = compile_times(mm);

	if (ret)
		return ret;
	ret = swap_latency(simple, false, &fresh);
	if (!ret)
		ret = swap_latency(simple, true, &cached);
	if (ret) {
		fprintf(stderr, "bench: swap latency: %s\n", strerror(-ret));
		return ret;
	}
	printf("specialize() to the first call of SimpleBench's f running the new variant,\n"
	       "mean of %d; the caller keeps calling the old variant meanwhile\n",
	       SWAPS);
	printf("  new variant (compile + swap)   %9.1f us   paper: not given (compile ~10 ms)\n",
	       fresh);
	printf("  cached variant (swap only)     %9.1f us   %.1fx faster than compiling\n", cached,
	       fresh / cached);
	return 0;
}
