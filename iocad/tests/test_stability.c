// SPDX-License-Identifier: GPL-2.0
/* The stability check and the paper's three exceptions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "decide/stability.h"

static const char cfg_text[] = "[platform]\nllc_ways = 11\n"
			       "[tenant net]\ncpus = 0\nways = 2\nnetworking = yes\n"
			       "[tenant be1]\ncpus = 1\nways = 2\n"
			       "[tenant be2]\ncpus = 2\nways = 2\n";

struct fx {
	struct config cfg;
	struct planner_alloc a;
	struct tenant_delta d;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(config_parse_string(cfg_text, "s.ini", &f->cfg, err, sizeof(err)), 0);
	f->a = (struct planner_alloc){
		.llc_ways = 11, .ddio_ways = 2, .ddio_mask = 0x600, .ntenants = 3};
	f->a.mask[0] = 0x3;
	f->a.mask[1] = 0xc;
	f->a.mask[2] = 0x600; /* be2 shares DDIO's ways */
	f->d.have_prev = true;
	for (int k = 0; k < 2; k++) {
		struct tenant_interval *iv = k ? &f->d.cur : &f->d.prev;

		iv->ntenants = 3;
		iv->ddio_hits = 1e6;
		iv->ddio_misses = 1e4;
		for (int i = 0; i < 3; i++)
			iv->tenant[i] = (struct tenant_rates){.ipc = 1.5,
							      .cycles = 2e9,
							      .instructions = 3e9,
							      .llc_refs = 1e6,
							      .llc_misses = 1e5,
							      .miss_rate = 0.1};
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static enum stab_verdict check(struct fx *f, int *tenant)
{
	struct stab_out o;

	stability_check(&f->cfg, &f->a, &f->d, &o);
	*tenant = o.tenant;
	return o.verdict;
}

static void llc_up(struct fx *f, int i)
{
	f->d.cur.tenant[i].llc_refs = 3e6;
	f->d.cur.tenant[i].llc_misses = 9e5;
	f->d.cur.tenant[i].miss_rate = 0.3;
	f->d.cur.tenant[i].ipc = 0.9;
}

static void test_stability_first_interval_is_stable(void **state)
{
	struct fx *f = *state;
	int t;

	f->d.have_prev = false;
	llc_up(f, 0);
	assert_int_equal(check(f, &t), STAB_STABLE);
}

static void test_stability_small_changes_are_stable(void **state)
{
	struct fx *f = *state;
	int t;

	f->d.cur.ddio_misses *= 1.05;
	f->d.cur.tenant[1].llc_refs *= 0.95;
	f->d.cur.tenant[2].ipc = 1.6;
	assert_int_equal(check(f, &t), STAB_STABLE);
	assert_int_equal(t, -1);
}

static void test_stability_ipc_only_change_is_exception_one(void **state)
{
	struct fx *f = *state;
	int t;

	f->d.cur.tenant[0].ipc = 0.7;
	assert_int_equal(check(f, &t), STAB_IPC_ONLY);
}

static void test_stability_core_demand_without_ddio_is_exception_two(void **state)
{
	struct fx *f = *state;
	int t;

	llc_up(f, 1);
	assert_int_equal(check(f, &t), STAB_CORE_ALLOC);
	assert_int_equal(t, 1);
}

/*
 * The paper's exception 2 is a non-networking tenant "(no DDIO overlap)":
 * be2 shares DDIO's ways, so its own change without DDIO's is not exception
 * 2 (in ioca mode the FSM and the I/O-aware planner take it, decide.c).
 */
static void test_stability_sharer_without_ddio_change_is_not_exception_two(void **state)
{
	struct fx *f = *state;
	int t;

	llc_up(f, 2);
	assert_int_equal(check(f, &t), STAB_SHARER);
	assert_int_equal(t, 2);
	llc_up(f, 1); /* with a tenant off DDIO's ways moving too: still not exception 2 */
	assert_int_equal(check(f, &t), STAB_SHARER);
	assert_int_equal(t, 2);
}

static void test_stability_overlap_with_ddio_change_is_exception_three(void **state)
{
	struct fx *f = *state;
	int t;

	llc_up(f, 2);
	f->d.cur.ddio_hits = 7e5;
	f->d.cur.ddio_misses = 3e4;
	assert_int_equal(check(f, &t), STAB_SHUFFLE);
	assert_int_equal(t, 2);
}

static void test_stability_no_overlap_with_ddio_change_runs_fsm(void **state)
{
	struct fx *f = *state;
	int t;

	llc_up(f, 1);
	f->d.cur.ddio_misses = 3e4;
	assert_int_equal(check(f, &t), STAB_UNSTABLE);
}

static void test_stability_networking_tenant_runs_fsm(void **state)
{
	struct fx *f = *state;
	int t;

	llc_up(f, 0);
	assert_int_equal(check(f, &t), STAB_UNSTABLE);
	llc_up(f, 1); /* mixed with a non-networking one: still the FSM's */
	assert_int_equal(check(f, &t), STAB_UNSTABLE);
}

static void test_stability_ddio_change_alone_runs_fsm(void **state)
{
	struct fx *f = *state;
	int t;

	f->d.cur.ddio_misses = 5e4;
	assert_int_equal(check(f, &t), STAB_UNSTABLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stability_first_interval_is_stable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stability_small_changes_are_stable, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stability_ipc_only_change_is_exception_one,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_stability_core_demand_without_ddio_is_exception_two, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_stability_sharer_without_ddio_change_is_not_exception_two, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_stability_overlap_with_ddio_change_is_exception_three, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_stability_no_overlap_with_ddio_change_runs_fsm,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_stability_networking_tenant_runs_fsm, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_stability_ddio_change_alone_runs_fsm, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("stability", tests, NULL, NULL);
}
