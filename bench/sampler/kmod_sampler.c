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

#include "ioca_client.h"

static const uint32_t kinds[] = {
	IOCA_EVENT_KIND_INSTRUCTIONS, IOCA_EVENT_KIND_CYCLES,	  IOCA_EVENT_KIND_LLC_REFERENCES,
	IOCA_EVENT_KIND_LLC_MISSES,   IOCA_EVENT_KIND_CPU_CLOCK,  IOCA_EVENT_KIND_TASK_CLOCK,
	IOCA_EVENT_KIND_CPU_CLOCK,    IOCA_EVENT_KIND_TASK_CLOCK,
};

static int configure(struct tnl *nl, uint32_t interval_us, int nevents, struct tnl_reply *r)
{
	struct ioca_sampler_cfg cfg;
	int i;

	memset(&cfg, 0, sizeof(cfg));
	cfg.interval_us = interval_us;
	cfg.nevents = nevents;
	for (i = 0; i < nevents; i++)
		cfg.ev[i].kind = kinds[i];
	ioca_simple_cmd(nl, IOCA_CMD_SAMPLER_STOP, r);
	return ioca_sampler_set(nl, &cfg, r);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int collect(struct tnl *sub, int n, struct kmod_sampler_result *res)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));
	uint64_t *ns = calloc((size_t)n, sizeof(*ns));
	uint64_t prev = 0, sum = 0, min = UINT64_MAX;
	int i, got;

	if (!s || !ns) {
		free(s);
		free(ns);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		got = tnl_recv_one(sub, 5000, ioca_parse_sample, s);
		if (got <= 0) {
			free(s);
			free(ns);
			return got ? got : -ETIMEDOUT;
		}
		if (i && s->seq != prev + 1)
			res->lost += (int)(s->seq - prev - 1);
		prev = s->seq;
		res->ncpus = s->ncpus;
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
	struct tnl nl, sub;
	struct tnl_reply r;
	struct ioca_info info;
	int err;

	memset(res, 0, sizeof(*res));
	if (nevents < 1 || nevents > (int)(sizeof(kinds) / sizeof(kinds[0])))
		return -EINVAL;
	err = tnl_open(&nl, IOCA_FAMILY_NAME);
	if (err) {
		snprintf(why, whylen, "family %s: is ioca.ko loaded?", IOCA_FAMILY_NAME);
		return err;
	}
	err = tnl_open(&sub, NULL);
	if (err)
		goto out_nl;
	err = tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES);
	if (!err)
		err = configure(&nl, interval_us, nevents, &r);
	if (!err)
		err = ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_START, &r);
	if (err) {
		snprintf(why, whylen, "sampler setup: %s", r.msg);
		goto out_sub;
	}
	/* Skip the first interval: it includes creating the counters. */
	tnl_recv_one(&sub, 5000, NULL, NULL);
	err = collect(&sub, n, res);
	if (err)
		snprintf(why, whylen, "no sample within 5 s");
	if (!err && !ioca_info_get(&nl, &info, &r))
		res->info_mean_us = (double)info.sampler.mean_collect_ns / 1000.0;
	ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_STOP, &r);
out_sub:
	tnl_close(&sub);
out_nl:
	tnl_close(&nl);
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
	uint64_t sum = 0, t0;
	struct tnl_reply r;
	struct tnl nl;
	int i, err;

	if (!s || !ns) {
		err = -ENOMEM;
		goto out_free;
	}
	err = tnl_open(&nl, IOCA_FAMILY_NAME);
	if (err)
		goto out_free;
	err = configure(&nl, interval_us, nevents, &r);
	if (!err)
		err = ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_START, &r);
	for (i = 0; !err && i < n; i++) {
		nanosleep(&pace, NULL);
		t0 = mono_ns();
		err = ioca_sample_get(&nl, s, &r);
		ns[i] = mono_ns() - t0;
		sum += ns[i];
	}
	ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_STOP, &r);
	tnl_close(&nl);
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
