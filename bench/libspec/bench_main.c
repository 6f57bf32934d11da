// SPDX-License-Identifier: GPL-2.0
/*
 * libspec benchmarks: MMul (B variable vs JIT-constant vs AOT-constant),
 * JIT compile and swap latency, SimpleBench, the persistent code cache
 * (warm-cache time to specialized code). Prints figures next to the
 * Iridescent paper's and ratios against baselines measured in the same run;
 * never passes or fails on time (the exit status only says whether it ran).
 *   libspec-bench [mmul] [jit] [levels] [tiered] [measured] [simple] [hash] [cache]
 * (default: all; simple includes hash)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libspec/libspec.h>

#include "bench_cache.h"
#include "bench_hash.h"
#include "bench_jit.h"
#include "bench_levels.h"
#include "bench_measured.h"
#include "bench_tiered.h"
#include "bench_mmul.h"
#include "bench_simple.h"
#include "bench_util.h"

#ifndef MMUL_IR
#define MMUL_IR "build/matmul.ll"
#endif
#ifndef SIMPLE_IR
#define SIMPLE_IR "build/simple.ll"
#endif

static void machine(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "model name", 10)) {
			printf("cpu:%s", strchr(line, ':') + 1);
			break;
		}
	}
	if (f)
		fclose(f);
	printf("(a shared machine: figures move with other load; ratios come from one run)\n\n");
}

static bool wanted(int argc, char **argv, const char *what)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], what))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	struct spec_runtime *mm = NULL, *simple = NULL;
	int ret = 1, i;

	/* bench_cache's restarted process */
	if (argc == 5 && !strcmp(argv[1], "cache-warm")) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		return bench_cache_warm(MMUL_IR, argv[2], atof(argv[3]), atof(argv[4])) ? 1 : 0;
	}
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "mmul") && strcmp(argv[i], "jit") &&
		    strcmp(argv[i], "levels") && strcmp(argv[i], "tiered") &&
		    strcmp(argv[i], "measured") && strcmp(argv[i], "simple") &&
		    strcmp(argv[i], "hash") && strcmp(argv[i], "cache")) {
			fprintf(stderr,
				"usage: %s [mmul] [jit] [levels] [tiered] [measured] [simple] "
				"[hash] [cache]\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	machine();
	mm = bench_open(MMUL_IR);
	simple = bench_open(SIMPLE_IR);
	if (!mm || !simple)
		goto out;
	if (wanted(argc, argv, "mmul") && bench_mmul(mm))
		goto out;
	if (wanted(argc, argv, "jit") && (printf("\n"), bench_jit(mm, simple)))
		goto out;
	if (wanted(argc, argv, "levels") && (printf("\n"), bench_levels(mm)))
		goto out;
	if (wanted(argc, argv, "tiered") && (printf("\n"), bench_tiered(MMUL_IR)))
		goto out;
	if (wanted(argc, argv, "measured") && (printf("\n"), bench_measured(MMUL_IR, SIMPLE_IR)))
		goto out;
	if (wanted(argc, argv, "simple") && (printf("\n"), bench_simple(simple)))
		goto out;
	if (!wanted(argc, argv, "simple") && wanted(argc, argv, "hash") &&
	    (printf("\n"), bench_hash(simple)))
		goto out;
	if (wanted(argc, argv, "cache") && (printf("\n"), bench_cache(MMUL_IR, argv[0])))
		goto out;
	ret = 0;
out:
	spec_runtime__close(mm);
	spec_runtime__close(simple);
	return ret;
}
