// SPDX-License-Identifier: GPL-2.0
/*
 * The DDIO mask read back from the platform: an outside change is logged,
 * traced, adopted and planned around, never overwritten with the old
 * belief; `ddio = observe` never changes DDIO's ways, nor does a socket
 * whose DDIO ways the platform says cannot be changed.
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

/*
 * be first in config order, so the I/O-unaware layout puts PS on top; no
 * inclusive ways, which would put the networking vf first (at way 0)
 */
static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\nddio_ways_max = 5\n"
			       "inclusive_ways = none\n"
			       "threshold_miss_low = 1000\n"
			       "[tenant be]\ncpus = 1-2\nways = 4\n"
			       "[tenant vf]\ncpus = 0\nways = 4\npriority = PS\nnetworking = yes\n";

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[32];
	size_t n;
	uint32_t seen[40]; /* the platform's DDIO mask at each poll */
	char log[LOG_BUF_SIZE];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fake_platform_setup(&f->fp, &f->pf, &f->cfg, cfg_text, "d.ini");
	f->fp.arg = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static struct loop_opts opts(struct fx *f)
{
	return fake_platform_loop_opts(&f->cfg, 10, f->log);
}

/* An operator raises DDIO from two ways to four before the 5th poll. */
static void operator_raises_ddio(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;

	if (fp->polls == 5)
		fp->sock[0].mask_now = 0x780;
	if (fp->polls < 40)
		f->seen[fp->polls] = fp->sock[0].mask_now;
}

static void test_outside_ddio_change_is_adopted_never_undone(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	o.trace = m;
	f->fp.on_poll = operator_raises_ddio;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	fclose(m);
	assert_int_equal(f->n, 10);
	/* poll 5 ends interval 3 (poll 1 is the baseline) */
	assert_false(f->rec[2].ddio_outside);
	assert_true(f->rec[3].ddio_outside);
	assert_int_equal(f->rec[3].ddio_outside_from, 0x600);
	assert_int_equal(f->rec[3].ddio_ways, 4);
	assert_false(f->rec[4].ddio_outside); /* noticed once */
	for (size_t i = 3; i < f->n; i++) {
		assert_int_equal(f->rec[i].ddio_mask, 0x780);
		/* the PS tenant is off the new DDIO ways from that interval on */
		assert_int_equal(f->rec[i].tenant[1].mask & 0x780, 0);
	}
	/* before it, PS sat where the new ways are: a re-plan was needed */
	assert_int_not_equal(f->rec[2].tenant[1].mask & 0x780, 0);
	assert_true(f->rec[3].applied);
	/* the old belief is never written back */
	for (unsigned int p = 5; p <= 11; p++)
		assert_int_equal(f->seen[p], 0x780);
	assert_non_null(strstr(f->log, "DDIO mask changed outside iocad: 0x600 -> 0x780 (4 ways)"));
	assert_non_null(strstr(f->log, "ddio=0x780 (outside: was 0x600)"));
	/* trace row of interval 3: ddio_outside column holds the old mask */
	assert_non_null(strstr(buf, ",0x780,"));
	assert_non_null(strstr(buf, ",0x600,4,"));
	free(buf);
}

static void test_outside_ddio_change_in_dry_run_is_seen_once(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	o.dry_run = true;
	f->fp.on_poll = operator_raises_ddio;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_int_equal(f->fp.applies, 0);
	assert_true(f->rec[3].ddio_outside);
	for (size_t i = 0; i < f->n; i++)
		assert_int_equal(f->rec[i].ddio_outside, i == 3);
}

static void io_pressure(struct fake_platform *fp, void *arg)
{
	operator_raises_ddio(fp, arg);
	if (fp->polls >= 3)
		fp->sock[0].misses_inc = 50000 + 20000ull * fp->polls;
}

