// SPDX-License-Identifier: GPL-2.0
/* The harm guard (decide/guard.h): every change judged by what it cost a PS tenant. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "decide/guard.h"

static const char cfg_text[] = "[platform]\nllc_ways = 11\n"
			       "[tenant db]\ncpus = 0\nways = 3\npriority = PS\n"
			       "[tenant be]\ncpus = 1\nways = 3\n";

struct fx {
	struct config cfg;
	struct guard_state g;
	struct planner_alloc a, b; /* the layout before and after the change */
	struct tenant_delta d;
};

/* One interval's rates: db at @ipc with @rpi LLC references per instruction. */
static void rates(struct fx *f, double ipc, double rpi, double ddio)
{
	struct tenant_rates *t = &f->d.cur.tenant[0];

	f->d.have_prev = true;
	f->d.cur.ntenants = 2;
	t->ipc = ipc;
	t->instructions = ipc * 2e9;
	t->llc_refs = rpi * t->instructions;
	f->d.cur.tenant[1] = (struct tenant_rates){.ipc = 1, .instructions = 2e9, .llc_refs = 1e7};
	f->d.cur.ddio_hits = ddio;
	f->d.cur.ddio_misses = 0;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(config_parse_string(cfg_text, "g.ini", &f->cfg, err, sizeof(err)), 0);
	f->a = (struct planner_alloc){
		.llc_ways = 11, .ddio_ways = 2, .ddio_mask = 0x600, .ntenants = 2};
	f->a.mask[0] = 0x7;
	f->a.mask[1] = 0x38;
	f->b = f->a;
	f->b.ddio_ways = 3;
	f->b.ddio_mask = 0x700;
	f->b.mask[1] = 0x1c0;
	/* a start's layout counts as settled by the first judged interval */
	f->g.since = GUARD_SETTLE;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* The change from a to b is decided on an interval measured under a; then @n intervals. */
static enum guard_verdict change_then(struct fx *f, double ipc_after, double rpi_after,
				      double ddio_after, int *victim)
{
	enum guard_verdict v = GUARD_OK;

	rates(f, 1.0, 0.01, 1e7);
	assert_int_equal(guard_judge(&f->g, &f->cfg, &f->d, victim), GUARD_OK);
	guard_changed(&f->g, &f->cfg, &f->a, FSM_LOW_KEEP, &f->d, true);
	for (int k = 0; k < GUARD_SETTLE && v == GUARD_OK; k++) {
		rates(f, ipc_after, rpi_after, ddio_after);
		v = guard_judge(&f->g, &f->cfg, &f->d, victim);
	}
	return v;
}

/* One unchanged interval: judged, then the probe told whether a counter @moved. */
static void interval(struct fx *f, bool moved)
{
	struct planner_alloc now = f->a;
	enum fsm_state_id st = FSM_LOW_KEEP;
	int victim;

	rates(f, 1.0, 0.01, 1e7);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	guard_probe(&f->g, &f->cfg, &f->d, moved, &now, &st);
}

static void test_guard_undoes_a_change_that_costs_a_ps_tenant(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now = f->b;
	enum fsm_state_id st = FSM_HIGH_KEEP;
	int victim;

	assert_int_equal(change_then(f, 0.90, 0.01, 1e7, &victim), GUARD_UNDO);
	assert_int_equal(victim, 0);
	guard_undo(&f->g, &now, &st);
	assert_true(guard_same_layout(&now, &f->a));
	assert_int_equal(st, FSM_LOW_KEEP);
	/* every change is refused while the workload holds still, however long */
	for (int k = 0; k < GUARD_HOLD_MAX - 1; k++) {
		assert_true(guard_refuses(&f->g, &f->b));
		interval(f, false);
	}
	assert_true(guard_refuses(&f->g, &f->b));
	/* ... and at its longest it ends anyway */
	interval(f, false);
	assert_false(guard_refuses(&f->g, &f->b));
}

static void test_guard_hold_ends_once_the_workload_moves(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now = f->b;
	enum fsm_state_id st;
	int victim;

	assert_int_equal(change_then(f, 0.90, 0.01, 1e7, &victim), GUARD_UNDO);
	guard_undo(&f->g, &now, &st);
	/* a move in the intervals that refill the cache after the undo is the undo's own */
	interval(f, true);
	assert_true(guard_refuses(&f->g, &f->b));
	for (int k = 0; k < GUARD_SETTLE; k++)
		interval(f, false);
	assert_true(guard_refuses(&f->g, &f->b));
	/* under a new workload another layout may be right: asked again at once */
	interval(f, true);
	interval(f, false);
	assert_false(guard_refuses(&f->g, &f->b));
}

static void test_guard_keeps_a_change_within_the_loss_it_allows(void **state)
{
	struct fx *f = *state;
	int victim;

	assert_int_equal(change_then(f, 0.96, 0.01, 1e7, &victim), GUARD_OK);
	assert_false(guard_refuses(&f->g, &f->b));
}

static void test_guard_ignores_a_loss_when_the_tenant_workload_changed(void **state)
{
	struct fx *f = *state;
	int victim;

	/* twice the references per instruction: a new working set, not the layout */
	assert_int_equal(change_then(f, 0.5, 0.02, 1e7, &victim), GUARD_OK);
}

static void test_guard_ignores_a_loss_when_io_grew(void **state)
{
	struct fx *f = *state;
	int victim;

	assert_int_equal(change_then(f, 0.5, 0.01, 2e7, &victim), GUARD_OK);
}

static void test_guard_judges_a_loss_when_io_fell(void **state)
{
	struct fx *f = *state;
	int victim;

	/* a poller the layout slows drops packets: the NIC writes less */
	assert_int_equal(change_then(f, 0.5, 0.01, 5e6, &victim), GUARD_UNDO);
}

static void test_guard_hold_minimum_doubles_and_starts_over_once_a_change_holds(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now;
	enum fsm_state_id st;
	int victim;

	/* the first hold has no minimum; undos in a row wait 20, 40, ... at least */
	for (unsigned int want = 0; want <= 2 * GUARD_HOLD_MIN;
	     want = want ? want * 2 : GUARD_HOLD_MIN) {
		now = f->b;
		assert_int_equal(change_then(f, 0.5, 0.01, 1e7, &victim), GUARD_UNDO);
		guard_undo(&f->g, &now, &st);
		assert_int_equal(f->g.hold, want);
		for (int k = 0; k <= GUARD_SETTLE; k++)
			interval(f, false);
		interval(f, true);
		while (guard_refuses(&f->g, &f->b))
			interval(f, false);
		assert_int_equal(f->g.hold, 0);
	}
	assert_int_equal(change_then(f, 1.0, 0.01, 1e7, &victim), GUARD_OK);
	now = f->b;
	assert_int_equal(change_then(f, 0.5, 0.01, 1e7, &victim), GUARD_UNDO);
	guard_undo(&f->g, &now, &st);
	assert_int_equal(f->g.hold, 0);
}

/* Static's layout (f->a) is the reference; iocad's (f->b) has been in force a while. */
static void on_b_beside_static(struct fx *f)
{
	f->g.ref = f->a;
	f->g.ref_valid = true;
	f->g.since = GUARD_SETTLE + 1;
}

/* A move, then the probe: iocad's layout measured at @ipc_b, static's at @ipc_ref. */
static enum guard_probe_verdict probe_after_move(struct fx *f, struct planner_alloc *now,
						 enum fsm_state_id *st, double ipc_b,
						 double ipc_ref)
{
	enum guard_probe_verdict v = GUARD_PROBE_NONE;
	int victim;

	*now = f->b;
	*st = FSM_HIGH_KEEP;
	rates(f, ipc_b, 0.01, 1e7);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, now, st), GUARD_PROBE_NONE);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, now, st), GUARD_PROBE_START);
	assert_true(guard_same_layout(now, &f->a));
	for (int k = 0; k < GUARD_SETTLE; k++) {
		rates(f, ipc_ref, 0.01, 1e7);
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
		v = guard_probe(&f->g, &f->cfg, &f->d, false, now, st);
	}
	return v;
}

