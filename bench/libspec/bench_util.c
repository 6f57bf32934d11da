// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#include "bench_util.h"

uint64_t bench_cycles(void)
{
	_mm_lfence();
	return __rdtsc();
}

uint64_t bench_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

double bench_min(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;
	size_t i;

	for (i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double bench_quantile(const double *v, size_t n, double q, double *tmp)
{
	if (!n)
		return NAN;
	if (tmp != v)
		memcpy(tmp, v, n * sizeof(*v));
	qsort(tmp, n, sizeof(*tmp), cmp_double);
	return tmp[(size_t)(q * (double)(n - 1) + 0.5)];
}

void bench_mean_sd(const double *v, size_t n, double *mean, double *sd)
{
	double s = 0, q = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += v[i];
	*mean = n ? s / (double)n : NAN;
	for (i = 0; i < n; i++)
		q += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(q / (double)(n - 1)) : 0;
}

struct spec_runtime *bench_open(const char *ir)
{
	char err[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .errbuf = err, .errbuf_sz = sizeof(err));
	struct spec_runtime *rt = spec_runtime__open(ir, &o);
	int ret;

	if (!rt) {
		fprintf(stderr, "bench: cannot open %s: %s\n", ir, err[0] ? err : strerror(errno));
		return NULL;
	}
	ret = spec_runtime__load(rt);
	if (ret) {
		spec_runtime__last_error(rt, err, sizeof(err));
		fprintf(stderr, "bench: cannot load %s: %s\n", ir, err[0] ? err : strerror(-ret));
		spec_runtime__close(rt);
		return NULL;
	}
	return rt;
}

int bench_install(struct spec_runtime *rt, const char *text)
{
	struct spec_config *cfg = spec_config__parse(text);
	char err[256] = "";
	int ret;

	if (!cfg) {
		fprintf(stderr, "bench: bad configuration '%s'\n", text);
		return -EINVAL;
	}
	ret = spec_runtime__specialize_sync(rt, cfg, NULL);
	spec_config__free(cfg);
	if (ret) {
		spec_runtime__last_error(rt, err, sizeof(err));
		fprintf(stderr, "bench: cannot install '%s': %s\n", text,
			err[0] ? err : strerror(-ret));
	}
	return ret;
}
