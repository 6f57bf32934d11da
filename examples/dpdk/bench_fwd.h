/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forwarder benchmark's driver: a traffic source that puts 256 packets
 * of the workload on one input port per round, the poll run until the port
 * is empty, and a sink that frees what the ports sent. Only the poll's CPU
 * time counts (busy_ns), so neither the generator's cost, equal for every
 * variant, nor the other work of a shared machine dilutes the ratios; it
 * is also the clock the policies run on.
 */
#ifndef DPDK_BENCH_FWD_H
#define DPDK_BENCH_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <libspec/policy.h>

#include "fwd_gen.h"
#include "spread.h"
#include "workload.h"

struct drv {
	struct net *net;
	struct fwd_tables *t;
	struct spec_runtime *rt;
	const struct workload *w;
	fwd_poll_fn poll;
	unsigned int in_port;
	size_t pos;
	uint64_t busy_ns;
};

/* One round; returns the packets the poll received. */
unsigned int drv_round(struct drv *d);
/* spec_clock_fn / spec_metric_fn (SPEC_METRIC_COUNTER) over a struct drv. */
uint64_t drv_clock(void *ctx);
double drv_packets(void *ctx);
/* Rounds with the policy stepped when due, until @done(ctx) or @max_ns of
 * poll time; returns the last step's error.
 */
int drv_policy(struct drv *d, struct spec_policy_exhaustive *p, uint64_t max_ns,
	       bool (*done)(void *ctx), void *ctx);
/*
 * The search's choice @a against @b, as a check of its one measurement
 * per candidate: both installed in turn and measured in CONFIRM_RUNS
 * interleaved runs, printed as median [range] with the verdict (a gain
 * only outside the noise); @a stays installed. 0 or -1.
 */
#define CONFIRM_RUNS 5
#define CONFIRM_NS 30000000ull
int drv_confirm(struct drv *d, const struct spec_config *a, const char *a_name,
		const struct spec_config *b, const char *b_name);
uint64_t now_ns(void);
/* The index of @v in @a[@n], or @n. */
size_t index_of(const unsigned int *a, size_t n, int64_t v);

/* The paper's figures are plots without numbers in the text: each part
 * prints what the text says beside what it measured.
 */
int bench_burst(struct drv *d, const struct workload *second, unsigned int *rx, unsigned int *tx);
int bench_fastpath(struct drv *d, struct workload *w, unsigned int rx, unsigned int tx);

#endif /* DPDK_BENCH_FWD_H */
