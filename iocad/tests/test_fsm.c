// SPDX-License-Identifier: GPL-2.0
/* Every FSM transition of the paper, each from a crafted pair of samples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "decide/fsm.h"

#define MISS_LOW 1000.0

static struct fsm_state st(enum fsm_state_id s, unsigned int ddio)
{
	return (struct fsm_state){
		.state = s,
		.ddio_ways = ddio,
		.ddio_ways_min = 2,
		.ddio_ways_max = 6,
		.io_demand_enabled = true,
		.threshold_stable = 0.10,
		.threshold_miss_low = MISS_LOW,
		.threshold_min_rate = 10,
	};
}

/* prev/cur DDIO hits, misses and tenants' LLC refs, per second */
static struct tenant_delta dl(double ph, double pm, double pr, double ch, double cm, double cr)
{
	struct tenant_delta d;

	memset(&d, 0, sizeof(d));
	d.have_prev = true;
	d.prev.ddio_hits = ph;
	d.prev.ddio_misses = pm;
	d.prev.llc_refs = pr;
	d.cur.ddio_hits = ch;
	d.cur.ddio_misses = cm;
	d.cur.llc_refs = cr;
	return d;
}

static void expect(struct fsm_state s, struct tenant_delta d, enum fsm_state_id next,
		   enum fsm_reason why, enum fsm_action act)
{
	struct fsm_out o;

	fsm_step(&s, &d, &o);
	assert_string_equal(fsm_state_name(o.next), fsm_state_name(next));
	assert_string_equal(fsm_reason_name(o.reason), fsm_reason_name(why));
	assert_int_equal(o.action, act);
}

static void test_fsm_low_keep_stays_while_misses_low(void **u)
{
	(void)u;
	expect(st(FSM_LOW_KEEP, 2), dl(1e5, 100, 1e6, 5e4, 900, 2e6), FSM_LOW_KEEP, FSM_R_NONE,
	       FSM_ACT_NONE);
}

static void test_fsm_low_keep_to_io_demand_on_traffic(void **u)
{
	(void)u;
	/* more misses, hits steady: more I/O, not the cores */
	expect(st(FSM_LOW_KEEP, 2), dl(1e5, 500, 1e6, 1e5, 5000, 1e6), FSM_IO_DEMAND,
	       FSM_R_IO_PRESSURE, FSM_ACT_DDIO_GROW);
}

static void test_fsm_low_keep_to_core_demand_on_contention(void **u)
{
	(void)u;
	/* misses up, hits down, LLC refs up: cores evict the rings */
	expect(st(FSM_LOW_KEEP, 2), dl(1e5, 500, 1e6, 5e4, 5000, 2e6), FSM_CORE_DEMAND,
	       FSM_R_CORE_CONTENTION, FSM_ACT_TENANT_GROW);
}

static void test_fsm_low_keep_hits_down_without_refs_is_io(void **u)
{
	(void)u;
	expect(st(FSM_LOW_KEEP, 2), dl(1e5, 500, 1e6, 5e4, 5000, 1e6), FSM_IO_DEMAND,
	       FSM_R_IO_PRESSURE, FSM_ACT_DDIO_GROW);
}

static void test_fsm_low_keep_at_max_goes_high_keep(void **u)
{
	(void)u;
	expect(st(FSM_LOW_KEEP, 6), dl(1e5, 500, 1e6, 1e5, 5000, 1e6), FSM_HIGH_KEEP,
	       FSM_R_DDIO_MAX, FSM_ACT_NONE);
}

static void test_fsm_core_only_never_enters_io_demand(void **u)
{
	struct fsm_state s = st(FSM_LOW_KEEP, 2);

	(void)u;
	s.io_demand_enabled = false;
	expect(s, dl(1e5, 500, 1e6, 1e5, 5000, 1e6), FSM_LOW_KEEP, FSM_R_IO_DISABLED, FSM_ACT_NONE);
	s.state = FSM_CORE_DEMAND;
	expect(s, dl(1e5, 2000, 1e6, 1e5, 5000, 1e6), FSM_CORE_DEMAND, FSM_R_IO_DISABLED,
	       FSM_ACT_TENANT_GROW);
}

static void test_fsm_core_demand_to_reclaim_when_balanced(void **u)
{
	(void)u;
	expect(st(FSM_CORE_DEMAND, 2), dl(5e4, 5000, 2e6, 1e5, 500, 2e6), FSM_RECLAIM,
	       FSM_R_BALANCED, FSM_ACT_RECLAIM);
}

