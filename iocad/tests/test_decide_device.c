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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_device_turns_off_a_polluting_stream),
		cmocka_unit_test(test_decide_device_keeps_ddio_for_reread_or_hits),
		cmocka_unit_test(test_decide_device_confirms_and_resets),
		cmocka_unit_test(test_decide_device_back_on_with_hysteresis),
		cmocka_unit_test(test_decide_device_back_on_for_reread_data),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
