/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IOCA paper's way of reading counters: a userspace loop that preads
 * every register of every CPU through /dev/cpu/N/msr, one system call (and,
 * for a remote CPU, one IPI) per register per interval.
 */
#ifndef IOCA_BENCH_MSR_POLL_H
#define IOCA_BENCH_MSR_POLL_H

#include <stdint.h>

#define MSR_POLL_MAX_CPUS 64
#define MSR_POLL_MAX_REGS 8

struct msr_poll {
	int ncpus, nregs;
	int fd[MSR_POLL_MAX_CPUS];
	uint32_t reg[MSR_POLL_MAX_REGS];
	int substituted; /* registers replaced by the TSC because they failed */
};

/* Opens /dev/cpu/0..ncpus-1/msr and probes the registers. 0 or -errno. */
int msr_poll_open(struct msr_poll *p, int ncpus, int nregs);
void msr_poll_close(struct msr_poll *p);

/* One interval: every register of every CPU. Returns 0 or -errno. */
int msr_poll_interval(const struct msr_poll *p, uint64_t *sink);

#endif