static void test_fsm_core_demand_to_io_demand_when_hits_hold(void **u)
{
	(void)u;
	expect(st(FSM_CORE_DEMAND, 2), dl(1e5, 3000, 2e6, 1e5, 6000, 2e6), FSM_IO_DEMAND,
	       FSM_R_IO_NOT_CORE, FSM_ACT_DDIO_GROW);
}

static void test_fsm_core_demand_stays_and_grows(void **u)
{
	(void)u;
	/* misses still high and hits still falling: keep granting */
	expect(st(FSM_CORE_DEMAND, 2), dl(1e5, 5000, 2e6, 8e4, 6000, 2e6), FSM_CORE_DEMAND,
	       FSM_R_NONE, FSM_ACT_TENANT_GROW);
	/* neither event (steady high misses): stay too */
	expect(st(FSM_CORE_DEMAND, 2), dl(1e5, 5000, 2e6, 1e5, 5000, 2e6), FSM_CORE_DEMAND,
	       FSM_R_NONE, FSM_ACT_TENANT_GROW);
}

static void test_fsm_band_below_miss_low_holds(void **u)
{
	(void)u;
	/* 950/s: under THRESHOLD_MISS_LOW, above (1 - 0.1) x it: neither grow nor leave */
	expect(st(FSM_CORE_DEMAND, 2), dl(1e5, 3000, 2e6, 1e5, 950, 2e6), FSM_CORE_DEMAND,
	       FSM_R_NONE, FSM_ACT_NONE);
	expect(st(FSM_IO_DEMAND, 3), dl(1e5, 3000, 1e6, 1e5, 950, 1e6), FSM_IO_DEMAND, FSM_R_NONE,
	       FSM_ACT_NONE);
	expect(st(FSM_HIGH_KEEP, 6), dl(1e5, 3000, 1e6, 1e5, 950, 1e6), FSM_HIGH_KEEP, FSM_R_NONE,
	       FSM_ACT_NONE);
	expect(st(FSM_IO_DEMAND, 3), dl(1e5, 3000, 1e6, 1e5, 899, 1e6), FSM_RECLAIM,
	       FSM_R_OVERPROVISIONED, FSM_ACT_RECLAIM);
}

static void test_fsm_io_demand_grows_while_missing(void **u)
{
	(void)u;
	expect(st(FSM_IO_DEMAND, 3), dl(1e5, 5000, 1e6, 1e5, 4800, 1e6), FSM_IO_DEMAND,
	       FSM_R_STILL_MISSING, FSM_ACT_DDIO_GROW);
}

static void test_fsm_io_demand_to_high_keep_at_max(void **u)
{
	(void)u;
	expect(st(FSM_IO_DEMAND, 6), dl(1e5, 5000, 1e6, 1e5, 4800, 1e6), FSM_HIGH_KEEP,
	       FSM_R_DDIO_MAX, FSM_ACT_NONE);
}

static void test_fsm_io_demand_to_reclaim_when_misses_fall(void **u)
{
	(void)u;
	expect(st(FSM_IO_DEMAND, 4), dl(1e5, 5000, 1e6, 1e5, 200, 1e6), FSM_RECLAIM,
	       FSM_R_OVERPROVISIONED, FSM_ACT_RECLAIM);
}

static void test_fsm_io_demand_to_core_demand_when_hits_fall(void **u)
{
	(void)u;
	expect(st(FSM_IO_DEMAND, 4), dl(1e5, 5000, 1e6, 7e4, 5000, 1e6), FSM_CORE_DEMAND,
	       FSM_R_HITS_DOWN, FSM_ACT_TENANT_GROW);
	/* hits down but misses down too: still I/O's, keep growing */
	expect(st(FSM_IO_DEMAND, 4), dl(1e5, 5000, 1e6, 7e4, 3000, 1e6), FSM_IO_DEMAND,
	       FSM_R_STILL_MISSING, FSM_ACT_DDIO_GROW);
}