/* ddio = observe: the paper's Fig. 10/11 setting, DDIO changes disabled. */
static void test_observe_never_changes_ddio_ways(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->cfg.ddio_observe = true;
	f->fp.on_poll = io_pressure;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_not_equal(f->rec[i].decision.action, FSM_ACT_DDIO_GROW);
		assert_int_equal(f->rec[i].ddio_ways, i < 3 ? 2 : 4);
		assert_int_equal(f->rec[i].tenant[1].mask & f->rec[i].ddio_mask, 0);
	}
	assert_string_equal(decide_reason_name(&f->rec[1].decision), "io_disabled");
	for (unsigned int p = 5; p <= 11; p++)
		assert_int_equal(f->seen[p], 0x780);
	/* what it wrote as DDIO mask was only ever the platform's own */
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x780);
}

/* observe: the starting DDIO is the platform's, whatever ddio_ways says, and stays it. */
/*
 * ddio = manage starting on a DDIO mask in the middle of the LLC (ways 4-5,
 * an operator's or another tool's): iocad keeps it there, never writes the
 * top ways over it, and plans both tenants around it.
 */
static void test_manage_starts_where_the_platforms_ddio_is(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.info.socket[0].ddio_mask = 0x30;
	f->fp.sock[0].mask_now = 0x30;
	f->fp.on_poll = NULL;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_true(f->fp.applies >= 1);
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x30);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_equal(f->rec[i].ddio_mask, 0x30);
		assert_false(f->rec[i].ddio_outside);
		assert_int_equal(f->rec[i].tenant[0].mask & 0x30, 0);
		assert_int_equal(f->rec[i].tenant[1].mask & 0x30, 0);
	}
}

static void test_observe_starts_from_the_platforms_ddio(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->cfg.ddio_observe = true;
	f->cfg.ddio_ways = 3;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_true(f->fp.applies >= 1);
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x600);
	for (size_t i = 0; i < f->n; i++)
		assert_int_equal(f->rec[i].ddio_ways, 2);
	assert_non_null(strstr(f->log, "ddio = observe: DDIO keeps the platform's 2 ways (0x600)"));
	/*
	 * a mask in the middle (ways 4-5) is never rewritten either, and the
	 * tenants are planned around it: the PS tenant, which the top-aligned
	 * layout put on ways 4-7, goes above it, nobody shares its ways
	 */
	memset(f->log, 0, sizeof(f->log));
	f->fp.info.socket[0].ddio_mask = 0x30;
	f->fp.sock[0].mask_now = 0x30;
	f->fp.applies = 0;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_true(f->fp.applies >= 1);
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x30);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_equal(f->rec[i].ddio_mask, 0x30);
		assert_int_equal(f->rec[i].tenant[0].mask & 0x30, 0);
		assert_int_equal(f->rec[i].tenant[1].mask & 0x30, 0);
	}
	assert_null(strstr(f->log, "not the top"));
}

/* I/O misses rising from the 3rd poll, nobody else touching DDIO. */
static void misses_rise(struct fake_platform *fp, void *arg)
{
	(void)arg;
	if (fp->polls >= 3)
		fp->sock[0].misses_inc = 50000 + 20000ull * fp->polls;
}

/* The module says the register does not take writes: iocad runs as with observe, says why. */
static void test_ddio_not_controllable_runs_without_ddio_control(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.info.socket[0].ddio_fixed = true;
	snprintf(f->fp.info.socket[0].ddio_fixed_why, PLATFORM_WHY_LEN,
		 "ioca.ko: DDIO writes do not stick");
	f->cfg.ddio_ways = 3;
	f->fp.on_poll = misses_rise;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_true(f->n >= 8);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_not_equal(f->rec[i].decision.action, FSM_ACT_DDIO_GROW);
		assert_int_equal(f->rec[i].ddio_mask, 0x600);
		/* DDIO's ways planned around: the PS tenant stays off them */
		assert_int_equal(f->rec[i].tenant[1].mask & f->rec[i].ddio_mask, 0);
	}
	assert_string_equal(decide_reason_name(&f->rec[1].decision), "io_disabled");
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x600);
	assert_non_null(strstr(f->log, "socket 0: no DDIO way control: ioca.ko: DDIO writes do not "
				       "stick; iocad runs without it there"));
	assert_non_null(strstr(f->log, "DDIO keeps its 2 ways (0x600)"));
}

