// SPDX-License-Identifier: GPL-2.0
/*
 * The persistent code cache on MMul: the O3 compile of each variant here
 * (without the cache and with it, which also stores), then a restarted
 * process - this program again, exec'd - that gets the same variants back
 * from the directory, each checked against the AOT build.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_cache.h"
#include "bench_mmul.h"
#include "bench_util.h"

#define NR_CFGS 12

static const int bs[] = {2, 4, 8, 16, 32, 64}, ns[] = {128, 512};

struct phase_times {
	double wall[NR_CFGS], spec[NR_CFGS], opt[NR_CFGS], cg[NR_CFGS], disk[NR_CFGS];
	double load_ms; /* open + load: the generic variant */
	struct spec_runtime_stats st;
};

static struct spec_runtime *open_cached(const char *ir, const char *dir, double *ms)
{
	char err[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .errbuf = err, .errbuf_sz = sizeof(err),
		     .code_cache_dir = dir);
	uint64_t t0 = bench_ns();
	struct spec_runtime *rt = spec_runtime__open(ir, &o);

	if (!rt || spec_runtime__load(rt)) {
		if (rt)
			spec_runtime__last_error(rt, err, sizeof(err));
		fprintf(stderr, "bench: cache: cannot open %s: %s\n", ir, err);
		spec_runtime__close(rt);
		return NULL;
	}
	*ms = (double)(bench_ns() - t0) / 1e6;
	return rt;
}

/* Install the 12 configurations in turn, timing each. */
static int run_configs(struct spec_runtime *rt, struct phase_times *t)
{
	char cfg[64];
	size_t i;
	int ret;

	for (i = 0; i < NR_CFGS; i++) {
		uint64_t t0 = bench_ns();

		snprintf(cfg, sizeof(cfg), "B=%d,N=%d", bs[i % 6], ns[i / 6]);
		ret = bench_install(rt, cfg);
		if (ret)
			return ret;
		t->wall[i] = (double)(bench_ns() - t0) / 1e6;
		ret = spec_runtime__stats(rt, &t->st, sizeof(t->st));
		if (ret)
			return ret;
		t->spec[i] = (double)t->st.last_specialize_ns / 1e6;
		t->opt[i] = (double)t->st.last_optimize_ns / 1e6;
		t->cg[i] = (double)t->st.last_codegen_ns / 1e6;
		t->disk[i] = (double)t->st.last_disk_load_ns / 1e6;
	}
	return 0;
}

static void row(const char *what, const double *v, const char *tail)
{
	double m, sd;

	bench_mean_sd(v, NR_CFGS, &m, &sd);
	printf("  %-32s %7.2f +- %5.2f ms%s\n", what, m, sd, tail);
}

static double mean(const double *v)
{
	double m, sd;

	bench_mean_sd(v, NR_CFGS, &m, &sd);
	return m;
}

/* Each variant (installed) against the AOT generic result; -EPROTO if wrong. */
static int check_results(struct spec_runtime *rt)
{
	mmul_fn f = (mmul_fn)spec_runtime__handler(rt, "matmul");
	char cfg[64];
	double cycles;
	size_t i;
	int ret;

	for (i = 0; i < 6; i++) {
		snprintf(cfg, sizeof(cfg), "B=%d,N=%d", bs[i], 128);
		ret = bench_install(rt, cfg);
		if (!ret)
			ret = bench_mmul_best(f, 128, bs[i], 1, &cycles);
		if (ret)
			return ret;
	}
	return 0;
}

