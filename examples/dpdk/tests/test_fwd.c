// SPDX-License-Identifier: GPL-2.0
/*
 * The DPDK forwarder, differentially: the same deterministic packet stream
 * goes through the native build of the poll, libspec's generic variant and
 * specialized variants (burst sizes, a fast path of hot flows); what each
 * port sends must be the same packets in the same order. Every output
 * packet is also checked on its own (next hop, TTL, checksum, addresses),
 * and the fast path must actually take the hot flows off the slow lookup.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <libspec/libspec.h>
#include <libspec/policy.h>
#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_ethdev.h>
#include <rte_ip.h>

#include "fwd_gen.h"
#include "pcap_gen.h"
#include "net.h"
#include "workload.h"

#define NR_PORTS 4
#define NR_PKTS 20000
#define CHUNK 256

static struct spec_runtime *rt;
static struct fwd_tables *tabs;
static struct net *net;
static struct workload w;

/* What each output port sent, packet by packet. */
struct out {
	uint8_t *pkt[NR_PORTS];
	size_t n[NR_PORTS];
	uint64_t rx, tx, dropped, lookups;
};

static void out_free(struct out *o)
{
	unsigned int p;

	for (p = 0; p < NR_PORTS; p++)
		free(o->pkt[p]);
	memset(o, 0, sizeof(*o));
}

static void collect(struct out *o)
{
	unsigned int p;

	for (p = 0; p < NR_PORTS; p++)
		o->n[p] += workload_collect(net, p, o->pkt[p] + o->n[p] * WORKLOAD_PKT_LEN,
					    2 * NR_PKTS - o->n[p]);
}

/*
 * @count packets of the stream into each port of @in (a bit mask of input
 * ports, chunks alternating), the poll run until it finds nothing (which
 * also sends the partial bursts).
 */
/* Called after each poll that received packets (queues may be partial). */
static void (*between_polls)(void);
/* CHUNK packets this many times per input before the polls. */
static size_t chunks = 1;

static void run(fwd_poll_fn poll, unsigned int in, size_t count, struct out *o)
{
	size_t pos[NR_PORTS] = {0};
	unsigned int p, got;
	bool more;

	memset(o, 0, sizeof(*o));
	for (p = 0; p < NR_PORTS; p++)
		assert_non_null(o->pkt[p] = calloc(2 * NR_PKTS, WORKLOAD_PKT_LEN));
	net->fwd.rx = net->fwd.tx = net->fwd.dropped = 0;
	tabs->lookups = 0;
	do {
		more = false;
		for (p = 0; p < NR_PORTS; p++) {
			size_t before = pos[p], k;

			if (!(in & (1u << p)) || pos[p] >= count)
				continue;
			for (k = 0; k < chunks && pos[p] < count; k++)
				workload_inject(&w, net, p, &pos[p],
						(unsigned int)(count - pos[p] < CHUNK
								       ? count - pos[p]
								       : CHUNK));
			assert_true(pos[p] > before);
			more = more || pos[p] < count;
		}
		do {
			got = poll(&net->fwd);
			collect(o);
			if (got && between_polls)
				between_polls();
		} while (got);
	} while (more);
	o->rx = net->fwd.rx;
	o->tx = net->fwd.tx;
	o->dropped = net->fwd.dropped;
	o->lookups = tabs->lookups;
}

static uint32_t seq_of(const uint8_t *pkt)
{
	uint32_t s;

	memcpy(&s, pkt + WORKLOAD_PKT_LEN - sizeof(s), sizeof(s));
	return s;
}

/* Same packets in the same order on every port. */
static void assert_same(const struct out *a, const struct out *b)
{
	unsigned int p;

	for (p = 0; p < NR_PORTS; p++) {
		assert_int_equal(a->n[p], b->n[p]);
		assert_memory_equal(a->pkt[p], b->pkt[p], a->n[p] * WORKLOAD_PKT_LEN);
	}
	assert_int_equal(a->rx, b->rx);
	assert_int_equal(a->tx, b->tx);
	assert_int_equal(a->dropped, b->dropped);
}

