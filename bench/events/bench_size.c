// SPDX-License-Identifier: GPL-2.0
/*
 * Machine-code size of a merged build of every CTP event against the
 * micro-protocols' own code in the generic variant. The C API has no
 * symbol sizes; libspec's perf map (LIBSPEC_PERF_MAP=1) reads them from
 * each object as it is linked, so this reads that map back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_size.h"
#include "ctp_stack.h"

/* Sum the sizes in the perf map of names starting with @prefix and ending
 * with @suffix (NULL: any); their count into @n.
 */
static unsigned long long sum_sizes(const char *path, const char *prefix, const char *suffix,
				    int *n)
{
	unsigned long long total = 0, addr, size;
	char name[512];
	FILE *f = fopen(path, "r");

	*n = 0;
	while (f && fscanf(f, "%llx %llx %511s", &addr, &size, name) == 3) {
		size_t len = strlen(name), sl = suffix ? strlen(suffix) : 0;

		if (strncmp(name, prefix, strlen(prefix)))
			continue;
		if (suffix && (len < sl || strcmp(name + len - sl, suffix)))
			continue;
		total += size;
		(*n)++;
	}
	if (f)
		fclose(f);
	return total;
}

int bench_size(const char *ir)
{
	struct ctp_opts o = {.ir = ir, .frag = 96, .fec = true, .sample_every = 64};
	unsigned long long handlers, merged;
	struct ctp_stack s;
	char path[64];
	int ret, nh, nm;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	unlink(path);
	setenv("LIBSPEC_PERF_MAP", "1", 1);
	ret = ctp_open(&s, &o);
	unsetenv("LIBSPEC_PERF_MAP");
	if (ret)
		return ret;
	ret = spec_events__merge(s.evs, NULL);
	ctp_close(&s);
	if (ret < 0)
		return ret;
	handlers = sum_sizes(path, "ctp_", ".v0", &nh);
	merged = sum_sizes(path, "__ev.", NULL, &nm);
	unlink(path);
	if (!handlers)
		return -ENOENT;
	printf("\ncode size: the %d micro-protocol handlers in the generic variant %llu B; a "
	       "merged build of all %d events %llu B (x%.2f of the handlers' code)\n"
	       "(paper: +1.3%% for the whole program, which keeps its generic code too)\n",
	       nh, handlers, nm, merged, (double)merged / (double)handlers);
	return 0;
}
