// SPDX-License-Identifier: GPL-2.0
/*
 * Registers are the architectural counters a monitoring daemon reads
 * (fixed counters 0-2, then general-purpose PMC0..). A register the
 * (virtual) CPU refuses is replaced by the TSC, which always reads: what is
 * measured is the path (syscall, cross-CPU call), not the register.
 */
#include "msr_poll.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define MSR_TSC 0x10

static const uint32_t candidates[MSR_POLL_MAX_REGS] = {
	0x309, 0x30a, 0x30b, 0xc1, 0xc2, 0xc3, 0xc4, 0xc5,
};

int msr_poll_open(struct msr_poll *p, int ncpus, int nregs)
{
	char path[64];
	uint64_t v;
	int c, i;

	if (ncpus < 1 || ncpus > MSR_POLL_MAX_CPUS || nregs < 1 || nregs > MSR_POLL_MAX_REGS)
		return -EINVAL;
	p->ncpus = 0;
	p->nregs = nregs;
	p->substituted = 0;
	for (c = 0; c < ncpus; c++) {
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", c);
		p->fd[c] = open(path, O_RDONLY | O_CLOEXEC);
		if (p->fd[c] < 0) {
			int err = -errno;

			msr_poll_close(p);
			return err;
		}
		p->ncpus++;
	}
	for (i = 0; i < nregs; i++) {
		p->reg[i] = candidates[i];
		if (pread(p->fd[0], &v, sizeof(v), p->reg[i]) != sizeof(v)) {
			p->reg[i] = MSR_TSC;
			p->substituted++;
		}
	}
	return 0;
}

void msr_poll_close(struct msr_poll *p)
{
	int c;

	for (c = 0; c < p->ncpus; c++)
		close(p->fd[c]);
	p->ncpus = 0;
}

int msr_poll_interval(const struct msr_poll *p, uint64_t *sink)
{
	uint64_t v;
	int c, i;

	for (c = 0; c < p->ncpus; c++) {
		for (i = 0; i < p->nregs; i++) {
			if (pread(p->fd[c], &v, sizeof(v), p->reg[i]) != sizeof(v))
				return errno ? -errno : -EIO;
			*sink += v;
		}
	}
	return 0;
}
