// SPDX-License-Identifier: GPL-2.0
/*
 * Where RX ring lines live (SIMULATOR.md, "Where RX lines live"), and the
 * measurements that motivate the IOCA paper and A4, in kind: the Leaky DMA
 * growing with the ring (the IOCA paper's Sec. 3.1 and the ring sizes of its
 * Fig. 3), the Latent Contender (its Fig. 4), interference on the inclusive
 * ways with DCA on and off (A4's Fig. 4), and the I/O tenant on the
 * inclusive ways (A4's Fig. 7). Orderings and signs, not the papers' sizes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim_fx.h"
#include "sim_model.h"

/* Line rate of one 40GbE port at @pkt bytes (20 bytes of preamble and gap). */
#define LINE_RATE(pkt) (40e9 / (((pkt) + 20) * 8))

/* t0: an l3fwd-like consumer of one 40GbE port; t1, t2: X-Mem-like readers. */
static int setup(void **state)
{
	struct sim_fx *f = sim_fx_new(3);

	if (!f)
		return -1;
	f->p.llc_latency = 50;
	f->p.l2_latency = 14;
	f->t[0].w.pkt = 1024;
	f->t[0].w.rate = LINE_RATE(1024);
	f->t[0].w.queues = 4;
	f->t[0].w.touch = 64;
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[1].w.rpi = 0.02;
	f->t[1].mask = sim_fx_ways(2, 2);
	f->t[2].mask = sim_fx_ways(4, 2);
	*state = f;
	return 0;
}

/* DDIO on its default ways, 9-10. */
static void solve(struct sim_fx *f, unsigned int n)
{
	sim_fx_solve(f, n, sim_fx_ways(9, 2));
}

/* A ring that fits: every write hits in place; read lines in the inclusive ways. */
static void test_ring_that_fits_lives_where_written_and_read(void **state)
{
	struct sim_fx *f = *state;
	const struct sim_tenant_rates *c = &f->r.tenant[0];

	solve(f, 1);
	assert_float_equal(c->ring_hit, 1.0, 1e-9);
	assert_float_equal(f->r.ddio_misses, 0.0, 1e-3);
	/* 1024-byte packets: 16 lines, the core reads one */
	assert_float_equal(c->ring_incl, 1.0 / 16, 1e-6);
	assert_float_equal(c->ring_ddio, 15.0 / 16, 1e-6);
	assert_float_equal(c->ring_gone, 0.0, 1e-6);
	assert_float_equal(f->r.incl_occ, 4 * 1024 * 64.0, 1.0);
	/* without the inclusive ways a read line stays in DDIO's */
	f->p.incl_mask = 0;
	solve(f, 1);
	assert_float_equal(c->ring_incl, 0.0, 0);
	assert_float_equal(c->ring_ddio, 1.0, 1e-6);
	assert_float_equal(f->r.incl_occ, 0.0, 0);
}

/* DCA off: every write goes to DRAM, every line the core reads misses. */
static void test_ring_without_dca_goes_to_dram(void **state)
{
	struct sim_fx *f = *state;
	const struct sim_tenant_rates *c = &f->r.tenant[0];

	f->t[0].w.dca = false;
	solve(f, 1);
	assert_float_equal(c->ring_hit, 0.0, 0);
	assert_float_equal(f->r.ddio_hits, 0.0, 0);
	assert_float_equal(f->r.ddio_misses, c->pkts * 16, 1.0);
	assert_float_equal(c->ring_ddio + c->ring_incl, 0.0, 0);
	assert_true(c->llc_misses >= c->pkts * 1.0 - 1.0);
	assert_true(f->r.mem_bytes >= 64.0 * c->pkts * 17 - 64.0);
}

/*
 * The Leaky DMA against the ring size: 64 to 4096 descriptors (the IOCA
 * paper's Fig. 3 runs 64, 512 and 1024; ResQ shrinks rings to stop the
 * leak). DDIO misses per packet and memory traffic never fall as the ring
 * grows, are nil while the unread payload fits DDIO's two ways and not
 * once it does not; more DDIO ways leak less.
 */
static void test_ring_leaky_dma_grows_with_the_ring(void **state)
{
	struct sim_fx *f = *state;
	double miss = -1, mem = -1, two;
	unsigned int ring;

	for (ring = 64; ring <= 4096; ring *= 2) {
		f->t[0].w.ring = ring;
		solve(f, 1);
		assert_true(f->r.ddio_misses / f->r.tenant[0].pkts >= miss - 1e-9);
		assert_true(f->r.mem_bytes >= mem * (1 - 1e-9));
		miss = f->r.ddio_misses / f->r.tenant[0].pkts;
		mem = f->r.mem_bytes;
		if (ring <= 512)
			assert_float_equal(miss, 0.0, 1e-6);
	}
	assert_true(miss > 1.0); /* lines per packet */
	assert_true(f->r.tenant[0].ring_gone > 0.3);
	two = f->r.ddio_misses;
	assert_int_equal(sim_model_solve(&f->p, f->t, 1, sim_fx_ways(7, 4), &f->ws, &f->r), 0);
	assert_true(f->r.ddio_misses < 0.9 * two);
}

