// SPDX-License-Identifier: GPL-2.0
/*
 * A4's antagonist verdict and zone (antagonist.c), and the loop's one line
 * when the platform has no L2 counts (loop_antagonist.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decide/antagonist.h"
#include "config/config.h"
#include "fake_platform.h"
#include "log_buf.h"
#include "loop/loop.h"

static struct tenant_rates rates(double l2_ratio, double llc_ratio)
{
	/* 10M L2 requests a second; what misses the L2 is what the LLC sees */
	double l2_misses = 1e7 * l2_ratio;

	return (struct tenant_rates){.l2_refs = 1e7,
				     .l2_misses = l2_misses,
				     .llc_refs = l2_misses,
				     .llc_misses = l2_misses * llc_ratio};
}

static void test_antagonist_verdict_with_hysteresis(void **u)
{
	struct antagonist_params p;
	struct antagonist_state st = {0};
	struct tenant_rates both = rates(0.97, 0.95), mid = rates(0.8, 0.8),
			    l2only = rates(0.97, 0.3), idle = rates(1, 1);

	(void)u;
	antagonist_defaults(&p);
	/* confirm intervals, then on */
	assert_false(antagonist_step(&p, &st, &both, true));
	assert_false(antagonist_step(&p, &st, &both, true));
	assert_true(antagonist_step(&p, &st, &both, true));
	assert_true(st.on);
	assert_true(st.l2_ratio > 0.96 && st.llc_ratio > 0.94);
	/* between the thresholds: stays one */
	for (int i = 0; i < 10; i++)
		assert_false(antagonist_step(&p, &st, &mid, true));
	assert_true(st.on);
	/* its LLC hits again: off after confirm intervals */
	assert_false(antagonist_step(&p, &st, &l2only, true));
	assert_false(antagonist_step(&p, &st, &l2only, true));
	assert_true(antagonist_step(&p, &st, &l2only, true));
	assert_false(st.on);
	/* between the thresholds from off: never one */
	for (int i = 0; i < 10; i++)
		assert_false(antagonist_step(&p, &st, &mid, true));
	/* a high L2 miss ratio alone is not enough */
	for (int i = 0; i < 10; i++)
		assert_false(antagonist_step(&p, &st, &l2only, true));
	/* too idle to judge */
	idle.l2_refs = 1e5;
	idle.l2_misses = idle.llc_refs = idle.llc_misses = 1e5;
	for (int i = 0; i < 10; i++)
		assert_false(antagonist_step(&p, &st, &idle, true));
	assert_false(st.on);
}

static void test_antagonist_not_eligible_clears_at_once(void **u)
{
	struct antagonist_params p;
	struct antagonist_state st = {0};
	struct tenant_rates both = rates(1, 1);

	(void)u;
	antagonist_defaults(&p);
	for (unsigned int i = 0; i < p.confirm; i++)
		antagonist_step(&p, &st, &both, true);
	assert_true(st.on);
	assert_true(antagonist_step(&p, &st, &both, false));
	assert_false(st.on);
	assert_false(antagonist_step(&p, &st, &both, false));
	/* a streak restarts after an interval that does not confirm it */
	antagonist_step(&p, &st, &both, true);
	antagonist_step(&p, &st, &both, true);
	antagonist_step(&p, &st, &both, false);
	assert_false(antagonist_step(&p, &st, &both, true));
	assert_false(st.on);
}

static void test_antagonist_zone(void **u)
{
	(void)u;
	/* off DDIO (0x600) and the inclusive ways (0x3): the lowest way left */
	assert_int_equal(antagonist_zone(0x3e0, 0x603, 1), 0x20);
	assert_int_equal(antagonist_zone(0x3e0, 0x603, 2), 0x60);
	/* its mask lies wholly on DDIO's ways: the lowest of them */
	assert_int_equal(antagonist_zone(0x600, 0x600, 1), 0x200);
	/* no contiguous run off the avoided ways: its lowest ways */
	assert_int_equal(antagonist_zone(0x0f0, 0x050, 2), 0x030);
	/* already that small, or no zone size: unchanged */
	assert_int_equal(antagonist_zone(0x180, 0x600, 2), 0x180);
	assert_int_equal(antagonist_zone(0x180, 0x600, 0), 0x180);
	assert_int_equal(antagonist_zone(0xffffffffu, 0, 32), 0xffffffffu);
	assert_int_equal(antagonist_zone(0xffffffffu, 0xffff0000u, 3), 0x7);
}

