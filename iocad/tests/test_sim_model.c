// SPDX-License-Identifier: GPL-2.0
/* The simulator's sanity properties (SIMULATOR.md), on the model alone. */
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
#include "sim_rng.h"

/* 11 ways of 2.25 MiB; t0 a 10 MiB cache-hungry PS tenant, t1 a packet consumer. */
static int setup(void **state)
{
	struct sim_fx *f = sim_fx_new(4);

	if (!f)
		return -1;
	f->t[0].w.ws = 10 * MB;
	f->t[0].w.rpi = 0.01;
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[1].w.rate = 4e6;
	f->t[1].w.pkt = 1500;
	f->t[1].w.queues = 4;
	f->t[1].ncpus = 2;
	f->t[1].mask = sim_fx_ways(2, 3);
	f->t[2].w.ws = 2 * MB;
	f->t[2].mask = sim_fx_ways(5, 2);
	f->t[3].w.ws = 2 * MB;
	f->t[3].mask = sim_fx_ways(7, 2);
	*state = f;
	return 0;
}

static double mpi(const struct sim_tenant_rates *r)
{
	return r->instructions > 0 ? r->llc_misses / r->instructions : 0;
}

static void test_sim_model_more_tenant_ways_never_mean_more_misses(void **state)
{
	struct sim_fx *f = *state;
	double prev = INFINITY;
	unsigned int n;

	for (n = 1; n <= 9; n++) {
		f->t[0].mask = sim_fx_ways(0, n);
		sim_fx_solve(f, 1, sim_fx_ways(9, 2));
		assert_true(mpi(&f->r.tenant[0]) <= prev * (1 + 1e-9));
		prev = mpi(&f->r.tenant[0]);
	}
	assert_true(prev < 1e-9); /* 9 ways hold 10 MiB */
}

static void test_sim_model_more_ddio_ways_never_mean_more_ddio_misses(void **state)
{
	struct sim_fx *f = *state;
	double prev = INFINITY;
	unsigned int n;

	f->t[1].w.queues = 16; /* 24 MiB of buffer lines */
	for (n = 1; n <= 6; n++) {
		sim_fx_solve(f, 2, sim_fx_ways(11 - n, n));
		assert_true(f->r.ddio_misses <= prev * (1 + 1e-9));
		prev = f->r.ddio_misses;
	}
}

/*
 * A tenant that grows onto a way nobody else allocates into (way 8: the
 * others are on ways 0-7, DDIO on 9-10) never misses more. (A way another
 * agent churns may hurt it: its fills spread over every way of its mask,
 * SIMULATOR.md, "Sharing ways".)
 */
static void test_sim_model_random_free_ways_never_raise_own_miss_ratio(void **state)
{
	struct sim_fx *f = *state;
	struct sim_rng r;
	int round;

	sim_rng_seed(&r, 7);
	for (round = 0; round < 40; round++) {
		unsigned int k = sim_rng_next(&r) % 4, i;
		double before;

		for (i = 0; i < 4; i++) {
			unsigned int lo = sim_rng_next(&r) % 8;

			f->t[i].mask = i == k ? sim_fx_ways(lo, 8 - lo)
					      : sim_fx_ways(lo, 1 + sim_rng_next(&r) % (8 - lo));
			f->t[i].w.ws = (0.5 + sim_rng_uniform(&r) * 12) * MB;
		}
		sim_fx_solve(f, 4, sim_fx_ways(9, 2));
		before = f->r.tenant[k].llc_misses / f->r.tenant[k].llc_refs;
		f->t[k].mask |= sim_fx_ways(8, 1);
		sim_fx_solve(f, 4, sim_fx_ways(9, 2));
		assert_true(f->r.tenant[k].llc_misses / f->r.tenant[k].llc_refs <= before + 1e-9);
	}
}

static void test_sim_model_larger_packets_mean_more_ddio_misses(void **state)
{
	struct sim_fx *f = *state;
	static const double sizes[] = {64, 256, 512, 1024, 1500};
	double prev = -1;
	size_t i;

	f->t[1].w.queues = 8;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		f->t[1].w.pkt = sizes[i];
		sim_fx_solve(f, 2, sim_fx_ways(9, 2));
		/* equal while only the read lines miss (one a packet at every size) */
		assert_true(f->r.ddio_misses >= prev * (1 - 1e-9));
		prev = f->r.ddio_misses;
	}
	assert_true(prev > 0);
}

static void test_sim_model_larger_rings_mean_more_ddio_misses(void **state)
{
	struct sim_fx *f = *state;
	double prev = -1;
	unsigned int ring;

	for (ring = 256; ring <= 8192; ring *= 2) {
		f->t[1].w.ring = ring;
		sim_fx_solve(f, 2, sim_fx_ways(9, 2));
		assert_true(f->r.ddio_misses >= prev);
		prev = f->r.ddio_misses;
	}
	assert_true(prev > 0);
}

