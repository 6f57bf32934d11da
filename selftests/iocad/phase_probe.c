// SPDX-License-Identifier: GPL-2.0
/*
 * Where the host path's time goes in the bench VM (make bench): the steps
 * iocad's host platform takes every interval through libioca -- wait for
 * the sample (poll), receive and decode it (ioca_subscription__recv until
 * the queue is empty), read DDIO back (ioca_client__info) -- each timed in
 * this thread's CPU time (CLOCK_THREAD_CPUTIME_ID, as bench_guest.sh reads
 * iocad's and poll_bench its own). iocad itself carries no timing code;
 * this probe does the same calls on the same module, sampler and CPUs.
 * Prints "PHASE cpus=N intervals=I wait_us=W recv_us=R info_us=F" (means).
 *   phase_probe INTERVALS INTERVAL_US
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libioca.h>

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "phase_probe: %s: %s\n", what, strerror(err < 0 ? -err : err));
	return 1;
}

int main(int argc, char **argv)
{
	static const uint32_t kinds[] = {IOCA_EVENT_KIND_INSTRUCTIONS, IOCA_EVENT_KIND_CYCLES,
					 IOCA_EVENT_KIND_LLC_REFERENCES,
					 IOCA_EVENT_KIND_LLC_MISSES};
	int n = argc > 1 ? atoi(argv[1]) : 50, period = argc > 2 ? atoi(argv[2]) : 100000;
	IOCA_OPTS(ioca_sampler_opts, so, .owner = true);
	struct ioca_sampler_config sc = {0};
	struct ioca_event ev[4] = {{0}};
	const struct ioca_event *uncore;
	double wait = 0, recv = 0, info = 0, t0, t1, t2;
	struct ioca_subscription *sub;
	struct ioca_cha_preset *preset;
	static struct ioca_sample s_buf;
	static struct ioca_info in_buf;
	struct ioca_sample *s = &s_buf;
	struct ioca_info *in = &in_buf;
	struct ioca_client *c;
	struct pollfd pfd;
	size_t nuncore = 0;
	int r, i, got;

	c = ioca_client__open(NULL);
	sub = ioca_subscription__open(NULL);
	if (!c || !sub)
		return fail("open", errno);
	r = ioca_client__info(c, in);
	if (r)
		return fail("info", r);
	preset = ioca_cha_preset__new(in, NULL);
	uncore = preset ? ioca_cha_preset__events(preset, &nuncore) : NULL;
	for (i = 0; i < 4; i++)
		ev[i].kind = kinds[i];
	sc.interval_us = (uint32_t)period;
	sc.events = ev;
	sc.nevents = 4;
	sc.uncore = uncore;
	sc.nuncore = nuncore;
	r = ioca_client__sampler_set(c, &sc, &so);
	if (!r)
		r = ioca_client__sampler_start(c);
	if (r)
		return fail("sampler", r);
	pfd.fd = ioca_subscription__fd(sub);
	pfd.events = POLLIN;
	/* the first interval is the baseline, as in iocad */
	for (i = -1; i < n; i++) {
		t0 = cpu_us();
		if (poll(&pfd, 1, 5000) != 1)
			return fail("no sample within 5 s", ETIMEDOUT);
		t1 = cpu_us();
		for (got = 0;; got = 1) {
			r = ioca_subscription__recv(sub, s, got ? 0 : 5000);
			if (r < 0)
				return fail("recv", r);
			if (!r)
				break;
		}
		t2 = cpu_us();
		r = ioca_client__info(c, in);
		if (r)
			return fail("info", r);
		if (i >= 0) {
			wait += t1 - t0;
			recv += t2 - t1;
			info += cpu_us() - t2;
		}
	}
	ioca_client__sampler_stop(c);
	printf("PHASE cpus=%ld intervals=%d wait_us=%.1f recv_us=%.1f info_us=%.1f\n",
	       sysconf(_SC_NPROCESSORS_ONLN), n, wait / n, recv / n, info / n);
	ioca_cha_preset__free(preset);
	ioca_subscription__close(sub);
	ioca_client__close(c);
	return 0;
}