/* The subsequence of port @p's output that came in on input @in. */
static size_t from_input(const struct out *o, unsigned int p, unsigned int in, uint8_t *dst)
{
	size_t i, n = 0;

	for (i = 0; i < o->n[p]; i++) {
		const uint8_t *pkt = o->pkt[p] + i * WORKLOAD_PKT_LEN;

		if (seq_of(pkt) >> 24 == in)
			memcpy(dst + n++ * WORKLOAD_PKT_LEN, pkt, WORKLOAD_PKT_LEN);
	}
	return n;
}

static void *jit_poll(const char *cfg_text)
{
	struct spec_config *c = spec_config__parse(cfg_text);

	assert_non_null(c);
	assert_int_equal(spec_runtime__specialize_sync(rt, c, NULL), 0);
	spec_config__free(c);
	return spec_runtime__handler(rt, "fwd_poll");
}

static void *jit_cfg(struct spec_config *c)
{
	assert_non_null(c);
	assert_int_equal(spec_runtime__specialize_sync(rt, c, NULL), 0);
	spec_config__free(c);
	return spec_runtime__handler(rt, "fwd_poll");
}

/* Every packet the native poll sends, checked against the workload. */
static void test_native_output(void **state)
{
	size_t expect_drop = 0, i, sent = 0;
	struct out o;
	unsigned int p;

	(void)state;
	run(fwd_poll, 1, NR_PKTS, &o);
	for (i = 0; i < NR_PKTS; i++) {
		if (w.kind[i] == PKT_TTL1 || w.kind[i] == PKT_ARP)
			expect_drop++;
		else if (fwd_lookup(tabs, w.keys[i]) < 0)
			expect_drop++;
	}
	assert_int_equal(o.rx, NR_PKTS);
	assert_int_equal(o.dropped, expect_drop);
	assert_int_equal(o.tx + o.dropped, NR_PKTS);
	for (p = 0; p < NR_PORTS; p++) {
		uint32_t last = 0;

		for (i = 0; i < o.n[p]; i++, sent++) {
			const uint8_t *pkt = o.pkt[p] + i * WORKLOAD_PKT_LEN;
			struct rte_ether_hdr eth;
			struct rte_ipv4_hdr ip;
			uint32_t seq = seq_of(pkt);
			uint16_t ck;

			memcpy(&eth, pkt, sizeof(eth));
			memcpy(&ip, pkt + sizeof(eth), sizeof(ip));
			assert_true(seq < NR_PKTS);
			assert_true(i == 0 || seq > last); /* order kept */
			last = seq;
			assert_int_equal(w.kind[seq], PKT_KNOWN + (w.kind[seq] == PKT_UNKNOWN));
			assert_int_equal(fwd_lookup(tabs, w.keys[seq]), p);
			assert_int_equal(ip.time_to_live, 63);
			ck = ip.hdr_checksum;
			ip.hdr_checksum = 0;
			assert_int_equal(ck, rte_ipv4_cksum(&ip));
			assert_memory_equal(&eth.dst_addr, &net->fwd.peer[p], RTE_ETHER_ADDR_LEN);
			assert_memory_equal(&eth.src_addr, &net->fwd.mac[p], RTE_ETHER_ADDR_LEN);
		}
	}
	assert_int_equal(sent, o.tx);
	out_free(&o);
}

static void test_generic_is_native(void **state)
{
	struct out a, b;

	(void)state;
	run(fwd_poll, 1, NR_PKTS, &a);
	run(jit_poll(""), 1, NR_PKTS, &b);
	assert_same(&a, &b);
	out_free(&a);
	out_free(&b);
}

/* Burst sizes change how packets are batched, never what is sent or in
 * which order.
 */
static void test_bursts(void **state)
{
	static const unsigned int bursts[][2] = {
		{4, 4}, {4, 128}, {128, 4}, {16, 32}, {32, 16}, {128, 128}, {32, 4},
	};
	struct out ref, o;
	size_t i;

	(void)state;
	run(jit_poll(""), 1, NR_PKTS, &ref);
	for (i = 0; i < sizeof(bursts) / sizeof(bursts[0]); i++) {
		run(jit_cfg(fwd_config(bursts[i][0], bursts[i][1], NULL, 0, 0)), 1, NR_PKTS, &o);
		assert_same(&ref, &o);
		out_free(&o);
	}
	/* The generic values set in the struct must agree too. */
	net->fwd.rx_burst = 7;
	net->fwd.tx_burst = 3;
	run(jit_poll(""), 1, NR_PKTS, &o);
	net->fwd.rx_burst = net->fwd.tx_burst = 32;
	assert_same(&ref, &o);
	out_free(&o);
	out_free(&ref);
}

