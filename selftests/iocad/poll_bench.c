// SPDX-License-Identifier: GPL-2.0
/*
 * The userspace poller iocad's host path is compared with (make bench, in
 * the VM): per interval, read the same counters iocad asks ioca.ko for --
 * four per-CPU events through perf_event_open fds (read(2) each), and the
 * socket's two DDIO counters through /dev/cpu/0/msr (pread each) -- the
 * way a daemon without the module would. Software events stand in for the
 * PMU TCG lacks (cpu-clock, task-clock) and the TSC for the CHA registers:
 * the cost measured is the path (syscalls, cross-CPU reads), not the value.
 * Prints "POLL cpus=N med_us=M mean_us=A cpu_med_us=CM cpu_us=C" on stdout:
 * the median and mean wall time of one interval's reads alone, and the
 * median and mean of the thread's CPU time per interval, wake-up included
 * (CLOCK_THREAD_CPUTIME_ID: the scheduler's accounting, which
 * bench_guest.sh reads for iocad from /proc/PID/schedstat) -- the figures
 * of the same kind as iocad's.
 *   poll_bench INTERVALS INTERVAL_US
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NEV 4
#define MAX_CPUS 256

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int open_ev(int cpu, int k)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = k % 2 ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200, period = argc > 2 ? atoi(argv[2]) : 10000;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	static int fd[MAX_CPUS][NEV];
	uint64_t v[3], m;
	double *t, *cpu, sum = 0, csum = 0, t0, c0;
	int msr, c, k, i;

	if (n < 1 || period < 1 || ncpus < 1 || ncpus > MAX_CPUS)
		return 2;
	t = calloc((size_t)n, sizeof(*t));
	cpu = calloc((size_t)n, sizeof(*cpu));
	msr = open("/dev/cpu/0/msr", O_RDONLY | O_CLOEXEC);
	if (!t || !cpu || msr < 0) {
		fprintf(stderr, "poll_bench: /dev/cpu/0/msr: %s (modprobe msr)\n", strerror(errno));
		return 1;
	}
	for (c = 0; c < ncpus; c++)
		for (k = 0; k < NEV; k++) {
			fd[c][k] = open_ev(c, k);
			if (fd[c][k] < 0) {
				fprintf(stderr, "poll_bench: perf_event_open cpu %d: %s\n", c,
					strerror(errno));
				return 1;
			}
		}
	c0 = cpu_us();
	for (i = 0; i < n; i++) {
		usleep((useconds_t)period);
		t0 = now_us();
		for (c = 0; c < ncpus; c++)
			for (k = 0; k < NEV; k++)
				if (read(fd[c][k], v, sizeof(v)) != sizeof(v))
					return 1;
		/* the socket's DDIO hit and miss counters */
		if (pread(msr, &m, sizeof(m), 0x10) != sizeof(m) ||
		    pread(msr, &m, sizeof(m), 0x10) != sizeof(m))
			return 1;
		t[i] = now_us() - t0;
		sum += t[i];
		/* from the end of the previous interval's reads: the wake-up counts */
		cpu[i] = cpu_us() - c0;
		c0 += cpu[i];
		csum += cpu[i];
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	qsort(cpu, (size_t)n, sizeof(*cpu), cmp);
	printf("POLL cpus=%ld med_us=%.1f mean_us=%.1f cpu_med_us=%.1f cpu_us=%.1f\n", ncpus,
	       t[n / 2], sum / n, cpu[n / 2], csum / n);
	return 0;
}
