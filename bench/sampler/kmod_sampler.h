/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's side of the benchmark: configure ioca.ko's sampler with the
 * same number of per-CPU events on every CPU, subscribe, and take the cost
 * of each interval from the samples' own collect-ns (per-CPU reads through
 * message built), which the module measures around exactly that work.
 */
#ifndef IOCA_BENCH_KMOD_SAMPLER_H
#define IOCA_BENCH_KMOD_SAMPLER_H

#include <stdint.h>

struct kmod_sampler_result {
	int samples;		/* samples received */
	int lost;		/* sequence gaps */
	int ncpus;		/* CPUs per sample */
	double mean_collect_us; /* mean of the samples' collect-ns */
	double min_collect_us;
	double median_collect_us;
	double info_mean_us; /* the module's own running mean (info) */
};

/* Runs @n intervals of @interval_us with @nevents events on every CPU. */
int kmod_sampler_run(int n, uint32_t interval_us, int nevents, struct kmod_sampler_result *res,
		     char *why, int whylen);

/*
 * What a daemon polling on demand pays: @n sample-get round trips (request,
 * per-CPU reads, reply parsed), paced at @interval_us. The sampler must be
 * configured; it is started and stopped here. Medians and means in µs.
 */
int kmod_sample_get_run(int n, uint32_t interval_us, int nevents, double *median_us,
			double *mean_us);

#endif
