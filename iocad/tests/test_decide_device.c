// SPDX-License-Identifier: GPL-2.0
/* A4's storage DDIO rule (decide_device.c): when it switches, and when it must not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "decide/decide_device.h"

/* A device streaming @mb MB/s; the socket's DDIO misses at @miss of its writes. */
static struct decide_device_in streaming(double mb, double miss)
{
	return (struct decide_device_in){.measured = true,
					 .write_bytes = mb * 1e6,
					 .ddio_measured = true,
					 .ddio_hits = 10e6 * (1 - miss),
					 .ddio_misses = 10e6 * miss};
}

/* Run @n intervals of @in; the last reason. */
static enum decide_device_reason run(const struct decide_device_params *p,
				     struct decide_device_state *st,
				     const struct decide_device_in *in, unsigned int n)
{
	enum decide_device_reason r = DEV_HOLD;

	for (unsigned int i = 0; i < n; i++)
		r = decide_device(p, st, in);
	return r;
}

static void test_decide_device_turns_off_a_polluting_stream(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {0};
	struct decide_device_in in = streaming(1500, 0.6);

	(void)u;
	decide_device_defaults(&p);
	/* the minimum dwell from the start: nothing before it */
	assert_int_equal(run(&p, &st, &in, p.dwell - 1), DEV_DWELL);
	assert_false(st.off);
	assert_int_equal(decide_device(&p, &st, &in), DEV_OFF_POLLUTES);
	assert_true(st.off);
	/* off: the same stream keeps it off */
	assert_int_equal(run(&p, &st, &in, 30), DEV_HOLD);
	assert_true(st.off);
}

static void test_decide_device_keeps_ddio_for_reread_or_hits(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {.since = 100};
	struct decide_device_in in = streaming(1500, 0.6);

	(void)u;
	decide_device_defaults(&p);
	/* its owner's cores hit once per written line: the data is re-read from the LLC */
	in.owner_refs = in.write_bytes / 64 * 1.2;
	in.owner_misses = in.write_bytes / 64 * 0.2;
	assert_int_equal(run(&p, &st, &in, 20), DEV_HOLD);
	assert_false(st.off);
	/* DDIO's writes hit: nothing is evicted for it */
	in = streaming(1500, 0.1);
	assert_int_equal(run(&p, &st, &in, 20), DEV_HOLD);
	/* a trickle: not worth a switch */
	in = streaming(100, 0.9);
	assert_int_equal(run(&p, &st, &in, 20), DEV_HOLD);
	/* no DDIO counts: no verdict on pollution */
	in = streaming(1500, 0.6);
	in.ddio_measured = false;
	assert_int_equal(run(&p, &st, &in, 20), DEV_HOLD);
	assert_false(st.off);
}

static void test_decide_device_confirms_and_resets(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {.since = 100};
	struct decide_device_in in = streaming(1500, 0.6), calm = streaming(1500, 0.0), none = {0};

	(void)u;
	decide_device_defaults(&p);
	assert_int_equal(decide_device(&p, &st, &in), DEV_CONFIRMING);
	assert_int_equal(decide_device(&p, &st, &in), DEV_CONFIRMING);
	/* one calm interval restarts the count */
	assert_int_equal(decide_device(&p, &st, &calm), DEV_HOLD);
	assert_int_equal(decide_device(&p, &st, &in), DEV_CONFIRMING);
	/* so does an unmeasured one */
	assert_int_equal(decide_device(&p, &st, &none), DEV_UNMEASURED);
	assert_int_equal(run(&p, &st, &in, p.confirm - 1), DEV_CONFIRMING);
	assert_int_equal(decide_device(&p, &st, &in), DEV_OFF_POLLUTES);
}

static void test_decide_device_back_on_with_hysteresis(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {.off = true, .since = 100};
	struct decide_device_in mid = streaming(100, 0.6), quiet = streaming(5, 0.6);

	(void)u;
	decide_device_defaults(&p);
	/* between quiet and on: neither pollutes enough nor stopped */
	assert_int_equal(run(&p, &st, &mid, 50), DEV_HOLD);
	assert_true(st.off);
	assert_int_equal(run(&p, &st, &quiet, p.confirm), DEV_ON_QUIET);
	assert_false(st.off);
	/* straight back to a stream: the dwell holds it on */
	mid = streaming(1500, 0.6);
	assert_int_equal(run(&p, &st, &mid, p.dwell - 1), DEV_DWELL);
	assert_false(st.off);
	assert_int_equal(decide_device(&p, &st, &mid), DEV_OFF_POLLUTES);
}

