// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one sampling interval on this machine's CPUs: ioca.ko's
 * in-kernel sampler against the paper's userspace loop (pread of every
 * register through /dev/cpu/N/msr), the same registers per interval, both
 * measured in this run. Prints figures and the ratio; never pass/fail.
 *
 *   sampler_bench [-n INTERVALS] [-e EVENTS_PER_CPU] [-i INTERVAL_US]
 *
 * Needs ioca.ko loaded (emulate=1 is fine) and the msr driver.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kmod_sampler.h"
#include "msr_poll.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct user_result {
	double mean_us, min_us, median_us;
	int substituted;
};

/* @n intervals paced like the sampler's timer, so caches are as cold. */
static int user_loop(int ncpus, int nregs, int n, long interval_us, struct user_result *res)
{
	struct timespec pace = {.tv_sec = interval_us / 1000000,
				.tv_nsec = (interval_us % 1000000) * 1000};
	uint64_t sum = 0, min = UINT64_MAX, sink = 0, t0, dt;
	uint64_t *ns = calloc((size_t)n, sizeof(*ns));
	struct msr_poll p;
	int i, err;

	if (!ns)
		return -ENOMEM;
	err = msr_poll_open(&p, ncpus, nregs);
	if (err) {
		free(ns);
		return err;
	}
	res->substituted = p.substituted;
	msr_poll_interval(&p, &sink); /* warm-up, like the kernel side's first interval */
	for (i = 0; i < n; i++) {
		nanosleep(&pace, NULL);
		t0 = now_ns();
		err = msr_poll_interval(&p, &sink);
		dt = now_ns() - t0;
		if (err)
			break;
		sum += dt;
		ns[i] = dt;
		if (dt < min)
			min = dt;
	}
	msr_poll_close(&p);
	if (!err) {
		qsort(ns, (size_t)n, sizeof(*ns), cmp_u64);
		res->mean_us = (double)sum / n / 1000.0;
		res->min_us = (double)min / 1000.0;
		res->median_us = (double)ns[n / 2] / 1000.0;
	}
	free(ns);
	return err;
}

int main(int argc, char **argv)
{
	struct kmod_sampler_result k;
	int n = 200, nevents = 4, opt, err;
	long interval_us = 10000, ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct user_result u = {0};
	double g_med = 0, g_mean = 0;
	char why[256] = "";

	while ((opt = getopt(argc, argv, "n:e:i:")) != -1) {
		switch (opt) {
		case 'n':
			n = atoi(optarg);
			break;
		case 'e':
			nevents = atoi(optarg);
			break;
		case 'i':
			interval_us = atol(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n INTERVALS] [-e EVENTS] [-i INTERVAL_US]\n",
				argv[0]);
			return 2;
		}
	}
	if (n < 1 || nevents < 1 || nevents > MSR_POLL_MAX_REGS || interval_us < 1000) {
		fprintf(stderr, "sampler_bench: -n >= 1, -e 1..%d, -i >= 1000\n",
			MSR_POLL_MAX_REGS);
		return 2;
	}

	err = kmod_sampler_run(n, (uint32_t)interval_us, nevents, &k, why, sizeof(why));
	if (err) {
		fprintf(stderr, "sampler_bench: kernel sampler: %s (%s)\n", strerror(-err), why);
		return 1;
	}
	err = kmod_sample_get_run(n, (uint32_t)interval_us, nevents, &g_med, &g_mean);
	if (err) {
		fprintf(stderr, "sampler_bench: sample-get: %s\n", strerror(-err));
		return 1;
	}
	err = user_loop((int)ncpus, nevents, n, interval_us, &u);
	if (err) {
		fprintf(stderr, "sampler_bench: /dev/cpu/N/msr: %s (modprobe msr?)\n",
			strerror(-err));
		return 1;
	}

	printf("sampler_bench: %ld CPUs x %d registers = %ld reads per interval, %d intervals of "
	       "%ld us\n",
	       ncpus, nevents, ncpus * nevents, n, interval_us);
	printf("  ioca.ko sampler   : median %9.1f  mean %9.1f  min %9.1f us/interval "
	       "(module's own mean %.1f; %d lost)\n",
	       k.median_collect_us, k.mean_collect_us, k.min_collect_us, k.info_mean_us, k.lost);
	printf("  ioca.ko sample-get: median %9.1f  mean %9.1f us/round trip (on demand, "
	       "from userspace)\n",
	       g_med, g_mean);
	printf("  userspace msr loop: median %9.1f  mean %9.1f  min %9.1f us/interval "
	       "(%.2f us/register%s)\n",
	       u.median_us, u.mean_us, u.min_us, u.median_us / (double)(ncpus * nevents),
	       u.substituted ? ", some registers read as TSC" : "");
	printf("  ratio userspace/kernel: median %.2fx, mean %.2fx\n",
	       u.median_us / k.median_collect_us, u.mean_us / k.mean_collect_us);
	/* One greppable line for vmbench.sh. */
	printf("BENCH cpus=%ld regs=%d kernel_med_us=%.2f user_med_us=%.2f ratio_med=%.2f "
	       "kernel_mean_us=%.2f user_mean_us=%.2f ratio_mean=%.2f get_med_us=%.2f lost=%d\n",
	       ncpus, nevents, k.median_collect_us, u.median_us, u.median_us / k.median_collect_us,
	       k.mean_collect_us, u.mean_us, u.mean_us / k.mean_collect_us, g_med, k.lost);
	return 0;
}