static void test_fsm_high_keep_follows_io_demand_rules(void **u)
{
	(void)u;
	expect(st(FSM_HIGH_KEEP, 6), dl(1e5, 5000, 1e6, 1e5, 5000, 1e6), FSM_HIGH_KEEP, FSM_R_NONE,
	       FSM_ACT_NONE);
	expect(st(FSM_HIGH_KEEP, 6), dl(1e5, 5000, 1e6, 1e5, 100, 1e6), FSM_RECLAIM,
	       FSM_R_OVERPROVISIONED, FSM_ACT_RECLAIM);
	expect(st(FSM_HIGH_KEEP, 6), dl(1e5, 5000, 1e6, 6e4, 5200, 1e6), FSM_CORE_DEMAND,
	       FSM_R_HITS_DOWN, FSM_ACT_TENANT_GROW);
}

/*
 * The same DMA traffic with more of it missing and no core referencing
 * more: the I/O footprint grew. Fewer hits then are not a
 * contending core: High Keep below the maximum grows DDIO, Reclaim goes to
 * I/O Demand. With the cores' references up it is Core Demand as before.
 */
static void test_fsm_footprint_growth_is_io_not_core(void **u)
{
	(void)u;
	/* 1e5 lines/s: 5 % missed, then 30 % */
	expect(st(FSM_HIGH_KEEP, 3), dl(95000, 5000, 1e6, 70000, 30000, 1e6), FSM_IO_DEMAND,
	       FSM_R_STILL_MISSING, FSM_ACT_DDIO_GROW);
	expect(st(FSM_RECLAIM, 3), dl(95000, 5000, 1e6, 70000, 30000, 1e6), FSM_IO_DEMAND,
	       FSM_R_IO_PRESSURE, FSM_ACT_DDIO_GROW);
	expect(st(FSM_HIGH_KEEP, 3), dl(95000, 5000, 1e6, 70000, 30000, 1.3e6), FSM_CORE_DEMAND,
	       FSM_R_HITS_DOWN, FSM_ACT_TENANT_GROW);
	expect(st(FSM_RECLAIM, 3), dl(95000, 5000, 1e6, 70000, 30000, 1.3e6), FSM_CORE_DEMAND,
	       FSM_R_CORE_CONTENTION, FSM_ACT_TENANT_GROW);
}

static void test_fsm_reclaim_keeps_reclaiming(void **u)
{
	struct fsm_state s = st(FSM_RECLAIM, 4);

	(void)u;
	s.idle = true;
	expect(s, dl(1e5, 100, 1e6, 1e5, 110, 1e6), FSM_RECLAIM, FSM_R_NO_MISS_INCREASE,
	       FSM_ACT_RECLAIM);
}

/* Reclaim never holds: with nothing idle to take it is Low Keep. */
static void test_fsm_reclaim_with_nothing_idle_keeps_low(void **u)
{
	struct fsm_state s = st(FSM_RECLAIM, 4);

	(void)u;
	s.reclaimable = true;
	expect(s, dl(1e5, 100, 1e6, 1e5, 110, 1e6), FSM_LOW_KEEP, FSM_R_NOTHING_IDLE, FSM_ACT_NONE);
	/* and Low Keep goes back to Reclaim once something turned idle */
	s = st(FSM_LOW_KEEP, 4);
	s.idle = true;
	expect(s, dl(1e5, 100, 1e6, 5e4, 100, 1e6), FSM_RECLAIM, FSM_R_IDLE_WAYS, FSM_ACT_RECLAIM);
	/* unless DDIO misses are high: that is I/O Demand's */
	expect(s, dl(1e5, 100, 1e6, 1e5, 5000, 1e6), FSM_IO_DEMAND, FSM_R_IO_PRESSURE,
	       FSM_ACT_DDIO_GROW);
}

static void test_fsm_reclaim_to_low_keep_at_min(void **u)
{
	struct fsm_state s = st(FSM_RECLAIM, 2);

	(void)u;
	expect(s, dl(1e5, 100, 1e6, 1e5, 110, 1e6), FSM_LOW_KEEP, FSM_R_RECLAIM_DONE, FSM_ACT_NONE);
	/* a tenant still holds granted ways: stay and take them back first */
	s.reclaimable = true;
	s.idle = true;
	expect(s, dl(1e5, 100, 1e6, 1e5, 110, 1e6), FSM_RECLAIM, FSM_R_NO_MISS_INCREASE,
	       FSM_ACT_RECLAIM);
}