/* The register turns out locked at the first DDIO write: iocad goes on without DDIO control. */
static void test_ddio_write_that_does_not_stick_ends_ddio_control(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	unsigned int applies_before;

	f->fp.sock[0].ddio_locked = true;
	f->fp.on_poll = misses_rise;
	o.max_intervals = 12;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_non_null(strstr(f->log,
			       "socket 0: no DDIO way control any more: ioca.ko: DDIO writes "
			       "do not stick; iocad goes on without it there"));
	/* no back-off: the plan without the DDIO change went through */
	assert_non_null(strstr(f->log, "apply failed: Input/output error"));
	assert_null(strstr(f->log, "time(s) in a row"));
	assert_null(strstr(f->log, "is retried"));
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x600);
	applies_before = f->fp.applies;
	assert_true(applies_before >= 2);
	for (size_t i = 2; i < f->n; i++) {
		assert_int_equal(f->rec[i].ddio_ways, 2);
		assert_int_not_equal(f->rec[i].decision.action, FSM_ACT_DDIO_GROW);
		assert_int_equal(f->rec[i].tenant[1].mask & f->rec[i].ddio_mask, 0);
	}
	assert_int_equal(f->fp.sock[0].mask_now, 0x600);
}

/* Unverified control is used, and said once at the start. */
static void test_ddio_unverified_is_managed_and_said(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.info.socket[0].ddio_unverified = true;
	f->fp.on_poll = misses_rise;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 32, &f->n), 0);
	assert_non_null(strstr(f->log, "socket 0: DDIO way masks are set but not verified"));
	assert_null(strstr(f->log, "no DDIO way control"));
	/* the I/O pressure that a fixed DDIO ignores grows DDIO here */
	assert_string_equal(decide_reason_name(&f->rec[1].decision), "io_pressure");
	assert_int_equal(f->rec[1].ddio_ways, 3);
}

static void test_config_ddio_key(void **state)
{
	struct config c;
	char err[256] = "";

	(void)state;
	assert_int_equal(config_parse_string("[platform]\nddio = observe\n[tenant a]\ncpus = 0\n"
					     "ways = 2\n",
					     "o.ini", &c, err, sizeof(err)),
			 0);
	assert_true(c.ddio_observe);
	assert_int_equal(config_parse_string("[platform]\nddio = manage\n[tenant a]\ncpus = 0\n"
					     "ways = 2\n",
					     "o.ini", &c, err, sizeof(err)),
			 0);
	assert_false(c.ddio_observe);
	assert_int_not_equal(config_parse_string("[platform]\nddio = watch\n[tenant a]\n"
						 "cpus = 0\nways = 2\n",
						 "o.ini", &c, err, sizeof(err)),
			     0);
	assert_string_equal(err, "o.ini:2: [platform] ddio: bad value 'watch': expected manage or "
				 "observe");
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_outside_ddio_change_is_adopted_never_undone),
		T(test_outside_ddio_change_in_dry_run_is_seen_once),
		T(test_observe_never_changes_ddio_ways),
		T(test_manage_starts_where_the_platforms_ddio_is),
		T(test_observe_starts_from_the_platforms_ddio),
		T(test_ddio_not_controllable_runs_without_ddio_control),
		T(test_ddio_unverified_is_managed_and_said),
		T(test_ddio_write_that_does_not_stick_ends_ddio_control),
		cmocka_unit_test(test_config_ddio_key),
	};

	return cmocka_run_group_tests_name("loop_ddio", tests, NULL, NULL);
}
