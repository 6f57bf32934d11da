// SPDX-License-Identifier: GPL-2.0
/* The occupancy of sim_pool.c (per group of ways) against cases solvable by hand. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim_pool.h"
#include "sim_rng.h"

#define WAY 1000.0 /* lines per way */

static struct sim_pool *new_pool(void)
{
	struct sim_pool *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	return p;
}

static void test_sim_pool_fitting_agent_holds_everything(void **state)
{
	struct sim_class c = {.lines = 1500, .rate = 100};
	struct sim_agent a = {.mask = 0x3, .nclass = 1, .cls = &c};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, &a, 1, 4, WAY), 0);
	assert_true(isinf(p->t[0]));
	assert_float_equal(p->occ[0], 1500, 1e-6);
	assert_float_equal(sim_pool_hit(c.rate, p->t[0]), 1.0, 0);
	free(p);
}

static void test_sim_pool_lone_overflowing_agent_hits_capacity_over_size(void **state)
{
	/* Alone, Che's approximation reduces to h = C / WS whatever the rate. */
	struct sim_class c = {.lines = 5000, .rate = 37};
	struct sim_agent a = {.mask = 0x3, .nclass = 1, .cls = &c};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, &a, 1, 4, WAY), 0);
	assert_float_equal(p->occ[0], 2 * WAY, 1e-3);
	assert_float_equal(sim_pool_hit(c.rate, p->t[0]), 2 * WAY / 5000, 1e-6);
	free(p);
}

static void test_sim_pool_disjoint_masks_do_not_interact(void **state)
{
	struct sim_class c[2] = {{.lines = 5000, .rate = 50}, {.lines = 800, .rate = 5000}};
	struct sim_agent a[2] = {{.mask = 0x1, .nclass = 1, .cls = &c[0]},
				 {.mask = 0x6, .nclass = 1, .cls = &c[1]}};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, a, 2, 4, WAY), 0);
	assert_float_equal(p->occ[0], WAY, 1e-3);
	assert_true(isinf(p->t[1]));
	assert_float_equal(p->occ[1], 800, 1e-6);
	free(p);
}

static void test_sim_pool_shared_ways_split_by_common_time(void **state)
{
	/* Two agents on the same two ways: one T, occupancies sum to capacity. */
	struct sim_class c[2] = {{.lines = 3000, .rate = 100}, {.lines = 3000, .rate = 400}};
	struct sim_agent a[2] = {{.mask = 0x3, .nclass = 1, .cls = &c[0]},
				 {.mask = 0x3, .nclass = 1, .cls = &c[1]}};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, a, 2, 2, WAY), 0);
	assert_float_equal(p->t[0], p->t[1], 1e-9 * p->t[0]);
	assert_float_equal(p->occ[0] + p->occ[1], 2 * WAY, 1e-3);
	assert_true(p->occ[1] > p->occ[0]); /* the hotter agent holds more */
	free(p);
}

static void test_sim_pool_agent_without_ways_gets_nothing(void **state)
{
	struct sim_class c = {.lines = 10, .rate = 1};
	struct sim_agent a = {.mask = 0x10, .nclass = 1, .cls = &c};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, &a, 1, 4, WAY), 0);
	assert_float_equal(p->t[0], 0, 0);
	assert_float_equal(p->occ[0], 0, 0);
	free(p);
}

static void test_sim_pool_rejects_bad_arguments(void **state)
{
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, NULL, 0, 0, WAY), -EINVAL);
	assert_int_equal(sim_pool_solve(p, NULL, 0, 33, WAY), -EINVAL);
	assert_int_equal(sim_pool_solve(p, NULL, 0, 4, 0), -EINVAL);
	assert_int_equal(sim_pool_solve(p, NULL, SIM_POOL_MAX_AGENTS + 1, 4, WAY), -EINVAL);
	free(p);
}

static void test_sim_pool_streaming_agent_takes_the_way_it_shares(void **state)
{
	/*
	 * A light agent (900 lines) on ways 0-1, a streaming one (a million
	 * lines, each touched once a millisecond: 1e9 fills a second) on way
	 * 0: half the light agent's fills land on way 0, where the streamer
	 * inserts far more and holds nearly all of it; the light agent keeps
	 * the half on way 1. Confined to way 2, the streamer leaves way 0 to
	 * it and it hits everything.
	 */
	struct sim_class c[2] = {{.lines = 900, .rate = 10}, {.lines = 1e6, .rate = 1000}};
	struct sim_agent a[2] = {{.mask = 0x3, .nclass = 1, .cls = &c[0]},
				 {.mask = 0x1, .nclass = 1, .cls = &c[1]}};
	struct sim_pool *p = new_pool();
	double shared_t;

	(void)state;
	assert_int_equal(sim_pool_solve(p, a, 2, 3, WAY), 0);
	assert_int_equal(p->mix[0].n, 2);
	assert_float_equal(p->mix[0].f[0] + p->mix[0].f[1], 1.0, 1e-12);
	assert_true(p->occ[1] > 0.99 * WAY);
	assert_true(p->occ[1] <= WAY * (1 + 1e-6));
	shared_t = p->t[1];
	assert_float_equal(p->t[0], shared_t, 1e-9 * shared_t);
	/* the half on way 1 hits; the half on way 0 almost never */
	assert_true(sim_mix_hit(&p->mix[0], c[0].rate) > 0.5);
	assert_true(sim_mix_hit(&p->mix[0], c[0].rate) < 0.51);
	a[1].mask = 0x4;
	assert_int_equal(sim_pool_solve(p, a, 2, 3, WAY), 0);
	assert_float_equal(sim_mix_hit(&p->mix[0], c[0].rate), 1.0, 0);
	assert_float_equal(p->occ[0], 900, 1e-6);
	free(p);
}