static void test_guard_probe_keeps_static_when_a_ps_tenant_does_better_there(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now;
	enum fsm_state_id st;

	on_b_beside_static(f);
	assert_int_equal(probe_after_move(f, &now, &st, 0.90, 1.0), GUARD_PROBE_STATIC);
	assert_true(guard_same_layout(&now, &f->a));
	assert_int_equal(st, FSM_LOW_KEEP);
	assert_true(guard_refuses(&f->g, &f->b));
}

static void test_guard_probe_goes_back_when_iocads_layout_costs_nothing(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now;
	enum fsm_state_id st;

	on_b_beside_static(f);
	assert_int_equal(probe_after_move(f, &now, &st, 0.98, 1.0), GUARD_PROBE_KEPT);
	assert_true(guard_same_layout(&now, &f->b));
	assert_int_equal(st, FSM_HIGH_KEEP);
	assert_false(guard_refuses(&f->g, &f->b));
	/* and no other probe right after it */
	for (int k = 0; k <= GUARD_SETTLE; k++)
		interval(f, false);
	now = f->b;
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st), GUARD_PROBE_NONE);
}

static void test_guard_no_probe_without_a_move_or_on_statics_layout(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now = f->b;
	enum fsm_state_id st = FSM_HIGH_KEEP;

	on_b_beside_static(f);
	rates(f, 1.0, 0.01, 1e7);
	for (int k = 0; k < 3; k++)
		assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st),
				 GUARD_PROBE_NONE);
	now = f->a;
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st), GUARD_PROBE_NONE);
}