static void test_antagonist_config_keys(void **u)
{
	static const char base[] = "[tenant a]\ncpus = 0\nways = 1\n";
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)u;
	assert_non_null(c);
	assert_int_equal(config_parse_string(base, "t.ini", c, err, sizeof(err)), 0);
	assert_int_equal(c->antagonists, ANTAGONIST_CONFINE);
	assert_int_equal(c->antagonist_ways, 1);
	assert_int_equal(
		config_parse_string("[platform]\nantagonists = observe\n"
				    "antagonist_ways = 2\n[tenant a]\ncpus = 0\nways = 1\n",
				    "t.ini", c, err, sizeof(err)),
		0);
	assert_int_equal(c->antagonists, ANTAGONIST_OBSERVE);
	assert_int_equal(c->antagonist_ways, 2);
	assert_int_equal(config_parse_string("[platform]\nantagonists = jail\n", "t.ini", c, err,
					     sizeof(err)),
			 -22);
	assert_string_equal(err, "t.ini:2: [platform] antagonists: bad value 'jail': expected "
				 "confine, observe or off");
	assert_int_equal(config_parse_string("[platform]\nantagonist_ways = 0\n", "t.ini", c, err,
					     sizeof(err)),
			 -22);
	assert_non_null(strstr(err, "t.ini:2: [platform] antagonist_ways: bad value '0'"));
	free(c);
}

static char lines[8192];

static void keep(void *arg, enum loop_log_level lvl, const char *msg)
{
	(void)arg;
	(void)lvl;
	log_buf_append(lines, sizeof(lines), msg);
}

static unsigned int count(const char *needle)
{
	unsigned int n = 0;

	for (const char *p = lines; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* Three intervals of a BE tenant on the fake platform, whose info says @l2 and @why. */
static void run_l2(const char *platform, bool l2, const char *why)
{
	struct fake_platform *f = calloc(1, sizeof(*f));
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct platform pf;
	char text[256];

	assert_non_null(f);
	assert_non_null(cfg);
	snprintf(text, sizeof(text),
		 "[platform]\nmodel = slicing\nllc_ways = 11\n%s[tenant be]\ncpus = 1\nways = 3\n",
		 platform);
	fake_platform_setup(f, &pf, cfg, text, "a.ini");
	f->info.l2_counters = l2;
	snprintf(f->info.l2_why, sizeof(f->info.l2_why), "%s", why);
	lines[0] = '\0';
	struct loop_opts o = {.sz = sizeof(o),
			      .cfg = cfg,
			      .mode = IOCAD_MODE_IOCA,
			      .max_intervals = 3,
			      .quiet = true,
			      .log = keep};

	assert_int_equal(loop_run(&o, &pf, NULL, 0, NULL), 0);
	free(cfg);
	free(f);
}

/* No L2 counts: said once, with the platform's reason; not when nobody would be judged. */
static void test_antagonist_no_l2_counts_said_once(void **u)
{
	const char *line = "fake: no L2 counts (ioca.ko could not count them): antagonists are "
			   "not judged (FSM.md, \"Antagonists\")";

	(void)u;
	run_l2("", false, "ioca.ko could not count them");
	assert_int_equal(count(line), 1);
	run_l2("antagonists = off\n", false, "ioca.ko could not count them");
	assert_int_equal(count("no L2 counts"), 0);
	run_l2("", true, "");
	assert_int_equal(count("no L2 counts"), 0);
	/* a platform that gives no reason (the simulator without l2) says nothing */
	run_l2("", false, "");
	assert_int_equal(count("no L2 counts"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_antagonist_verdict_with_hysteresis),
		cmocka_unit_test(test_antagonist_not_eligible_clears_at_once),
		cmocka_unit_test(test_antagonist_zone),
		cmocka_unit_test(test_antagonist_config_keys),
		cmocka_unit_test(test_antagonist_no_l2_counts_said_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