/*
 * The Leaky DMA's other half: a consumer that cannot keep up finds lines
 * evicted before it reads them. Read lines in DDIO's ways (no inclusive
 * ways) leak once the ring outgrows them; in uncontended inclusive ways
 * they are updated in place and stay (A4's mechanism), unless a tenant
 * thrashes those ways.
 */
static void test_ring_overloaded_consumer_reads_evicted_lines(void **state)
{
	struct sim_fx *f = *state;
	const struct sim_tenant_rates *c = &f->r.tenant[0];
	double kept_up;

	f->t[0].w.ring = 4096;
	f->p.incl_mask = 0;
	solve(f, 1);
	kept_up = c->ring_mc;
	f->t[0].w.rate = 3 * LINE_RATE(1024); /* beyond one core */
	solve(f, 1);
	assert_true(c->drops > 0);
	assert_true(c->ring_mc > 0.2 && c->ring_mc > 10 * kept_up);
	f->p.incl_mask = 0x3;
	solve(f, 1);
	assert_float_equal(c->ring_mc, 0.0, 1e-6);
	/* a 40 MiB reader on the inclusive ways evicts them again */
	f->t[1].mask = sim_fx_ways(0, 2);
	f->t[1].w.ws = 40 * MB;
	solve(f, 2);
	assert_true(c->ring_mc > 0.05);
}

/*
 * The Latent Contender (the IOCA paper's Fig. 4): l3fwd on ways 0-1 at
 * 40 Gb/s; X-Mem on two ways of its own or on DDIO's two, working sets
 * 4 to 16 MiB. On DDIO's ways its throughput is lower and its latency
 * higher at every size (the paper: up to -26 % and +32 %).
 */
static void test_ring_latent_contender_on_ddio_ways(void **state)
{
	struct sim_fx *f = *state;
	double ws;

	f->p.l2_bytes = 1 * MB;
	for (ws = 4; ws <= 16; ws *= 2) {
		double tput, lat;

		f->t[1].w.ws = ws * MB;
		f->t[1].mask = sim_fx_ways(2, 2);
		solve(f, 2);
		tput = f->r.tenant[1].llc_refs;
		lat = f->r.tenant[1].lat_ns;
		f->t[1].mask = sim_fx_ways(9, 2);
		solve(f, 2);
		assert_true(f->r.tenant[1].llc_refs < 0.97 * tput);
		assert_true(f->r.tenant[1].lat_ns > 1.03 * lat);
	}
}

/*
 * A4's Fig. 4: a tenant on the inclusive ways, off DDIO's, slows under
 * network I/O with DCA on, and not with DCA off (no memory-bandwidth
 * contention here, so exactly not).
 */
static void test_ring_inclusive_ways_suffer_only_with_dca(void **state)
{
	struct sim_fx *f = *state;
	double idle, on, off;

	f->t[0].mask = sim_fx_ways(4, 3);
	f->t[0].ncpus = 2;
	f->t[0].w.pkt = 1500;
	f->t[0].w.touch = 256;
	f->t[1].mask = sim_fx_ways(0, 2);
	f->t[1].w.ws = 4 * MB;
	f->t[0].w.rate = 0;
	solve(f, 2);
	idle = sim_fx_ipc(&f->r.tenant[1]);
	f->t[0].w.rate = 2 * LINE_RATE(1500);
	solve(f, 2);
	on = sim_fx_ipc(&f->r.tenant[1]);
	assert_true(f->r.incl_occ > 0);
	f->t[0].w.dca = false;
	solve(f, 2);
	off = sim_fx_ipc(&f->r.tenant[1]);
	assert_true(on < 0.9 * idle);
	assert_float_equal(off, idle, 1e-9);
}

/*
 * A4's Fig. 7: the I/O-heavy tenant on the inclusive ways, a memory-bound
 * one beside them, against the other way round: less DRAM traffic and a
 * lower latency for the other tenant.
 */
