/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scripted platform for loop tests: every poll adds fixed per-interval
 * increments (set by the test, changeable from an on_poll hook) to
 * cumulative counters, and records what the loop applied and restored.
 */
#ifndef IOCAD_TESTS_FAKE_PLATFORM_H
#define IOCAD_TESTS_FAKE_PLATFORM_H

#include "config.h"
#include "platform.h"

struct fake_platform {
	struct platform_info info;
	struct platform_sample s; /* cumulative, as returned by the last poll */
	struct platform_cpu_counters inc[PLATFORM_MAX_CPUS]; /* per interval */
	uint64_t ddio_hits_inc;
	uint64_t ddio_misses_inc;
	uint64_t interval_ns;
	unsigned int polls, applies, restores, waits;
	unsigned int end_after;	   /* PLATFORM_END from this poll on; 0: never */
	int apply_error;	   /* apply() returns this if non-zero */
	struct platform_plan plan; /* last applied */
	uint32_t ddio_mask_now;	   /* read back by poll; a test may change it */
	void (*on_poll)(struct fake_platform *f, void *arg);
	void *arg;
};

void fake_platform_init(struct fake_platform *f, unsigned int llc_ways, unsigned int ncpus,
			uint32_t ddio_mask);
void fake_platform_bind(struct fake_platform *f, struct platform *pf);
/* Per-interval counters of @cpu: 1e9 cycles at @ipc, @refs and @misses. */
void fake_platform_cpu(struct fake_platform *f, unsigned int cpu, double ipc, uint64_t refs,
		       uint64_t misses);
/*
 * The quiet machine most loop tests start from: 11 LLC ways, DDIO on ways
 * 9-10, four CPUs at IPC 1 with 10% LLC misses, and I/O that barely misses.
 */
void fake_platform_quiet(struct fake_platform *f);
/*
 * Parse @text (@file in errors) into @cfg, failing the running test on an
 * error, then make @f the quiet platform behind @pf.
 */
void fake_platform_setup(struct fake_platform *f, struct platform *pf, struct config *cfg,
			 const char *text, const char *file);

#endif /* IOCAD_TESTS_FAKE_PLATFORM_H */
