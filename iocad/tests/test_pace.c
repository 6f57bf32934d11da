// SPDX-License-Identifier: GPL-2.0
/*
 * iocad --pace: the wrapped platform's wait() lasts until the interval's
 * wall-clock end (never less: clock_nanosleep on an absolute deadline does
 * not return early), everything else reaches the wrapped platform, and a
 * loop run on it decides exactly as on the bare platform.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "fake_platform.h"
#include "loop/loop.h"
#include "loop/pace.h"

static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\ninterval_ms = 20\n"
			       "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			       "[tenant be]\ncpus = 1\nways = 3\n";

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t run(struct platform *pf, struct config *cfg, struct loop_record *out)
{
	struct loop_opts o = {.sz = sizeof(o),
			      .cfg = cfg,
			      .mode = IOCAD_MODE_IOCA,
			      .max_intervals = 5,
			      .quiet = true};
	size_t n = 0;

	assert_int_equal(loop_run(&o, pf, out, 5, &n), 0);
	return n;
}

static void test_pace_keeps_wall_clock_and_changes_no_decision(void **u)
{
	static struct loop_record bare[5], paced[5];
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct pace pace;
	uint64_t t0;

	(void)u;
	fake_platform_setup(&fp, &pf, &cfg, cfg_text, "p.ini");
	assert_int_equal(run(&pf, &cfg, bare), 5);
	fake_platform_setup(&fp, &pf, &cfg, cfg_text, "p.ini");
	pace_wrap(&pace, &pf);
	assert_string_equal(pf.ops->name, "fake");
	assert_null(pf.ops->trace_columns); /* the fake has none: neither has the wrapper */
	t0 = now_ns();
	assert_int_equal(run(&pf, &cfg, paced), 5);
	/* 6 waits (the baseline poll's and 5 intervals') of 20 ms each, at least */
	assert_int_equal(fp.waits, 6);
	assert_true(now_ns() - t0 >= 6 * 20000000ull);
	assert_int_equal(fp.restores, 1);
	assert_memory_equal(bare, paced, sizeof(bare));
	pf.ops->destroy(pf.ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pace_keeps_wall_clock_and_changes_no_decision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
