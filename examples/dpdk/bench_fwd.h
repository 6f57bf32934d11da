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
/* Packets per second of poll time of @poll over @ns of poll time (best of 3). */
double drv_rate(struct drv *d, fwd_poll_fn poll, uint64_t ns);
/* spec_clock_fn / spec_metric_fn (SPEC_METRIC_COUNTER) over a struct drv. */
uint64_t drv_clock(void *ctx);
double drv_packets(void *ctx);
/* Rounds with the policy stepped when due, until @done(ctx) or @max_ns of
 * poll time; returns the last step's error.
 */
int drv_policy(struct drv *d, struct spec_policy_exhaustive *p, uint64_t max_ns,
	       bool (*done)(void *ctx), void *ctx);
uint64_t now_ns(void);
/* The index of @v in @a[@n], or @n. */
size_t index_of(const unsigned int *a, size_t n, int64_t v);

/* The paper's figures are plots without numbers in the text: each part
 * prints what the text says beside what it measured.
 */
int bench_burst(struct drv *d, const struct workload *second, unsigned int *rx, unsigned int *tx);
int bench_fastpath(struct drv *d, struct workload *w, unsigned int rx, unsigned int tx);

#endif /* DPDK_BENCH_FWD_H */
