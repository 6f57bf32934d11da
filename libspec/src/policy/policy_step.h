/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exhaustive policy's state and its state machine: one transition per
 * call, time passed in, nothing slept (policy_exhaustive.c holds the API
 * around it).
 */
#ifndef LIBSPEC_POLICY_STEP_H
#define LIBSPEC_POLICY_STEP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "policy/policy_candidates.h"
#include "policy/policy_exhaustive.h"
#include "log.h"

#define POLICY_MAX_WINDOWS 15

enum pstate {
	ST_EXPLORE,	 /* a search starts */
	ST_OBSERVE,	 /* sampling the observed points; ends at deadline */
	ST_BEGIN,	 /* first candidate next */
	ST_SWITCH,	 /* install candidate cur (skipping those that fail) */
	ST_WARMUP,	 /* candidate installed; window opens at deadline */
	ST_MEASURE,	 /* window open; closes at deadline */
	ST_CHOOSE,	 /* every candidate done: install the best */
	ST_WATCH_WARMUP, /* best installed; first watch window opens at deadline */
	ST_WATCH,	 /* watch window open; closes at deadline */
	ST_IDLE,	 /* every candidate failed; search again after the period */
};

struct spec_policy_exhaustive {
	struct spec_runtime *rt;
	struct libspec_log log; /* opts.print, else the runtime's */
	spec_metric_fn metric;
	void *metric_ctx;
	enum spec_metric_mode mode;
	bool minimize;
	bool prepare_ahead;
	uint64_t dwell, warmup, period;
	double threshold;
	uint32_t confirm;
	uint32_t windows;  /* per candidate */
	uint32_t win_done; /* windows of candidate cur closed so far */
	double win[POLICY_MAX_WINDOWS];
	uint64_t observe_ns;
	uint32_t observe_every;
	double observe_share;
	spec_clock_fn clock;
	void *clock_ctx;
	spec_policy_report_fn report;
	void *report_ctx;
	/* What spans the search; arrays and extras are the policy's copies. */
	struct policy_space_opts so;

	struct policy_cand *c;
	size_t nr;
	enum pstate state;
	size_t cur;	   /* candidate being measured */
	uint64_t deadline; /* end of the current phase */
	uint64_t t0;	   /* window start, and the metric reading then */
	double m0;
	/* The last choice, kept across a rebuild of the candidates. */
	struct spec_config *best_cfg;
	char *best_text;
	size_t best_index;
	double best_score;
	uint64_t chosen_at; /* start of the period (choice, or failed search) */
	uint32_t beyond;    /* consecutive watch windows beyond the threshold */
	char *prev;	    /* configuration installed when the search began */

	/* Recursive: the report callback may call __best(). */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool stop;
	atomic_bool force;
};

/* The policy's clock now. */
uint64_t policy_step_now(const struct spec_policy_exhaustive *p);

/*
 * (Re)build the candidates from a fresh snapshot of the space and @obs
 * (values of the observed points; NULL for none yet). On error the old
 * candidates stay and the reason is logged. Returns 0 or -errno.
 */
int policy_step_build(struct spec_policy_exhaustive *p, const struct policy_obs *obs,
		      size_t nr_obs);

/* Run transitions due at the clock's time; *@next: when to call again. */
int policy_step_run(struct spec_policy_exhaustive *p, uint64_t *next);

#endif /* LIBSPEC_POLICY_STEP_H */