/* The fast path answers the hot flows itself: same output, and the slow
 * lookup sees only what is not in it.
 */
static void test_fast_path(void **state)
{
	static const unsigned int ks[] = {1, 4, 8};
	struct out ref, o;
	size_t i, lookups = 0;

	(void)state;
	/* The instrumentation phase: the generic lookup, sampled. */
	run(jit_cfg(fwd_config(0, 0, NULL, 0, 1)), 1, NR_PKTS, &ref);
	out_free(&ref);
	run(jit_poll(""), 1, NR_PKTS, &ref);
	for (i = 0; i < NR_PKTS; i++)
		lookups += w.kind[i] == PKT_KNOWN || w.kind[i] == PKT_UNKNOWN;
	assert_int_equal(ref.lookups, lookups);
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		run(jit_cfg(fwd_config(16, 32, tabs, ks[i], 0)), 1, NR_PKTS, &o);
		assert_same(&ref, &o);
		/* Six hot flows carry 90 % of the packets. */
		assert_true(o.lookups < ref.lookups);
		if (ks[i] >= 6)
			assert_true(o.lookups < ref.lookups / 4);
		out_free(&o);
	}
	out_free(&ref);
}

/* A hot flow of the workload (the most sampled one) and its port. */
static size_t hottest_flow(void)
{
	size_t count[2048] = {0}, i, best = 0;

	assert_true(w.o.nr_flows <= 2048);
	for (i = 0; i < NR_PKTS; i++) {
		size_t f;

		for (f = 0; f < w.o.nr_flows && w.flows[f] != w.keys[i]; f++)
			;
		if (f < w.o.nr_flows && w.kind[i] == PKT_KNOWN && ++count[f] > count[best])
			best = f;
	}
	return best;
}

/*
 * A fast path holds answers, so a table change must go through
 * invalidate: without it the old port is still sent to; with it the
 * generic lookup answers at once, and a new fast path has the new port.
 */
static void test_table_change(void **state)
{
	size_t f = hottest_flow();
	unsigned int old = w.flow_port[f], new = (old + 1) % NR_PORTS;
	struct out native, o;

	(void)state;
	run(jit_cfg(fwd_config(0, 0, NULL, 0, 1)), 1, NR_PKTS, &o);
	out_free(&o);
	jit_cfg(fwd_config(32, 32, tabs, 8, 0));
	assert_int_equal(tables_add_flow(tabs, w.flows[f], new), 0);
	run(fwd_poll, 1, NR_PKTS, &native);
	run(spec_runtime__handler(rt, "fwd_poll"), 1, NR_PKTS, &o);
	assert_int_not_equal(o.n[new], native.n[new]); /* stale: the old port */
	out_free(&o);

	assert_int_equal(spec_runtime__invalidate(rt, FWD_FLOW_LABEL, NULL), 0);
	run(spec_runtime__handler(rt, "fwd_poll"), 1, NR_PKTS, &o);
	assert_same(&native, &o);
	out_free(&o);
	run(jit_cfg(fwd_config(0, 0, NULL, 0, 1)), 1, NR_PKTS, &o);
	out_free(&o);
	run(jit_cfg(fwd_config(32, 32, tabs, 8, 0)), 1, NR_PKTS, &o);
	assert_same(&native, &o);
	assert_true(o.lookups < native.lookups / 4);
	out_free(&o);

	assert_int_equal(spec_runtime__invalidate(rt, FWD_FLOW_LABEL, NULL), 0);
	assert_int_equal(tables_add_flow(tabs, w.flows[f], old), 0);
	out_free(&native);
}

/* Two inputs: batching interleaves them differently per burst size, but
 * each input's packets leave each port in their order.
 */