static void test_sim_model_leaky_dma_costs_memory_traffic(void **state)
{
	struct sim_fx *f = *state;
	double fits_mem, fits_miss;

	f->t[1].w.queues = 2; /* 3 MiB of lines: half in DDIO fits two ways */
	sim_fx_solve(f, 2, sim_fx_ways(9, 2));
	fits_miss = f->r.ddio_misses;
	fits_mem = f->r.mem_bytes;
	f->t[1].w.queues = 16; /* 24 MiB: 12 MiB for two DDIO ways */
	sim_fx_solve(f, 2, sim_fx_ways(9, 2));
	assert_true(fits_miss < 1e-3 * f->r.ddio_misses);
	assert_true(f->r.ddio_misses > 0.3 * (f->r.ddio_hits + f->r.ddio_misses));
	assert_true(f->r.mem_bytes > fits_mem + 64 * 0.9 * f->r.ddio_misses);
}

static void test_sim_model_be_on_ddio_ways_instead_of_ps_raises_ps_ipc(void **state)
{
	struct sim_fx *f = *state;
	double shared, isolated;

	/* The PS tenant on DDIO's ways, a BE tenant elsewhere ... */
	f->t[0].mask = sim_fx_ways(9, 2);
	f->t[3].mask = sim_fx_ways(0, 2);
	sim_fx_solve(f, 4, sim_fx_ways(9, 2));
	shared = sim_fx_ipc(&f->r.tenant[0]);
	/* ... then swapped: CAT isolates both either way. */
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[3].mask = sim_fx_ways(9, 2);
	sim_fx_solve(f, 4, sim_fx_ways(9, 2));
	isolated = sim_fx_ipc(&f->r.tenant[0]);
	assert_true(isolated > 1.05 * shared);
}

static void test_sim_model_free_ways_make_ddio_irrelevant(void **state)
{
	struct sim_fx *f = *state;
	double quiet, busy;

	/* ways 0-1 (the inclusive ways) hold only the ring's read lines, 7-8 nothing */
	f->t[0].mask = sim_fx_ways(2, 4);
	f->t[1].mask = sim_fx_ways(6, 1);
	f->t[1].w.rate = 1e5;
	sim_fx_solve(f, 2, sim_fx_ways(9, 2));
	quiet = sim_fx_ipc(&f->r.tenant[0]);
	f->t[1].w.rate = 8e6;
	f->t[1].w.queues = 16;
	sim_fx_solve(f, 2, sim_fx_ways(9, 2));
	busy = sim_fx_ipc(&f->r.tenant[0]);
	assert_float_equal(quiet, busy, 1e-9);
}

static void test_sim_model_overloaded_consumer_drops_and_leaks(void **state)
{
	struct sim_fx *f = *state;

	f->t[1].w.rate = 50e6; /* far beyond two cores at 300 instructions a packet */
	f->t[1].w.queues = 16;
	sim_fx_solve(f, 2, sim_fx_ways(9, 2));
	assert_true(f->r.tenant[1].drops > 0);
	assert_true(f->r.tenant[1].pkts < 50e6);
	/* A full ring waits long enough for DDIO to evict packets before use. */
	assert_true(f->r.tenant[1].llc_misses > 0);
}

static void test_sim_model_inactive_tenant_counts_nothing(void **state)
{
	struct sim_fx *f = *state;

	f->t[2].w.active = false;
	sim_fx_solve(f, 4, sim_fx_ways(9, 2));
	assert_float_equal(f->r.tenant[2].cycles, 0, 0);
	assert_float_equal(f->r.tenant[2].instructions, 0, 0);
	assert_true(f->r.tenant[3].cycles > 0);
}

static void test_sim_model_rejects_bad_parameters(void **state)
{
	struct sim_fx *f = *state;

	f->p.ways = 0;
	assert_int_equal(sim_model_solve(&f->p, f->t, 4, 0x600, &f->ws, &f->r), -EINVAL);
	f->p.ways = 11;
	f->p.incl_mask = 0x1000; /* beyond the 11 ways */
	assert_int_equal(sim_model_solve(&f->p, f->t, 4, 0x600, &f->ws, &f->r), -EINVAL);
	f->p.incl_mask = 0x3;
	f->t[0].w.cpi = 0;
	assert_int_equal(sim_model_solve(&f->p, f->t, 4, 0x600, &f->ws, &f->r), -EINVAL);
}

/* A memory-bound neighbour on disjoint ways: cache-wise isolated, DRAM-wise not. */
static void thrasher(struct sim_fx *f)
{
	f->t[0].w.ws = 200 * MB;
	f->t[0].w.rpi = 0.05;
	f->t[0].w.mlp = 10;
	f->t[0].ncpus = 12;
	f->t[0].mask = sim_fx_ways(0, 2);
	f->t[2].w.ws = 8 * MB; /* misses in its two ways: it feels the DRAM latency */
	f->t[2].w.rpi = 0.02;
}

