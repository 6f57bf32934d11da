// SPDX-License-Identifier: GPL-2.0
/* The occupancy equilibrium of sim_pool.c against cases solvable by hand. */
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

static void test_sim_pool_lines_settle_where_they_live_longest(void **state)
{
	/*
	 * A heavy agent on way 0 only, a light one on ways 0-1: the light one
	 * keeps all of way 1 and so never competes on way 0, as LRU victim
	 * selection among its ways makes it do.
	 */
	struct sim_class c[2] = {{.lines = 4000, .rate = 1000}, {.lines = 900, .rate = 10}};
	struct sim_agent a[2] = {{.mask = 0x1, .nclass = 1, .cls = &c[0]},
				 {.mask = 0x3, .nclass = 1, .cls = &c[1]}};
	struct sim_pool *p = new_pool();

	(void)state;
	assert_int_equal(sim_pool_solve(p, a, 2, 2, WAY), 0);
	assert_true(isinf(p->t[1]));
	assert_float_equal(p->occ[0], WAY, 1e-3);
	free(p);
}

/* Random agents; growing one agent's mask never shortens its time. */
static void test_sim_pool_more_ways_never_shorten_an_agents_time(void **state)
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
		double before;

		for (i = 0; i < n; i++) {
			c[i].lines = 200 + sim_rng_uniform(&r) * 6000;
			c[i].rate = 1 + sim_rng_uniform(&r) * 3000;
			lo = sim_rng_next(&r) % 8;
			len = 1 + sim_rng_next(&r) % (8 - lo);
			a[i] = (struct sim_agent){
				.mask = ((1u << len) - 1) << lo, .nclass = 1, .cls = &c[i]};
		}
		k = sim_rng_next(&r) % n;
		assert_int_equal(sim_pool_solve(p, a, n, 8, WAY), 0);
		before = p->t[k];
		a[k].mask |= a[k].mask << 1 & 0xff;
		a[k].mask |= a[k].mask >> 1;
		assert_int_equal(sim_pool_solve(p, a, n, 8, WAY), 0);
		assert_true(p->t[k] >= before * (1 - 1e-6));
		/* Nobody holds more than the ways can. */
		before = 0;
		for (i = 0; i < n; i++)
			before += p->occ[i];
		assert_true(before <= 8 * WAY * (1 + 1e-6));
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
		cmocka_unit_test(test_sim_pool_lines_settle_where_they_live_longest),
		cmocka_unit_test(test_sim_pool_more_ways_never_shorten_an_agents_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