static void test_guard_series_waits_to_be_judged_after_a_few_changes(void **state)
{
	struct fx *f = *state;
	int victim;

	/* changes every interval would never settle long enough to be judged */
	rates(f, 1.0, 0.01, 1e7);
	for (int k = 0; k < GUARD_SERIES_MAX; k++) {
		assert_false(guard_series_full(&f->g));
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
		guard_changed(&f->g, &f->cfg, &f->a, FSM_IO_DEMAND, &f->d, true);
	}
	assert_true(guard_series_full(&f->g));
	/* a reclaim gives ways back: it does not count */
	guard_changed(&f->g, &f->cfg, &f->a, FSM_RECLAIM, &f->d, false);
	assert_int_equal(f->g.series, GUARD_SERIES_MAX);
	/* judged once settled: the next series may start */
	for (int k = 0; k < GUARD_SETTLE; k++)
		assert_int_equal(guard_judge(&f->g, &f->cfg, &f->d, &victim), GUARD_OK);
	assert_false(guard_series_full(&f->g));
}

static void test_guard_no_probe_when_no_ps_tenant_ipc_moved(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now = f->b;
	enum fsm_state_id st = FSM_HIGH_KEEP;

	/* the BE tenant's counters moved, the PS tenant's IPC held: nothing to fear */
	on_b_beside_static(f);
	rates(f, 1.0, 0.01, 1e7);
	f->d.prev = f->d.cur;
	f->d.cur.tenant[1].llc_refs *= 3;
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_false(f->g.probe_pending);
	/* its IPC moved by more than the probe's margin: static's may have moved too */
	f->d.cur.tenant[0].ipc *= 1.04;
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_true(f->g.probe_pending);
}

/* A steady workload whose PS IPC reads 4 % apart from one interval to the next (counters' noise).
 */
static void test_guard_noise_neither_asks_for_a_probe_nor_keeps_static(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now = f->b;
	enum fsm_state_id st = FSM_HIGH_KEEP;
	enum guard_probe_verdict v;
	int victim;

	on_b_beside_static(f);
	for (int k = 0; k < 8; k++) {
		f->d.prev = f->d.cur;
		rates(f, k % 2 ? 0.96 : 1.0, 0.01, 1e7);
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
		assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st),
				 GUARD_PROBE_NONE);
	}
	/* a BE counter moved and the PS tenant's IPC reads 4 % off again: noise */
	f->d.prev = f->d.cur;
	rates(f, 1.0, 0.01, 1e7);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_false(f->g.probe_pending);
	/* a move of 20 % is worth a probe */
	f->d.prev = f->d.cur;
	rates(f, 0.8, 0.01, 1e7);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, true, &now, &st), GUARD_PROBE_NONE);
	assert_true(f->g.probe_pending);
	f->d.prev = f->d.cur;
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	assert_int_equal(guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st), GUARD_PROBE_START);
	/* static's layout reads 5 % better: within twice the noise, iocad's layout is kept */
	v = GUARD_PROBE_NONE;
	for (int k = 0; k < GUARD_SETTLE; k++) {
		f->d.prev = f->d.cur;
		rates(f, 0.84, 0.01, 1e7);
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
		v = guard_probe(&f->g, &f->cfg, &f->d, false, &now, &st);
	}
	assert_int_equal(v, GUARD_PROBE_KEPT);
	assert_true(guard_same_layout(&now, &f->b));
}

static void test_guard_more_io_excuses_no_loss_against_statics_layout(void **state)
{
	struct fx *f = *state;
	int victim;

	/* the layout before the change is static's: static would have had the I/O too */
	on_b_beside_static(f);
	assert_int_equal(change_then(f, 0.5, 0.01, 2e7, &victim), GUARD_UNDO);
}