static void test_ring_io_tenant_on_inclusive_ways_saves_memory(void **state)
{
	struct sim_fx *f = *state;
	double mem, lat;

	f->p.mem_bw = 128e9;
	f->p.mem_slope = 0.2;
	f->t[0].ncpus = 2;
	f->t[0].w.pkt = 1500;
	f->t[0].w.touch = 256;
	f->t[0].w.rate = 2 * LINE_RATE(1500);
	f->t[1].w.ws = 6 * MB;
	f->t[2].w.ws = 6 * MB;
	f->t[2].w.rpi = 0.02;
	f->t[2].mask = sim_fx_ways(4, 5);
	f->t[0].mask = sim_fx_ways(2, 2);
	f->t[1].mask = sim_fx_ways(0, 2);
	solve(f, 3);
	mem = f->r.mem_bytes;
	lat = f->r.tenant[1].lat_ns;
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[1].mask = sim_fx_ways(2, 2);
	solve(f, 3);
	assert_true(f->r.mem_bytes < mem);
	assert_true(f->r.tenant[1].lat_ns < 0.95 * lat);
}

/*
 * TX reads (SIMULATOR.md, "TX reads"): a forwarding consumer's NIC reads
 * every line of each packet it sends. Read microseconds after the NIC
 * wrote it, the payload is still cached: no DRAM traffic, nothing else
 * changes (the read allocates nothing and leaves LRU alone). Half the
 * packets sent, half the reads.
 */
static void test_ring_tx_reads_cached_payload_from_the_llc(void **state)
{
	struct sim_fx *f = *state;
	const struct sim_tenant_rates *c = &f->r.tenant[0];
	double mem, hits, cpp;

	f->t[0].w.ring = 4096; /* leaking: 11 lines per packet */
	solve(f, 1);
	mem = f->r.mem_bytes;
	hits = f->r.ddio_hits;
	cpp = c->cpp;
	assert_float_equal(f->r.tx_reads, 0.0, 0);
	f->t[0].w.tx = 1;
	solve(f, 1);
	assert_float_equal(c->tx_reads, c->pkts * 16, 1.0);
	assert_float_equal(f->r.tx_reads, c->tx_reads, 0);
	assert_true(c->tx_misses < 1e-6 * c->tx_reads);
	assert_float_equal(f->r.mem_bytes, mem, 1e-6 * mem);
	assert_float_equal(f->r.ddio_hits, hits, 1e-6 * hits);
	assert_float_equal(c->cpp, cpp, 1e-9 * cpp);
	f->t[0].w.tx = 0.5;
	solve(f, 1);
	assert_float_equal(c->tx_reads, c->pkts * 8, 1.0);
}

/*
 * What TX reads cost: without DCA the payload the core did not read is
 * in DRAM (a read per line; the lines it read are in its caches); a
 * consumer that falls a revolution behind with its ring leaking finds
 * payload evicted before it sends it: DRAM reads beside the write-backs.
 */
static void test_ring_tx_reads_leaked_payload_from_dram(void **state)
{
	struct sim_fx *f = *state;
	const struct sim_tenant_rates *c = &f->r.tenant[0];
	double mem;

	f->t[0].w.tx = 1;
	f->t[0].w.dca = false;
	solve(f, 1);
	assert_float_equal(c->tx_misses, c->pkts * 15, 1.0);
	assert_true(f->r.mem_bytes >= 64.0 * c->pkts * (17 + 15) - 64.0);
	f->t[0].w.dca = true;
	f->t[0].w.ring = 4096;
	f->t[0].w.rate = 3 * LINE_RATE(1024); /* beyond one core: d = R */
	f->t[0].w.tx = 0;
	solve(f, 1);
	mem = f->r.mem_bytes;
	f->t[0].w.tx = 1;
	solve(f, 1);
	assert_true(c->tx_misses > 0.1 * c->pkts * 15);
	assert_float_equal(f->r.mem_bytes, mem + 64.0 * c->tx_misses, 1e-6 * mem);
	assert_true(f->r.tx_misses < f->r.tx_reads);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ring_that_fits_lives_where_written_and_read,
						setup, sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_without_dca_goes_to_dram, setup,
						sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_leaky_dma_grows_with_the_ring, setup,
						sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_overloaded_consumer_reads_evicted_lines,
						setup, sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_latent_contender_on_ddio_ways, setup,
						sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_inclusive_ways_suffer_only_with_dca,
						setup, sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_io_tenant_on_inclusive_ways_saves_memory,
						setup, sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_tx_reads_cached_payload_from_the_llc,
						setup, sim_fx_teardown),
		cmocka_unit_test_setup_teardown(test_ring_tx_reads_leaked_payload_from_dram, setup,
						sim_fx_teardown),
	};

	return cmocka_run_group_tests_name("sim_ring", tests, NULL, NULL);
}