static void test_two_inputs(void **state)
{
	static uint8_t a[2 * NR_PKTS * WORKLOAD_PKT_LEN], b[2 * NR_PKTS * WORKLOAD_PKT_LEN];
	struct out ref, o;
	unsigned int p, in, k;

	(void)state;
	run(fwd_poll, 3, NR_PKTS / 2, &ref);
	for (k = 0; k < 2; k++) {
		run(jit_cfg(k ? fwd_config(128, 128, tabs, 8, 0) : fwd_config(4, 16, NULL, 0, 0)),
		    3, NR_PKTS / 2, &o);
		assert_int_equal(o.tx, ref.tx);
		assert_int_equal(o.dropped, ref.dropped);
		for (p = 0; p < NR_PORTS; p++)
			for (in = 0; in < 2; in++) {
				size_t na = from_input(&ref, p, in, a),
				       nb = from_input(&o, p, in, b);

				assert_int_equal(na, nb);
				assert_memory_equal(a, b, na * WORKLOAD_PKT_LEN);
			}
		out_free(&o);
	}
	out_free(&ref);
}

/* The policy's clock: one millisecond a poll, so its windows are polls. */
static struct spec_policy_exhaustive *pol;
static uint64_t fake_ns;

static uint64_t fake_clock(void *ctx)
{
	(void)ctx;
	return fake_ns;
}

static double packets(void *ctx)
{
	(void)ctx;
	return (double)net->fwd.rx;
}

static void step_policy(void)
{
	uint64_t next = 0;
	int i;

	fake_ns += 1000000;
	for (i = 0; i < 8 && next <= fake_ns; i++)
		spec_policy_exhaustive__step(pol, &next);
}

/*
 * The exhaustive policy over both burst points switches variants between
 * polls, with packets still queued for TX under the previous burst size
 * (up to 127 of them when 128 was the last): the output must not change.
 */
static void test_policy_switching(void **state)
{
	static const char *const labels[] = {"rx_burst", "tx_burst"};
	struct spec_runtime_stats a = {0}, b = {0};
	struct out ref, o;

	(void)state;
	run(jit_poll(""), 1, NR_PKTS, &ref);
	{
		LIBSPEC_OPTS(spec_policy_exhaustive_opts, po, .metric = packets,
			     .metric_mode = SPEC_METRIC_COUNTER, .dwell_ns = 1000000,
			     .labels = labels, .nr_labels = 2, .noguard_labels = labels,
			     .nr_noguard_labels = 2, .clock = fake_clock);

		pol = spec_policy_exhaustive__new(rt, &po);
	}
	assert_non_null(pol);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(pol), 16);
	assert_int_equal(spec_runtime__stats(rt, &a, sizeof(a)), 0);
	/* A thousand packets a round: a port's queue can fill a TX burst of
	 * 128 before the round's last poll sends what is left.
	 */
	between_polls = step_policy;
	chunks = 4;
	run(spec_runtime__handler(rt, "fwd_poll"), 1, NR_PKTS, &o);
	between_polls = NULL;
	chunks = 1;
	assert_int_equal(spec_runtime__stats(rt, &b, sizeof(b)), 0);
	assert_int_equal(spec_policy_exhaustive__best(pol, NULL, NULL), 0);
	spec_policy_exhaustive__free(pol);
	/* Every candidate and the choice were installed mid-stream. */
	assert_true(b.swaps - a.swaps >= 17);
	assert_same(&ref, &o);
	out_free(&o);
	out_free(&ref);
}

/* Every packet of port @pid until it stays empty; seq (last 4 bytes) and
 * destination address of each into @seq and @dst. Returns the count.
 */
static size_t drain_port(uint16_t pid, uint32_t *seq, uint32_t *dst, size_t max)
{
	struct rte_mbuf *m[64];
	size_t n = 0;
	int idle = 0;

	while (idle < 64) {
		uint16_t k = rte_eth_rx_burst(pid, 0, m, 64), i;

		idle = k ? 0 : idle + 1;
		for (i = 0; i < k; i++, n++) {
			const uint8_t *b = rte_pktmbuf_mtod(m[i], const uint8_t *);

			if (n < max) {
				memcpy(&seq[n], b + WORKLOAD_PKT_LEN - 4, 4);
				memcpy(&dst[n], b + 14 + 16, 4);
			}
		}
		rte_pktmbuf_free_bulk(m, k);
	}
	return n;
}

/* The destination seen most often in @dst[from, to). */
static uint32_t top_dst(const uint32_t *dst, size_t from, size_t to)
{
	uint32_t best = 0;
	size_t i, j, best_n = 0;

	for (i = from; i < to; i += 97) {
		size_t c = 0;

		for (j = from; j < to; j++)
			c += dst[j] == dst[i];
		if (c > best_n) {
			best_n = c;
			best = dst[i];
		}
	}
	return best;
}

