// SPDX-License-Identifier: GPL-2.0
/*
 * The inclusive ways on the loop: the applied plan keeps a PS tenant off
 * them, and when it cannot (A4's rule falls back to DDIO's alone) the log
 * says so once.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_platform.h"
#include "log_buf.h"
#include "loop/loop.h"

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[8];
	size_t n;
	char log[LOG_BUF_SIZE];
};

/* @db_ways for the PS tenant db; be (BE, 1 way) and the default inclusive ways. */
static struct fx *run(unsigned int db_ways)
{
	struct fx *f = calloc(1, sizeof(*f));
	char text[256];
	struct loop_opts o;

	assert_non_null(f);
	snprintf(text, sizeof(text),
		 "[platform]\nllc_ways = 11\n[tenant db]\ncpus = 0\nways = %u\npriority = PS\n"
		 "[tenant be]\ncpus = 1\nways = 1\n",
		 db_ways);
	fake_platform_setup(&f->fp, &f->pf, &f->cfg, text, "i.ini");
	o = fake_platform_loop_opts(&f->cfg, 4, f->log);
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 8, &f->n), 0);
	assert_int_equal(f->n, 4);
	return f;
}

static void test_loop_inclusive_ps_tenant_is_planned_off_them(void **u)
{
	struct fx *f = run(7);

	(void)u;
	/* ways 2-8: between the inclusive ways 0x003 and DDIO's 0x600 */
	assert_int_equal(fake_plan_mask(&f->fp.plan, "db"), 0x1fc);
	assert_int_equal(fake_plan_mask(&f->fp.plan, "be"), 0x001);
	assert_null(strstr(f->log, "inclusive ways"));
	free(f);
}

static void test_loop_inclusive_fallback_is_said_once(void **u)
{
	struct fx *f = run(8);
	const char *say = "socket 0: PS tenant db (0xff) is on the inclusive ways 0x3: it does "
			  "not fit off them and off DDIO's ways";
	const char *p;

	(void)u;
	assert_int_equal(fake_plan_mask(&f->fp.plan, "db"), 0x0ff);
	p = strstr(f->log, say);
	assert_non_null(p);
	assert_null(strstr(p + 1, say));
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_inclusive_ps_tenant_is_planned_off_them),
		cmocka_unit_test(test_loop_inclusive_fallback_is_said_once),
	};

	return cmocka_run_group_tests_name("loop_inclusive", tests, NULL, NULL);
}
