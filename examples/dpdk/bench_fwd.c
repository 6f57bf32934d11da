// SPDX-License-Identifier: GPL-2.0
/*
 * dpdk-fwd-bench [burst] [fastpath]: the forwarder's two explorations
 * (burst sizes, paper Fig. 8; the fast path's size, Fig. 9), after the
 * baseline of the native build and libspec's generic variant.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_fwd.h"

#define ROUND 256

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t index_of(const unsigned int *a, size_t n, int64_t v)
{
	size_t i;

	for (i = 0; i < n && a[i] != v; i++)
		;
	return i;
}

/* The calling thread's CPU time: on a machine shared with other work, a
 * preempted poll must not count as a slow one.
 */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

unsigned int drv_round(struct drv *d)
{
	unsigned int got, all = 0, p;
	uint64_t t0;

	workload_inject(d->w, d->net, d->in_port, &d->pos, ROUND);
	t0 = cpu_ns();
	do {
		got = d->poll(&d->net->fwd);
		all += got;
	} while (got);
	d->busy_ns += cpu_ns() - t0;
	for (p = 0; p < d->net->fwd.nr_ports; p++)
		workload_collect(d->net, p, NULL, 0);
	return all;
}

/* Packets per second of poll time over @ns of it, with @d's poll. */
static double window(struct drv *d, uint64_t ns)
{
	uint64_t b0 = d->busy_ns, n0 = d->net->fwd.rx;

	while (d->busy_ns - b0 < ns)
		drv_round(d);
	return (double)(d->net->fwd.rx - n0) * 1e9 / (double)(d->busy_ns - b0);
}

/* The native build against the generic variant, interleaved runs. */
static void baseline(struct drv *d)
{
	struct spread_figure native = {.name = "native build (bursts 32/32)"},
			     generic = {.name = "libspec generic variant"};
	fwd_poll_fn spec = d->poll;
	int k;

	for (k = 0; k < CONFIRM_RUNS; k++) {
		d->poll = fwd_poll;
		native.mpps[native.n++] = window(d, CONFIRM_NS) / 1e6;
		d->poll = spec;
		generic.mpps[generic.n++] = window(d, CONFIRM_NS) / 1e6;
	}
	printf("  %d interleaved runs of %.0f ms of poll time each, median [range]:\n",
	       CONFIRM_RUNS, CONFIRM_NS / 1e6);
	spread_print(&native, NULL);
	spread_print(&generic, &native);
}

int drv_confirm(struct drv *d, const struct spec_config *a, const char *a_name,
		const struct spec_config *b, const char *b_name)
{
	struct spread_figure fa = {.name = a_name}, fb = {.name = b_name};
	int k;

	for (k = 0; k < CONFIRM_RUNS; k++) {
		if (spec_runtime__specialize_sync(d->rt, b, NULL))
			return -1;
		fb.mpps[fb.n++] = window(d, CONFIRM_NS) / 1e6;
		if (spec_runtime__specialize_sync(d->rt, a, NULL))
			return -1;
		fa.mpps[fa.n++] = window(d, CONFIRM_NS) / 1e6;
	}
	printf("  checked in %d interleaved runs of %.0f ms of poll time each, median [range]:\n",
	       CONFIRM_RUNS, CONFIRM_NS / 1e6);
	spread_print(&fb, NULL);
	spread_print(&fa, &fb);
	return 0;
}

uint64_t drv_clock(void *ctx)
{
	return ((struct drv *)ctx)->busy_ns;
}

double drv_packets(void *ctx)
{
	return (double)((struct drv *)ctx)->net->fwd.rx;
}

int drv_policy(struct drv *d, struct spec_policy_exhaustive *p, uint64_t max_ns,
	       bool (*done)(void *ctx), void *ctx)
{
	uint64_t start = d->busy_ns, next = 0;
	int err = 0;

	while (d->busy_ns - start < max_ns && !(done && done(ctx))) {
		if (d->busy_ns >= next)
			err = spec_policy_exhaustive__step(p, &next);
		drv_round(d);
	}
	return err;
}

static void usage(void)
{
	fprintf(stderr, "usage: dpdk-fwd-bench [burst] [fastpath]\n");
}

int main(int argc, char **argv)
{
	struct workload_opts wo = {
		.seed = 8,
		.nr_ports = 4,
		.nr_flows = 4096,
		.nr_routes = 512,
		.nr_hot = 6,
		.hot_pct = 90,
		.nr_pkts = 1 << 16,
	};
	bool burst = argc < 2, fastpath = argc < 2;
	struct spec_runtime_stats st = {0};
	struct drv d = {0};
	struct workload w;
	unsigned int rx = 32, tx = 32;
	int i, ret = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "burst")) {
			burst = true;
		} else if (!strcmp(argv[i], "fastpath")) {
			fastpath = true;
		} else {
			usage();
			return 2;
		}
	}
	if (net_eal_init() || workload_init(&w, &wo))
		return 1;
	d.w = &w;
	d.t = tables_new("bfwd", 2 * wo.nr_flows);
	if (!d.t || workload_fill(&w, d.t))
		goto out;
	d.net = net_new("bfwd", wo.nr_ports, d.t);
	d.rt = spec_runtime__open(DPDK_IR, NULL);
	if (!d.net || !d.rt || spec_runtime__add_gen(d.rt, FWD_FLOW_LABEL, fwd_gen, NULL))
		goto out;
	d.poll = spec_runtime__handler(d.rt, "fwd_poll");
	if (!d.poll)
		goto out;
	printf("DPDK L3 forwarder: %u net_ring ports, %u flows (rte_hash), %u routes (rte_lpm), "
	       "%u hot flows carry %u %% of packets; packets/s of poll time\n",
	       wo.nr_ports, wo.nr_flows, wo.nr_routes, wo.nr_hot, wo.hot_pct);
	baseline(&d);
	if (burst) {
		struct workload_opts o2 = wo;
		struct workload w2;

		/* The second phase: the same tables, no hot flows. */
		o2.hot_pct = 0;
		if (workload_init(&w2, &o2))
			goto out;
		i = bench_burst(&d, &w2, &rx, &tx);
		workload_fini(&w2);
		d.w = &w;
		d.in_port = 0;
		if (i)
			goto out;
	}
	if (fastpath) {
		if (bench_fastpath(&d, &w, rx, tx))
			goto out;
	}
	if (!spec_runtime__stats(d.rt, &st, sizeof(st)) && st.compiles)
		printf("compiles: %lu, mean %.1f ms (paper, Table 4: Network Functions 98 +- 5 ms, "
		       "FastClick 11 +- 1 ms)\n",
		       (unsigned long)st.compiles,
		       (double)st.total_compile_ns / 1e6 / (double)st.compiles);
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "dpdk-fwd-bench: setup or a part failed\n");
	spec_runtime__close(d.rt);
	net_free(d.net);
	tables_free(d.t);
	workload_fini(&w);
	net_eal_fini();
	return ret;
}