static void test_fsm_reclaim_to_io_demand_on_miss_increase(void **u)
{
	struct fsm_state s = st(FSM_RECLAIM, 3);

	(void)u;
	expect(st(FSM_RECLAIM, 3), dl(1e5, 800, 1e6, 1e5, 3000, 1e6), FSM_IO_DEMAND,
	       FSM_R_IO_PRESSURE, FSM_ACT_DDIO_GROW);
	/* an increase that stays under THRESHOLD_MISS_LOW is not meaningful */
	s.idle = true;
	expect(s, dl(1e5, 300, 1e6, 1e5, 600, 1e6), FSM_RECLAIM, FSM_R_NO_MISS_INCREASE,
	       FSM_ACT_RECLAIM);
}

static void test_fsm_reclaim_to_core_demand_when_hits_fall(void **u)
{
	(void)u;
	expect(st(FSM_RECLAIM, 3), dl(1e5, 800, 1e6, 6e4, 3000, 1e6), FSM_CORE_DEMAND,
	       FSM_R_CORE_CONTENTION, FSM_ACT_TENANT_GROW);
}

static void test_fsm_small_changes_are_noise(void **u)
{
	struct fsm_signals g;
	struct fsm_state s = st(FSM_LOW_KEEP, 2);
	struct tenant_delta d = dl(30, 5, 100, 25, 9, 300);

	(void)u;
	/* relative moves are large, but below threshold_min_rate events/s */
	fsm_signals(&s, &d, &g);
	assert_false(g.miss_up);
	assert_false(g.hits_down);
	assert_true(g.refs_up);
	assert_false(fsm_changed(1000, 1050, 0.10, 0));
	assert_true(fsm_changed(1000, 1150, 0.10, 0));
	assert_true(fsm_changed(1000, 850, 0.10, 0));
}

static void test_fsm_names_are_distinct(void **u)
{
	(void)u;
	for (int i = 0; i < FSM_NSTATES; i++)
		for (int j = i + 1; j < FSM_NSTATES; j++)
			assert_string_not_equal(fsm_state_name(i), fsm_state_name(j));
	for (int i = 0; i < FSM_NREASONS; i++) {
		assert_non_null(fsm_reason_name(i));
		for (int j = i + 1; j < FSM_NREASONS; j++)
			assert_string_not_equal(fsm_reason_name(i), fsm_reason_name(j));
	}
	assert_true(fsm_state_is_keep(FSM_LOW_KEEP));
	assert_true(fsm_state_is_keep(FSM_HIGH_KEEP));
	assert_false(fsm_state_is_keep(FSM_RECLAIM));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fsm_low_keep_stays_while_misses_low),
		cmocka_unit_test(test_fsm_low_keep_to_io_demand_on_traffic),
		cmocka_unit_test(test_fsm_low_keep_to_core_demand_on_contention),
		cmocka_unit_test(test_fsm_low_keep_hits_down_without_refs_is_io),
		cmocka_unit_test(test_fsm_low_keep_at_max_goes_high_keep),
		cmocka_unit_test(test_fsm_core_only_never_enters_io_demand),
		cmocka_unit_test(test_fsm_core_demand_to_reclaim_when_balanced),
		cmocka_unit_test(test_fsm_core_demand_to_io_demand_when_hits_hold),
		cmocka_unit_test(test_fsm_core_demand_stays_and_grows),
		cmocka_unit_test(test_fsm_band_below_miss_low_holds),
		cmocka_unit_test(test_fsm_io_demand_grows_while_missing),
		cmocka_unit_test(test_fsm_io_demand_to_high_keep_at_max),
		cmocka_unit_test(test_fsm_io_demand_to_reclaim_when_misses_fall),
		cmocka_unit_test(test_fsm_io_demand_to_core_demand_when_hits_fall),
		cmocka_unit_test(test_fsm_high_keep_follows_io_demand_rules),
		cmocka_unit_test(test_fsm_footprint_growth_is_io_not_core),
		cmocka_unit_test(test_fsm_reclaim_keeps_reclaiming),
		cmocka_unit_test(test_fsm_reclaim_with_nothing_idle_keeps_low),
		cmocka_unit_test(test_fsm_reclaim_to_low_keep_at_min),
		cmocka_unit_test(test_fsm_reclaim_to_io_demand_on_miss_increase),
		cmocka_unit_test(test_fsm_reclaim_to_core_demand_when_hits_fall),
		cmocka_unit_test(test_fsm_small_changes_are_noise),
		cmocka_unit_test(test_fsm_names_are_distinct),
	};

	return cmocka_run_group_tests_name("fsm", tests, NULL, NULL);
}