static void test_decide_device_back_on_for_reread_data(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {.off = true, .since = 100};
	struct decide_device_in in = streaming(1500, 0.01);

	(void)u;
	decide_device_defaults(&p);
	/* off, the owner reads every written line from DRAM; DDIO's writes hit */
	in.owner_refs = in.owner_misses = in.write_bytes / 64;
	assert_int_equal(run(&p, &st, &in, p.confirm), DEV_ON_REREAD);
	assert_false(st.off);
	/* re-read but DDIO misses: stays off */
	st = (struct decide_device_state){.off = true, .since = 100};
	in = streaming(1500, 0.3);
	in.owner_refs = in.owner_misses = in.write_bytes / 64;
	assert_int_equal(run(&p, &st, &in, 20), DEV_HOLD);
	assert_true(st.off);
	assert_string_equal(decide_device_reason_name(DEV_ON_REREAD), "re-read");
}

/* A4's inputs: @mb of @net_mb, socket miss @miss, the application's LLC miss ratio @own. */
static struct decide_device_in a4_in(double mb, double net_mb, double miss, double own)
{
	struct decide_device_in in = streaming(mb, miss);

	in.net_measured = true;
	in.net_bytes = net_mb * 1e6;
	in.app_refs = 1e7;
	in.app_misses = 1e7 * own;
	return in;
}

static void test_decide_device_a4_rule_as_a4_states_it(void **u)
{
	struct decide_device_params p;
	struct decide_device_state st = {.since = 100};
	/* 400 of 1000 MB/s (40 % > 35 %), PCIe miss 50 % > 40 %, app LLC miss 50 % > 40 % */
	struct decide_device_in off = a4_in(400, 1000, 0.5, 0.5);
	struct decide_device_in r;

	(void)u;
	decide_device_defaults(&p);
	assert_int_equal(p.rule, DECIDE_RULE_IOCA);
	p.rule = DECIDE_RULE_A4;
	/* one input short of A4's threshold each: DDIO stays on */
	r = a4_in(300, 1000, 0.5, 0.5); /* 30 % of the network's */
	assert_int_equal(run(&p, &st, &r, 10), DEV_HOLD);
	r = a4_in(400, 1000, 0.4, 0.5); /* miss rate not over 40 % */
	assert_int_equal(run(&p, &st, &r, 10), DEV_HOLD);
	r = a4_in(400, 1000, 0.5, 0.3); /* the application hits */
	assert_int_equal(run(&p, &st, &r, 10), DEV_HOLD);
	r = off;
	r.net_measured = false; /* no network throughput: no share */
	assert_int_equal(run(&p, &st, &r, 10), DEV_HOLD);
	/* all three: off after confirm intervals */
	assert_int_equal(run(&p, &st, &off, p.confirm), DEV_OFF_A4);
	assert_true(st.off);
	assert_true(st.stable == 400e6);
	/* back on only when the throughput falls more than 30 % below 400 MB/s */
	r = a4_in(290, 1000, 0.1, 0.1);
	assert_int_equal(run(&p, &st, &r, 30), DEV_HOLD);
	assert_true(st.off);
	r = a4_in(270, 1000, 0.1, 0.1);
	st.since = 100;
	assert_int_equal(run(&p, &st, &r, p.confirm), DEV_ON_A4_DROP);
	assert_false(st.off);
	assert_true(decide_device_switched(DEV_ON_A4_DROP));
	assert_string_equal(decide_device_reason_name(DEV_OFF_A4), "a4-off");
}

static void test_decide_device_rules_differ_on_the_same_inputs(void **u)
{
	struct decide_device_params ioca, a4;
	struct decide_device_state s1 = {.since = 100}, s2 = {.since = 100};
	/* 150 MB/s of a 300 MB/s network, misses 60 %, app misses 60 %: A4 off, ioca keeps
	 * DDIO (below its 200 MB/s) */
	struct decide_device_in in = a4_in(150, 300, 0.6, 0.6);

	(void)u;
	decide_device_defaults(&ioca);
	a4 = ioca;
	a4.rule = DECIDE_RULE_A4;
	assert_int_equal(run(&ioca, &s1, &in, 10), DEV_HOLD);
	assert_int_equal(run(&a4, &s2, &in, a4.confirm), DEV_OFF_A4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_device_turns_off_a_polluting_stream),
		cmocka_unit_test(test_decide_device_keeps_ddio_for_reread_or_hits),
		cmocka_unit_test(test_decide_device_confirms_and_resets),
		cmocka_unit_test(test_decide_device_back_on_with_hysteresis),
		cmocka_unit_test(test_decide_device_back_on_for_reread_data),
		cmocka_unit_test(test_decide_device_a4_rule_as_a4_states_it),
		cmocka_unit_test(test_decide_device_rules_differ_on_the_same_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
