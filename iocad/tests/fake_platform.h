/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A scripted platform for loop tests: every poll adds fixed per-interval
 * increments (set by the test, changeable from an on_poll hook) to
 * cumulative counters, and records what the loop checked, applied and
 * restored. Socket 0 holds CPUs 0 .. ncpus-1 unless a test moves some to
 * another socket (fake_platform_socket).
 */
#ifndef IOCAD_TESTS_FAKE_PLATFORM_H
#define IOCAD_TESTS_FAKE_PLATFORM_H

#include "config/config.h"
#include "loop/loop.h"
#include "platform.h"

struct fake_socket {
	uint64_t hits_inc; /* DDIO hits per interval */
	uint64_t misses_inc;
	uint32_t mask_now; /* read back by poll; a test may change it */
	bool ddio_missing; /* polls say the DDIO counts are missing */
	/* a plan with another DDIO mask fails -EIO; info then says ddio_fixed */
	bool ddio_locked;
};

struct fake_platform {
	struct platform_info info;
	struct platform_sample s; /* cumulative, as returned by the last poll */
	struct platform_cpu_counters inc[PLATFORM_MAX_CPUS]; /* per interval */
	struct fake_socket sock[PLATFORM_MAX_SOCKETS];
	uint64_t interval_ns;
	unsigned int polls, applies, restores, waits, checks, sample_applies;
	unsigned int apply_calls;  /* failed ones too */
	unsigned int end_after;	   /* PLATFORM_END from this poll on; 0: never */
	int apply_error;	   /* apply() returns this if non-zero */
	int check_error;	   /* check() returns this if non-zero */
	int poll_error;		   /* poll() returns this (no sample) if non-zero */
	const char *waiting;	   /* what waiting() says ("" or NULL: nothing) */
	unsigned int cat_waits;	   /* what cat_waiting() returns (PLATFORM_CAT_WAIT_*) */
	const char *cat_waiting;   /* and says (NULL: "") */
	struct platform_plan plan; /* last applied (sampling-only ones too) */
	void (*on_poll)(struct fake_platform *f, void *arg);
	void *arg;
};

void fake_platform_init(struct fake_platform *f, unsigned int llc_ways, unsigned int ncpus,
			uint32_t ddio_mask);
/* CPUs @lo..@hi are on socket @id, which has @llc_ways ways and @ddio_mask. */
void fake_platform_socket(struct fake_platform *f, unsigned int id, unsigned int lo,
			  unsigned int hi, unsigned int llc_ways, uint32_t ddio_mask);
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
/* The plan's socket @id (NULL if not in the last plan) and its group @name's mask (0: none). */
/* Two tenants on 11 ways (slicing), 3 ways each: vf (PS, networking) on CPU 0, be on CPU 1. */
extern const char fake_platform_vf_be[];
/*
 * loop_opts over @cfg in --mode ioca for @intervals intervals, its lines
 * into @log (a char[LOG_BUF_SIZE], log_buf_loop_log) or, with NULL, not
 * logged; a test sets what else it needs.
 */
struct loop_opts fake_platform_loop_opts(const struct config *cfg, uint64_t intervals, char *log);
const struct platform_socket_plan *fake_plan_socket(const struct platform_plan *p, unsigned int id);
uint32_t fake_plan_mask(const struct platform_plan *p, const char *name);

/* Add group @name (@mask, CPUs @lo..@hi) to @p's socket @socket, adding the socket if new. */
void fake_plan_group(struct platform_plan *p, unsigned int socket, const char *name, uint32_t mask,
		     unsigned int lo, unsigned int hi);

#endif /* IOCAD_TESTS_FAKE_PLATFORM_H */