static void test_sim_pool_fills_spread_over_the_masks_ways(void **state)
{
	/*
	 * Two agents of equal rates, one on ways 0-3, one on way 3: a quarter
	 * of the first one's lines compete on way 3, where the second's all do.
	 */
	struct sim_class c[2] = {{.lines = 8000, .rate = 100}, {.lines = 8000, .rate = 100}};
	struct sim_agent a[2] = {{.mask = 0xf, .nclass = 1, .cls = &c[0]},
				 {.mask = 0x8, .nclass = 1, .cls = &c[1]}};
	struct sim_pool *p = new_pool();
	double t_shared, t_own, in3;

	(void)state;
	assert_int_equal(sim_pool_solve(p, a, 2, 4, WAY), 0);
	assert_int_equal(p->ngroups, 2);
	assert_int_equal(p->group_ways[p->group[0]], 3);
	t_shared = p->group_t[p->group[3]];
	t_own = p->group_t[p->group[0]];
	/* way 3: 2000 + 8000 lines of one rate share 1000 in proportion */
	in3 = 0.25 * 8000 * -expm1(-100 * t_shared);
	assert_float_equal(in3 + 8000 * -expm1(-100 * t_shared), WAY, 1e-3);
	assert_float_equal(p->occ[1], 8000 * -expm1(-100 * t_shared), 1e-3);
	assert_float_equal(p->occ[0], in3 + 3 * WAY, 1e-3);
	assert_float_equal(0.75 * 8000 * -expm1(-100 * t_own), 3 * WAY, 1e-3);
	assert_true(t_own > t_shared);
	free(p);
}

/*
 * Random agents on ways 0-7; growing one agent onto way 8, which nobody
 * else uses, never lowers its hit ratio nor anyone's occupancy; no group
 * holds more than its ways.
 */
static void test_sim_pool_a_free_way_never_hurts(void **state)
{
	struct sim_class c[6];
	struct sim_agent a[6];
	struct sim_pool *p = new_pool();
	struct sim_rng r;
	int round;

	(void)state;
	sim_rng_seed(&r, 42);
	for (round = 0; round < 200; round++) {
		unsigned int n = 2 + sim_rng_next(&r) % 5, i, k, lo, len;
		double hit, occ[6], total = 0;

		for (i = 0; i < n; i++) {
			c[i].lines = 200 + sim_rng_uniform(&r) * 6000;
			c[i].rate = 1 + sim_rng_uniform(&r) * 3000;
			lo = sim_rng_next(&r) % 8;
			len = 1 + sim_rng_next(&r) % (8 - lo);
			a[i] = (struct sim_agent){
				.mask = ((1u << len) - 1) << lo, .nclass = 1, .cls = &c[i]};
		}
		k = sim_rng_next(&r) % n;
		assert_int_equal(sim_pool_solve(p, a, n, 9, WAY), 0);
		hit = sim_mix_hit(&p->mix[k], c[k].rate);
		for (i = 0; i < n; i++) {
			occ[i] = p->occ[i];
			total += occ[i];
		}
		assert_true(total <= 9 * WAY * (1 + 1e-6));
		a[k].mask |= 1u << 8;
		assert_int_equal(sim_pool_solve(p, a, n, 9, WAY), 0);
		assert_true(sim_mix_hit(&p->mix[k], c[k].rate) >= hit - 1e-9);
		for (i = 0; i < n; i++)
			if (i != k)
				assert_true(p->occ[i] >= occ[i] * (1 - 1e-9));
	}
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_pool_fitting_agent_holds_everything),
		cmocka_unit_test(test_sim_pool_lone_overflowing_agent_hits_capacity_over_size),
		cmocka_unit_test(test_sim_pool_disjoint_masks_do_not_interact),
		cmocka_unit_test(test_sim_pool_shared_ways_split_by_common_time),
		cmocka_unit_test(test_sim_pool_agent_without_ways_gets_nothing),
		cmocka_unit_test(test_sim_pool_rejects_bad_arguments),
		cmocka_unit_test(test_sim_pool_streaming_agent_takes_the_way_it_shares),
		cmocka_unit_test(test_sim_pool_fills_spread_over_the_masks_ways),
		cmocka_unit_test(test_sim_pool_a_free_way_never_hurts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