/*
 * The capture pcap_gen writes replays through a net_pcap port made from a
 * --vdev string (hotplugged here, as the EAL makes it from the command
 * line): every packet, in order, its phases with different hot flows, and
 * again from the start after the port is restarted (dpdk-fwd-replay's runs
 * rely on that).
 */
static void test_fwd_capture_replays_through_net_pcap(void **state)
{
	enum { PER_PHASE = 3000, PHASES = 2, N = PER_PHASE * PHASES };
	struct workload_opts wo = w.o;
	static const struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	char dir[] = "/tmp/test_fwd_pcap.XXXXXX", path[64], dev[128];
	uint32_t *seq = calloc(N, sizeof(*seq)), *dst = calloc(N, sizeof(*dst));
	struct workload cap;
	uint16_t pid;
	size_t i;

	(void)state;
	assert_non_null(seq);
	assert_non_null(dst);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/t.pcap", dir);
	wo.nr_pkts = 4096;
	assert_int_equal(workload_init(&cap, &wo), 0);
	assert_int_equal(pcap_gen_write(path, &cap, PER_PHASE, PHASES), 0);
	workload_fini(&cap);
	snprintf(dev, sizeof(dev), "net_pcap_t0,rx_pcap=%s", path);
	assert_int_equal(rte_dev_probe(dev), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name("net_pcap_t0", &pid), 0);
	assert_int_equal(rte_eth_dev_configure(pid, 1, 1, &conf), 0);
	assert_int_equal(rte_eth_rx_queue_setup(pid, 0, 512, SOCKET_ID_ANY, NULL, net->pool), 0);
	assert_int_equal(rte_eth_tx_queue_setup(pid, 0, 512, SOCKET_ID_ANY, NULL), 0);
	assert_int_equal(rte_eth_dev_start(pid), 0);
	assert_int_equal(drain_port(pid, seq, dst, N), N);
	for (i = 0; i < N; i++)
		assert_int_equal(seq[i], i);
	assert_int_not_equal(top_dst(dst, 0, PER_PHASE), top_dst(dst, PER_PHASE, N));
	assert_int_equal(rte_eth_dev_stop(pid), 0);
	assert_int_equal(rte_eth_dev_start(pid), 0);
	memset(seq, 0xff, N * sizeof(*seq));
	assert_int_equal(drain_port(pid, seq, dst, N), N);
	assert_int_equal(seq[0], 0);
	assert_int_equal(seq[N - 1], N - 1);
	assert_int_equal(rte_eth_dev_info_get(pid, &info), 0);
	assert_int_equal(rte_eth_dev_stop(pid), 0);
	assert_int_equal(rte_eth_dev_close(pid), 0);
	assert_int_equal(rte_dev_remove(info.device), 0);
	unlink(path);
	rmdir(dir);
	free(seq);
	free(dst);
}

static int setup(void **state)
{
	struct workload_opts wo = {
		.seed = 20,
		.nr_ports = NR_PORTS,
		.nr_flows = 2048,
		.nr_routes = 256,
		.nr_hot = 6,
		.hot_pct = 90,
		.nr_pkts = NR_PKTS,
	};

	(void)state;
	if (net_eal_init() || workload_init(&w, &wo))
		return -1;
	tabs = tables_new("tfwd", 4096);
	if (!tabs || workload_fill(&w, tabs))
		return -1;
	net = net_new("tfwd", NR_PORTS, tabs);
	rt = spec_runtime__open(DPDK_IR, NULL);
	if (!net || !rt || spec_runtime__add_gen(rt, FWD_FLOW_LABEL, fwd_gen, NULL))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	spec_runtime__close(rt);
	net_free(net);
	tables_free(tabs);
	workload_fini(&w);
	net_eal_fini();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_native_output),
		cmocka_unit_test(test_generic_is_native),
		cmocka_unit_test(test_bursts),
		cmocka_unit_test(test_fast_path),
		cmocka_unit_test(test_two_inputs),
		cmocka_unit_test(test_table_change),
		cmocka_unit_test(test_policy_switching),
		cmocka_unit_test(test_fwd_capture_replays_through_net_pcap),
	};

	return cmocka_run_group_tests_name("dpdk_fwd", tests, setup, teardown);
}
