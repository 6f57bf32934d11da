// SPDX-License-Identifier: GPL-2.0
/*
 * Event kinds mirror the paper's per-core set (instructions, cycles, LLC
 * references and misses); without a PMU the module counts its software
 * fallback for each, which costs the same per-CPU read path.
 */
#include "kmod_sampler.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libioca.h>

static const uint32_t kinds[] = {
	IOCA_EVENT_KIND_INSTRUCTIONS, IOCA_EVENT_KIND_CYCLES,	  IOCA_EVENT_KIND_LLC_REFERENCES,
	IOCA_EVENT_KIND_LLC_MISSES,   IOCA_EVENT_KIND_CPU_CLOCK,  IOCA_EVENT_KIND_TASK_CLOCK,
	IOCA_EVENT_KIND_CPU_CLOCK,    IOCA_EVENT_KIND_TASK_CLOCK,
};

static int configure(struct ioca_client *c, uint32_t interval_us, int nevents)
{
	struct ioca_event ev[sizeof(kinds) / sizeof(kinds[0])];
	struct ioca_sampler_config cfg = {
		.interval_us = interval_us, .events = ev, .nevents = (size_t)nevents};
	int i;

	memset(ev, 0, sizeof(ev));
	for (i = 0; i < nevents; i++)
		ev[i].kind = kinds[i];
	ioca_client__sampler_stop(c);
	return ioca_client__sampler_set(c, &cfg, NULL);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int collect(struct ioca_subscription *sub, int n, struct kmod_sampler_result *res)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	uint64_t *ns = calloc((size_t)n, sizeof(*ns));
	uint64_t sum = 0, min = UINT64_MAX;
	int i, got;

	if (!s || !ns) {
		free(s);
		free(ns);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		got = ioca_subscription__recv(sub, s, 5000);
		if (got <= 0) {
			free(s);
			free(ns);
			return got ? got : -ETIMEDOUT;
		}
		/* libioca counts the sequence gaps (and incomplete samples). */
		if (i)
			res->lost += (int)s->lost;
		res->ncpus = (int)s->ncpus;
		sum += s->collect_ns;
		ns[i] = s->collect_ns;
		if (s->collect_ns < min)
			min = s->collect_ns;
		res->samples++;
	}
	res->mean_collect_us = (double)sum / n / 1000.0;
	res->min_collect_us = (double)min / 1000.0;
	qsort(ns, (size_t)n, sizeof(*ns), cmp_u64);
	res->median_collect_us = (double)ns[n / 2] / 1000.0;
	free(ns);
	free(s);
	return 0;
}

int kmod_sampler_run(int n, uint32_t interval_us, int nevents, struct kmod_sampler_result *res,
		     char *why, int whylen)
{
	struct ioca_subscription *sub = NULL;
	struct ioca_info *info = NULL;
	struct ioca_sample *first = NULL;
	struct ioca_client *c;
	int err;

	memset(res, 0, sizeof(*res));
	if (nevents < 1 || nevents > (int)(sizeof(kinds) / sizeof(kinds[0])))
		return -EINVAL;
	c = ioca_client__open(NULL);
	if (!c) {
		snprintf(why, whylen, "family %s: is ioca.ko loaded?", IOCA_FAMILY_NAME);
		return -errno;
	}
	sub = ioca_subscription__open(NULL);
	err = sub ? 0 : -errno;
	if (!err)
		err = configure(c, interval_us, nevents);
	if (!err)
		err = ioca_client__sampler_start(c);
	if (err) {
		snprintf(why, whylen, "sampler setup: %s", ioca_client__last_extack(c));
		goto out;
	}
	/* Skip the first interval: it includes creating the counters. */
	first = malloc(sizeof(*first));
	if (first)
		ioca_subscription__recv(sub, first, 5000);
	err = collect(sub, n, res);
	if (err)
		snprintf(why, whylen, "no sample within 5 s");
	info = calloc(1, sizeof(*info));
	if (!err && info && !ioca_client__info(c, info))
		res->info_mean_us = (double)info->sampler.mean_collect_ns / 1000.0;
	ioca_client__sampler_stop(c);
out:
	free(first);
	free(info);
	ioca_subscription__close(sub);
	ioca_client__close(c);
	return err;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int kmod_sample_get_run(int n, uint32_t interval_us, int nevents, double *median_us,
			double *mean_us)
{
	struct timespec pace = {.tv_sec = interval_us / 1000000,
				.tv_nsec = (long)(interval_us % 1000000) * 1000};
	struct ioca_sample *s = calloc(1, sizeof(*s));
	uint64_t *ns = calloc((size_t)n, sizeof(*ns));
	struct ioca_client *c = NULL;
	uint64_t sum = 0, t0;
	int i, err;

	if (!s || !ns) {
		err = -ENOMEM;
		goto out_free;
	}
	c = ioca_client__open(NULL);
	if (!c) {
		err = -errno;
		goto out_free;
	}
	err = configure(c, interval_us, nevents);
	if (!err)
		err = ioca_client__sampler_start(c);
	for (i = 0; !err && i < n; i++) {
		nanosleep(&pace, NULL);
		t0 = mono_ns();
		err = ioca_client__sample(c, s);
		ns[i] = mono_ns() - t0;
		sum += ns[i];
	}
	ioca_client__sampler_stop(c);
	ioca_client__close(c);
	if (!err) {
		qsort(ns, (size_t)n, sizeof(*ns), cmp_u64);
		*median_us = (double)ns[n / 2] / 1000.0;
		*mean_us = (double)sum / n / 1000.0;
	}
out_free:
	free(ns);
	free(s);
	return err;
}
