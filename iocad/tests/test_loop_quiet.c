// SPDX-License-Identifier: GPL-2.0
/*
 * loop_opts.quiet (iocad --quiet): no per-interval lines reach the log
 * callback, the other levels still do, and the decisions are the same as
 * in a run that logs every interval.
 */
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_platform.h"
#include "loop/loop.h"

struct run {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[8];
	size_t n;
	unsigned int lines[LOOP_LOG_INTERVAL + 1];
};

static void count(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct run *r = arg;

	(void)msg;
	r->lines[lvl]++;
}

static void run(struct run *r, bool quiet)
{
	char err[256];

	assert_int_equal(
		config_parse_string(fake_platform_vf_be, "q.ini", &r->cfg, err, sizeof(err)), 0);
	fake_platform_init(&r->fp, 11, 2, 0x600);
	fake_platform_cpu(&r->fp, 0, 1.0, 1000000, 100000);
	fake_platform_cpu(&r->fp, 1, 1.0, 8000000, 800000);
	r->fp.sock[0].hits_inc = 1000000;
	fake_platform_bind(&r->fp, &r->pf);
	struct loop_opts o = fake_platform_loop_opts(&r->cfg, 6, NULL);

	o.log = count;
	o.log_arg = r;
	o.quiet = quiet;
	assert_int_equal(loop_run(&o, &r->pf, r->rec, 8, &r->n), 0);
}

static void test_quiet_drops_only_the_interval_lines(void **state)
{
	struct run *loud = calloc(1, sizeof(*loud)), *quiet = calloc(1, sizeof(*quiet));

	(void)state;
	assert_non_null(loud);
	assert_non_null(quiet);
	run(loud, false);
	run(quiet, true);
	assert_int_equal(loud->n, 6);
	assert_int_equal(loud->lines[LOOP_LOG_INTERVAL], 6);
	assert_int_equal(quiet->lines[LOOP_LOG_INTERVAL], 0);
	/* start and restore are still said */
	assert_true(quiet->lines[LOOP_LOG_INFO] > 0);
	assert_int_equal(quiet->lines[LOOP_LOG_INFO], loud->lines[LOOP_LOG_INFO]);
	assert_int_equal(quiet->n, loud->n);
	for (size_t i = 0; i < loud->n; i++) {
		assert_int_equal(quiet->rec[i].decision.state, loud->rec[i].decision.state);
		assert_int_equal(quiet->rec[i].ddio_mask, loud->rec[i].ddio_mask);
	}
	free(loud);
	free(quiet);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quiet_drops_only_the_interval_lines),
	};

	return cmocka_run_group_tests_name("loop_quiet", tests, NULL, NULL);
}