static void test_sim_model_memory_traffic_slows_a_cache_isolated_tenant(void **state)
{
	struct sim_fx *f = *state;
	double lat_quiet, ins_quiet, lat_idle_bw;

	thrasher(f);
	f->p.mem_bw = 128e9;
	f->p.mem_slope = 0.2;
	f->t[0].w.active = false;
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	lat_quiet = f->r.tenant[2].lat_ns;
	ins_quiet = f->r.tenant[2].instructions;
	f->t[0].w.active = true;
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	assert_true(f->r.mem_util > 0.3);
	assert_true(f->r.mem_util < 1.0);   /* the cores' own stalls bound their traffic */
	assert_true(f->r.iterations < 300); /* converged, not stopped at the cap */
	assert_true(f->r.penalty > f->p.miss_penalty);
	assert_true(f->r.tenant[2].lat_ns > lat_quiet * 1.1);
	assert_true(f->r.tenant[2].instructions < ins_quiet);
	/* without the bandwidth model disjoint masks never interact */
	f->p.mem_bw = 0;
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	lat_idle_bw = f->r.tenant[2].lat_ns;
	assert_float_equal(f->r.penalty, f->p.miss_penalty, 1e-9);
	assert_float_equal(f->r.mem_util, 0, 0);
	f->t[0].w.active = false;
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	assert_float_equal(f->r.tenant[2].lat_ns, lat_idle_bw, 1e-9);
}

static void test_sim_model_leaked_dma_slows_a_cache_isolated_tenant(void **state)
{
	struct sim_fx *f = *state;
	double lat_fits, mem_fits;

	thrasher(f);
	f->t[0].w.active = false;
	f->p.mem_bw = 128e9;
	f->p.mem_slope = 0.2;
	f->t[1].w.rate = 8e6;
	f->t[1].ncpus = 4;
	f->t[1].w.ring = 128; /* in flight: 4 x 128 x 24 lines, in DDIO's two ways */
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	lat_fits = f->r.tenant[2].lat_ns;
	mem_fits = f->r.mem_bytes;
	f->t[1].w.ring = 4096; /* 48 MiB in flight: it leaks */
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	assert_true(f->r.mem_bytes > mem_fits * 2);
	assert_true(f->r.tenant[2].lat_ns > lat_fits);
	assert_true(f->r.tenant[0].instructions == 0);
}

static void test_sim_model_steeper_loaded_latency_costs_more(void **state)
{
	struct sim_fx *f = *state;
	double prev = 0, prev_lat = 0;

	thrasher(f);
	f->p.mem_bw = 128e9;
	for (double k = 0; k <= 0.8; k += 0.2) {
		f->p.mem_slope = k;
		sim_fx_solve(f, 3, sim_fx_ways(9, 2));
		assert_true(f->r.penalty >= prev);
		assert_true(f->r.iterations < 300);
		assert_true(f->r.tenant[2].lat_ns >= prev_lat);
		prev = f->r.penalty;
		prev_lat = f->r.tenant[2].lat_ns;
	}
	assert_true(prev > f->p.miss_penalty);
	/* a narrower memory system is a more loaded one */
	f->p.mem_bw = 64e9;
	sim_fx_solve(f, 3, sim_fx_ways(9, 2));
	assert_true(f->r.penalty > prev);
	f->p.mem_bw = -1;
	assert_int_equal(sim_model_solve(&f->p, f->t, 3, 0x600, &f->ws, &f->r), -EINVAL);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, sim_fx_teardown)
	const struct CMUnitTest tests[] = {
		T(test_sim_model_more_tenant_ways_never_mean_more_misses),
		T(test_sim_model_more_ddio_ways_never_mean_more_ddio_misses),
		T(test_sim_model_random_free_ways_never_raise_own_miss_ratio),
		T(test_sim_model_larger_packets_mean_more_ddio_misses),
		T(test_sim_model_larger_rings_mean_more_ddio_misses),
		T(test_sim_model_leaky_dma_costs_memory_traffic),
		T(test_sim_model_be_on_ddio_ways_instead_of_ps_raises_ps_ipc),
		T(test_sim_model_free_ways_make_ddio_irrelevant),
		T(test_sim_model_overloaded_consumer_drops_and_leaks),
		T(test_sim_model_inactive_tenant_counts_nothing),
		T(test_sim_model_rejects_bad_parameters),
		T(test_sim_model_memory_traffic_slows_a_cache_isolated_tenant),
		T(test_sim_model_leaked_dma_slows_a_cache_isolated_tenant),
		T(test_sim_model_steeper_loaded_latency_costs_more),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