int bench_cache_warm(const char *ir, const char *dir, double cold_ms, double cold_load_ms)
{
	struct phase_times t = {0};
	struct spec_runtime *rt = open_cached(ir, dir, &t.load_ms);
	char tail[128];
	int ret;

	if (!rt)
		return -EINVAL;
	ret = run_configs(rt, &t);
	if (!ret)
		ret = check_results(rt);
	if (ret) {
		fprintf(stderr, "bench: cache: warm run: %s\n", strerror(-ret));
		spec_runtime__close(rt);
		return ret;
	}
	printf("restarted process, same cache directory: %llu of %d variants from disk "
	       "(results checked against AOT)\n",
	       (unsigned long long)t.st.disk_hits, NR_CFGS + 1);
	snprintf(tail, sizeof(tail), "   paper compile: 10 ms (%.2fx); cold here %.1fx slower",
		 mean(t.wall) / 10.0, cold_ms / mean(t.wall));
	row("specialize_sync() wall time", t.wall, tail);
	row("  clone + specialize + verify", t.spec, "");
	row("  cache: rebind, digest, read, link", t.disk, "");
	printf("  %-32s %7.2f ms            cold here %.2f ms\n", "open + load (generic variant)",
	       t.load_ms, cold_load_ms);
	spec_runtime__close(rt);
	return 0;
}

/* This program again in a new process: a service after a restart. */
static int restart(const char *self, const char *dir, double cold_ms, double cold_load_ms)
{
	char a[32], b[32];
	int status;
	pid_t pid;

	snprintf(a, sizeof(a), "%.3f", cold_ms);
	snprintf(b, sizeof(b), "%.3f", cold_load_ms);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		execl("/proc/self/exe", self, "cache-warm", dir, a, b, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

/* Fewest cycles of MMul N=256, B=8 as @rt compiled it. */
static int speed(struct spec_runtime *rt, double *cycles)
{
	int ret = bench_install(rt, "B=8,N=256");

	return ret ? ret
		   : bench_mmul_best((mmul_fn)spec_runtime__handler(rt, "matmul"), 256, 8, 7,
				     cycles);
}

int bench_cache(const char *ir, const char *self)
{
	struct phase_times plain = {0}, cold = {0};
	struct spec_runtime *rt, *rt_plain;
	char dir[] = "/tmp/libspec-bench-cache-XXXXXX", cmd[128];
	double c_plain = 0, c_cached = 0;
	int ret, i;

	if (!mkdtemp(dir))
		return -errno;
	rt_plain = bench_open(ir);
	ret = rt_plain ? run_configs(rt_plain, &plain) : -EINVAL;
	rt = ret ? NULL : open_cached(ir, dir, &cold.load_ms);
	if (!ret)
		ret = rt ? run_configs(rt, &cold) : -EINVAL;
	/* The cache's objects are this code: addresses through the table.
	 * Alternated, best of each: other load moves both alike.
	 */
	for (i = 0; i < 3 && !ret; i++) {
		double c;

		ret = speed(rt_plain, &c);
		c_plain = !i || c < c_plain ? c : c_plain;
		if (!ret)
			ret = speed(rt, &c);
		c_cached = !i || c < c_cached ? c : c_cached;
	}
	spec_runtime__close(rt);
	spec_runtime__close(rt_plain);
	if (!ret) {
		printf("MMul compile of %d new variants (B x N, default<O3>)\n", NR_CFGS);
		row("no cache: specialize_sync()", plain.wall,
		    "   paper: 10 +- 1 ms; issue: 24 +- 17 ms");
		row("  pass pipeline (O3)", plain.opt, "");
		row("  x86 codegen + link", plain.cg, "");
		snprintf(cmd, sizeof(cmd), "   %+.1f %% for rebinding + storing",
			 100.0 * (mean(cold.wall) / mean(plain.wall) - 1));
		row("empty cache: specialize_sync()", cold.wall, cmd);
		printf("  %-32s %7.3f Mcycles  without the cache %.3f (%+.1f %%)\n",
		       "cached code, N=256 B=8", c_cached / 1e6, c_plain / 1e6,
		       100.0 * (c_cached / c_plain - 1));
		ret = restart(self, dir, mean(cold.wall), cold.load_ms);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "bench: cache: could not remove %s\n", dir);
	if (ret)
		fprintf(stderr, "bench: cache: %s\n", strerror(-ret));
	return ret;
}
