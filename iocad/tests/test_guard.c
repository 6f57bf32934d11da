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
	guard_changed(&f->g, &f->cfg, &f->a, FSM_LOW_KEEP, &f->d);
	for (int k = 0; k < GUARD_SETTLE && v == GUARD_OK; k++) {
		rates(f, ipc_after, rpi_after, ddio_after);
		v = guard_judge(&f->g, &f->cfg, &f->d, victim);
	}
	return v;
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
	/* every change is refused for the hold, then allowed again */
	for (int k = 0; k < GUARD_HOLD_MIN - 1; k++) {
		assert_true(guard_refuses(&f->g, &f->b));
		rates(f, 1.0, 0.01, 1e7);
		guard_judge(&f->g, &f->cfg, &f->d, &victim);
	}
	rates(f, 1.0, 0.01, 1e7);
	guard_judge(&f->g, &f->cfg, &f->d, &victim);
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

static void test_guard_hold_doubles_and_starts_over_once_a_change_holds(void **state)
{
	struct fx *f = *state;
	struct planner_alloc now;
	enum fsm_state_id st;
	int victim;

	for (unsigned int want = GUARD_HOLD_MIN; want <= 4 * GUARD_HOLD_MIN; want *= 2) {
		now = f->b;
		assert_int_equal(change_then(f, 0.5, 0.01, 1e7, &victim), GUARD_UNDO);
		guard_undo(&f->g, &now, &st);
		assert_int_equal(f->g.hold, want);
		while (f->g.hold) {
			rates(f, 1.0, 0.01, 1e7);
			guard_judge(&f->g, &f->cfg, &f->d, &victim);
		}
	}
	assert_int_equal(change_then(f, 1.0, 0.01, 1e7, &victim), GUARD_OK);
	now = f->b;
	assert_int_equal(change_then(f, 0.5, 0.01, 1e7, &victim), GUARD_UNDO);
	guard_undo(&f->g, &now, &st);
	assert_int_equal(f->g.hold, GUARD_HOLD_MIN);
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
		cmocka_unit_test_setup_teardown(
			test_guard_hold_doubles_and_starts_over_once_a_change_holds, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_guard_lets_the_inclusive_pass_in_once_settled,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
