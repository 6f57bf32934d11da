// SPDX-License-Identifier: GPL-2.0
/*
 * The counter metric against the real module, in the test VM (TAP): the
 * handle configures and owns the sampler, samples arrive through the
 * subscription and become finite metric values, and closing the handle
 * releases the sampler. Under TCG the "hardware" events are the module's
 * software fallback, so this proves the plumbing, not what IPC means; that
 * the library's policy chooses right by the metric is policy_vm_test.c's
 * (selftests/libspec).
 * Static, like the kselftests: only the metric's objects, libioca, libnl.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libioca.h>

#include "libspec/metric.h"
#include "tap.h"

static volatile unsigned long sink;

/* Keep the CPU busy for @ms between two reads (a "window"). */
static void work(int ms)
{
	struct timespec t0, t;
	unsigned long x = 1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005ul + 1;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	sink = x;
}

int main(void)
{
	LIBSPEC_OPTS(spec_counters_opts, o, .configure = true, .interval_us = 20000);
	struct ioca_info *in = calloc(1, sizeof(*in));
	struct ioca_client *c;
	struct spec_counters *m;
	double v[2];
	int i, err, finite = 0;

	printf("1..5\n");
	m = spec_counters__open(SPEC_COUNTERS_IPC, &o);
	tap(m != NULL, "spec_counters__open configures the sampler (%s)",
	    m ? "ok" : strerror(errno));
	if (!m) {
		free(in);
		return 1;
	}
	c = ioca_client__open(NULL);
	err = c && in ? ioca_client__info(c, in) : -ENOMEM;
	/* Owned where the module knows sampler owners (owner pid 0 otherwise). */
	tap(!err && in->sampler.state == IOCA_SAMPLER_STATE_RUNNING && in->sampler.nevents == 3,
	    "the sampler runs with the metric's 3 events (state %u, %u events, owner %u)",
	    in ? in->sampler.state : 0, in ? in->sampler.nevents : 0,
	    in ? in->sampler.owner_pid : 0);
	spec_counters__read(m); /* opens the first window */
	for (i = 0; i < 2; i++) {
		work(100);
		v[i] = spec_counters__read(m);
		finite += isfinite(v[i]) && v[i] > 0;
		printf("# window %d: IPC %.3f\n", i, v[i]);
	}
	tap(finite == 2, "two windows give finite, positive values (%.3f, %.3f)", v[0], v[1]);
	tap(spec_counters__samples(m) >= 2, "samples arrived: %llu",
	    (unsigned long long)spec_counters__samples(m));
	spec_counters__close(m);
	usleep(100000);
	err = c && in ? ioca_client__info(c, in) : -ENOMEM;
	tap(!err && in->sampler.state != IOCA_SAMPLER_STATE_RUNNING,
	    "closing the handle stops the sampler (state %u)", in ? in->sampler.state : 0);
	ioca_client__close(c);
	free(in);
	return tap_failed();
}