static void test_guard_more_io_asks_for_a_probe(void **state)
{
	struct fx *f = *state;
	int victim;

	f->g.ref = f->b;
	f->g.ref.mask[1] = 0x1f0; /* static's layout is neither a nor b */
	f->g.ref_valid = true;
	assert_int_equal(change_then(f, 0.5, 0.01, 2e7, &victim), GUARD_OK);
	assert_true(f->g.probe_pending);
}

static void test_guard_lets_the_inclusive_pass_in_once_settled(void **state)
{
	struct fx *f = *state;
	int victim;

	f->a.incl_deferred = true;
	f->g.since = 0;
	guard_offer_inclusive(&f->g, &f->a);
	assert_true(f->a.incl_deferred);
	rates(f, 1.0, 0.01, 1e7);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
	guard_offer_inclusive(&f->g, &f->a);
	assert_false(f->a.incl_deferred);
}

static void test_guard_judges_a_change_made_while_a_kept_probe_refills(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now, worse;
	enum fsm_state_id st;
	enum guard_verdict v = GUARD_OK;
	int victim;

	/* iocad's layout b is as good as static's: back to it, its cache refilling */
	on_b_beside_static(f);
	assert_int_equal(probe_after_move(f, &now, &st, 1.0, 1.0), GUARD_PROBE_KEPT);
	assert_true(guard_same_layout(&now, &f->b));
	/* the next interval, measured during the refill, asks for another layout */
	rates(f, 0.97, 0.01, 1e7);
	assert_int_equal(guard_judge(&f->g, &f->cfg, &f->d, &victim), GUARD_OK);
	worse = f->b;
	worse.mask[1] = 0x3f0;
	guard_changed(&f->g, &f->cfg, &f->b, FSM_LOW_KEEP, &f->d, true);
	/* it costs the PS tenant 15 %: judged against b's measurement before the probe */
	for (int k = 0; k < GUARD_SETTLE && v == GUARD_OK; k++) {
		rates(f, 0.85, 0.01, 1e7);
		v = guard_judge(&f->g, &f->cfg, &f->d, &victim);
	}
	assert_int_equal(v, GUARD_UNDO);
	assert_int_equal(victim, 0);
	now = worse;
	guard_undo(&f->g, &now, &st);
	assert_true(guard_same_layout(&now, &f->b));
}

/*
 * Losses in steps under the bound: each change costs the PS tenant 4 %
 * against the layout before it, every one "holds", and under one workload
 * no probe ever runs. Against static's own measurement the second is 8 %.
 */
static void test_guard_losses_in_small_steps_add_up_against_static(void **state)
{
	struct fx *f = *state;
	enum guard_verdict v = GUARD_OK;
	int victim;

	f->g.ref = f->a; /* iocad started on static's layout */
	f->g.ref_valid = true;
	assert_int_equal(change_then(f, 0.96, 0.01, 1e7, &victim), GUARD_OK);
	/* settled at 0.96 under b; the next change from b costs another 4 % */
	for (int k = 0; k < GUARD_SETTLE; k++) {
		rates(f, 0.96, 0.01, 1e7);
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
	}
	guard_changed(&f->g, &f->cfg, &f->b, FSM_LOW_KEEP, &f->d, true);
	for (int k = 0; k < GUARD_SETTLE && v == GUARD_OK; k++) {
		rates(f, 0.96 * 0.96, 0.01, 1e7);
		v = guard_judge(&f->g, &f->cfg, &f->d, &victim);
	}
	assert_int_equal(v, GUARD_UNDO);
	assert_int_equal(victim, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_guard_undoes_a_change_that_costs_a_ps_tenant,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_keeps_a_change_within_the_loss_it_allows,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_ignores_a_loss_when_the_tenant_workload_changed, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_guard_ignores_a_loss_when_io_grew, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guard_judges_a_loss_when_io_fell, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guard_hold_ends_once_the_workload_moves, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_hold_minimum_doubles_and_starts_over_once_a_change_holds, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_probe_keeps_static_when_a_ps_tenant_does_better_there, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_probe_goes_back_when_iocads_layout_costs_nothing, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_no_probe_without_a_move_or_on_statics_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_series_waits_to_be_judged_after_a_few_changes, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_noise_neither_asks_for_a_probe_nor_keeps_static, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_guard_no_probe_when_no_ps_tenant_ipc_moved,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_more_io_excuses_no_loss_against_statics_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard_more_io_asks_for_a_probe, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_guard_lets_the_inclusive_pass_in_once_settled,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_judges_a_change_made_while_a_kept_probe_refills, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_guard_losses_in_small_steps_add_up_against_static, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
