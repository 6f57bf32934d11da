// SPDX-License-Identifier: GPL-2.0
/*
 * One loop, two sockets: each with its own LLC, DDIO mask, FSM and plan
 * from one sample stream; a reload is atomic (a refused one changes
 * nothing, an accepted one leaves unchanged sockets alone); an interval
 * without a socket's DDIO counts makes no decision there.
 */
#include <errno.h>
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

/* Socket 0: CPUs 0-1, 11 ways; socket 1: CPUs 2-3, 20 ways. */
static const char two_text[] = "[platform]\nmodel = slicing\nddio_ways_max = 5\n"
			       "ddio_growth = paper\nthreshold_miss_low = 1000\n"
			       "[socket 1]\nllc_ways = 20\nddio_ways_max = 8\n"
			       "[tenant vf0]\ncpus = 0\nways = 2\npriority = PS\nnetworking = yes\n"
			       "[tenant be0]\ncpus = 1\nways = 3\n"
			       "[tenant vf1]\ncpus = 2\nways = 4\npriority = PS\nnetworking = yes\n"
			       "[tenant be1]\ncpus = 3\nways = 3\n";

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[64];
	size_t n;
	volatile sig_atomic_t reload;
	const char *reload_text;
	unsigned int reload_at;		       /* poll that raises the reload */
	unsigned int miss_from;		       /* poll from which socket 1 misses DDIO a lot */
	unsigned int missing_from, missing_to; /* polls without socket 1's DDIO counts */
	unsigned int fail_from, fail_to;       /* polls from which applies fail, and until */
	bool gaps;			       /* from poll 3, one sample lost before each */
	char log[LOG_BUF_SIZE];
};

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct fx *f = arg;

	return config_parse_string(f->reload_text, "r.ini", out, err, len);
}

static void on_poll(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;

	if (f->miss_from && fp->polls >= f->miss_from)
		fp->sock[1].misses_inc = 500000;
	fp->sock[1].ddio_missing = fp->polls >= f->missing_from && fp->polls < f->missing_to;
	if (f->reload_at && fp->polls == f->reload_at)
		f->reload = 1;
	if (f->gaps && fp->polls >= 3)
		fp->s.seq++;
	if (f->fail_from)
		fp->apply_error = fp->polls >= f->fail_from && fp->polls < f->fail_to ? -EIO : 0;
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fake_platform_setup(&f->fp, &f->pf, &f->cfg, two_text, "s.ini");
	fake_platform_socket(&f->fp, 1, 2, 3, 20, 0xc0000);
	f->fp.sock[1].hits_inc = 1000000;
	f->fp.sock[1].misses_inc = 100;
	f->fp.on_poll = on_poll;
	f->fp.arg = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

static struct loop_opts opts(struct fx *f, uint64_t intervals)
{
	struct loop_opts o = fake_platform_loop_opts(&f->cfg, intervals, f->log);

	o.reload = &f->reload;
	o.reload_fn = reload_cb;
	o.reload_arg = f;
	return o;
}

/* The record of socket @s in interval @i. */
static const struct loop_record *rec_of(const struct fx *f, uint64_t i, unsigned int s)
{
	for (size_t k = 0; k < f->n; k++)
		if (f->rec[k].index == i && f->rec[k].socket == s)
			return &f->rec[k];
	fail_msg("no record of socket %u in interval %lu", s, (unsigned long)i);
	return NULL;
}

static void test_two_sockets_one_plan(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 3);
	const struct platform_socket_plan *s0, *s1;

	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->n, 6); /* one record per socket per interval */
	assert_int_equal(f->rec[0].socket, 0);
	assert_int_equal(f->rec[1].socket, 1);
	assert_int_equal(f->rec[1].ntenants, 2);
	assert_string_equal(f->rec[1].tenant[0].name, "vf1");
	s0 = fake_plan_socket(&f->fp.plan, 0);
	s1 = fake_plan_socket(&f->fp.plan, 1);
	assert_non_null(s0);
	assert_non_null(s1);
	/* each socket's own LLC: DDIO at the top of 11 and of 20 ways */
	assert_int_equal(s0->ddio_mask, 0x600);
	assert_int_equal(s1->ddio_mask, 0xc0000);
	assert_int_equal(s1->ngroups, 2);
	assert_string_equal(s1->group[0].name, "vf1");
	assert_int_equal(s1->group[0].mask, 0xf);
	assert_true(platform_cpuset_has(&s1->group[0].cpus, 2));
	assert_false(platform_cpuset_has(&s0->sample_cpus, 2));
	assert_true(platform_cpuset_has(&s1->sample_cpus, 3));
	assert_int_equal(f->fp.applies, 1);
	assert_non_null(
		strstr(f->log, "fake: socket 1: 2 tenants, 20 LLC ways, DDIO 2 ways (2..8)"));
	assert_non_null(strstr(f->log, "#0 s1 t="));
}

/* I/O pressure on socket 1 only: its DDIO grows, socket 0 stays put. */
static void test_sockets_decide_independently(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 6);

	f->miss_from = 3;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(rec_of(f, 5, 0)->state, FSM_LOW_KEEP);
	assert_int_equal(rec_of(f, 5, 0)->ddio_mask, 0x600);
	assert_int_equal(rec_of(f, 2, 1)->state, FSM_IO_DEMAND);
	assert_true(rec_of(f, 5, 1)->ddio_ways > 2);
	assert_int_equal(fake_plan_socket(&f->fp.plan, 0)->ddio_mask, 0x600);
	assert_true(__builtin_popcount(fake_plan_socket(&f->fp.plan, 1)->ddio_mask) > 2);
	/* PS tenants stay off their own socket's DDIO ways */
	for (size_t k = 0; k < f->n; k++)
		assert_int_equal(f->rec[k].tenant[0].mask & f->rec[k].ddio_mask, 0);
}

/* No DDIO counts on socket 1 for two intervals: no decision there, said, then it goes on. */
static void test_interval_without_ddio_counts_skips_ddio_decisions(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 7);

	f->miss_from = 2;
	f->missing_from = 3;
	f->missing_to = 5;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_true(rec_of(f, 1, 1)->ddio_missing);
	assert_true(rec_of(f, 2, 1)->ddio_missing);
	assert_int_equal(rec_of(f, 2, 1)->ddio_ways, rec_of(f, 0, 1)->ddio_ways);
	assert_false(rec_of(f, 2, 0)->ddio_missing);
	assert_false(rec_of(f, 3, 1)->ddio_missing);
	assert_true(rec_of(f, 6, 1)->ddio_ways > rec_of(f, 2, 1)->ddio_ways);
	assert_non_null(strstr(f->log, "#1 s1 t=3.000s low_keep (stable) ddio=0xc0000 vf1=0xf "
				       "be1=0x70 [no DDIO counts: DDIO decisions skipped]"));
}

static const char reload1_text[] = "[platform]\nmodel = slicing\nddio_ways_max = 5\n"
				   "ddio_growth = paper\nthreshold_miss_low = 1000\n"
				   "[socket 1]\nllc_ways = 20\nddio_ways_max = 8\n"
				   "[tenant vf0]\ncpus = 0\nways = 2\npriority = PS\n"
				   "networking = yes\n"
				   "[tenant be0]\ncpus = 1\nways = 3\n"
				   "[tenant vf1]\ncpus = 2\nways = 4\npriority = PS\n"
				   "networking = yes\n"
				   "[tenant be1]\ncpus = 3\nways = 5\n";

/* The start's plan is checked too: a refusal there changes nothing and ends the run. */
static void test_refused_start_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 3);

	f->fp.check_error = -EBUSY;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), -EBUSY);
	assert_int_equal(f->fp.checks, 1);
	assert_int_equal(f->fp.applies + f->fp.sample_applies, 0);
	assert_int_equal(f->fp.polls, 0);
	assert_int_equal(f->fp.restores, 0);
	assert_non_null(strstr(f->log, "fake: check failed: Device or resource busy"));
}

/* A reload changing socket 1 only: socket 0's state and plan go on untouched. */
static void test_reload_leaves_unchanged_sockets_alone(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 8);

	f->fp.sock[0].misses_inc = 500000; /* socket 0 under I/O pressure from the start */
	f->reload_text = reload1_text;
	f->reload_at = 4;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_non_null(strstr(f->log, "reload: socket 1: 2 tenants, LLC Alloc done"));
	assert_null(strstr(f->log, "reload: socket 0:"));
	assert_non_null(strstr(f->log, "reload: 1 socket(s) changed, the others untouched"));
	/* socket 0 kept growing DDIO through the reload: no fresh LLC Alloc there */
	assert_true(rec_of(f, 4, 0)->ddio_ways > rec_of(f, 2, 0)->ddio_ways);
	assert_int_not_equal(rec_of(f, 3, 0)->decision.reason, DECIDE_R_FIRST);
	assert_int_equal(rec_of(f, 7, 1)->tenant[1].ways, 5);
}

/* A check refusing the reload: the log says so, the running allocation stays. */
static int refuse_second(void *ctx, const struct platform_plan *p);

static void test_rejected_reload_keeps_running_state(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 7);
	struct platform_ops ops = *f->pf.ops;
	struct platform pf = {.ops = &ops, .ctx = &f->fp};

	ops.check = refuse_second;
	f->fp.sock[0].misses_inc = 500000;
	f->reload_text = reload1_text;
	f->reload_at = 4;
	assert_int_equal(loop_run(&o, &pf, f->rec, 64, &f->n), 0);
	assert_non_null(strstr(f->log, "fake: check failed: Device or resource busy"));
	assert_non_null(strstr(f->log, "reload rejected: the new allocation was not applied"));
	assert_int_equal(rec_of(f, 6, 1)->tenant[1].ways, 3);
	assert_int_equal(fake_plan_mask(&f->fp.plan, "be1"), 0x70);
	/* socket 0's FSM did not notice: no fresh start */
	assert_true(rec_of(f, 5, 0)->ddio_ways > rec_of(f, 2, 0)->ddio_ways);
	assert_int_equal(f->fp.checks, 2);
}

static int refuse_second(void *ctx, const struct platform_plan *p)
{
	struct fake_platform *f = ctx;

	(void)p;
	return ++f->checks == 2 ? -EBUSY : 0;
}

/*
 * Applies failing from poll 3 to 16 under steady I/O pressure: tried after
 * 1, 2, 4, 8 intervals, not every interval, each retry said; once the
 * platform takes plans again the pending one lands and decisions go on.
 */
static void test_apply_failures_back_off(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 30);
	const struct loop_record *r;

	f->miss_from = 2;
	f->fail_from = 3;
	f->fail_to = 17;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	/* polls 3..16 are intervals 1..14: attempts at 1, 2, 4, 8 only */
	assert_int_equal(f->fp.apply_calls - f->fp.applies, 4);
	assert_non_null(strstr(f->log, "apply failed 1 time(s) in a row; the platform's state was "
				       "read back, the plan is retried at interval #2 (in 1 "
				       "interval(s))"));
	assert_non_null(strstr(f->log, "retried at interval #16 (in 8 interval(s))"));
	assert_non_null(strstr(f->log, "apply succeeded again after 4 failure(s)"));
	/* the failures held socket 1 where it was; afterwards it grows again */
	r = rec_of(f, 12, 1);
	assert_false(r->applied);
	assert_int_equal(r->ddio_ways, rec_of(f, 0, 1)->ddio_ways);
	assert_true(rec_of(f, 29, 1)->ddio_ways > r->ddio_ways);
}

static unsigned int count(const char *log, const char *what)
{
	unsigned int n = 0;

	for (const char *p = strstr(log, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* A sample lost before every one: said once, then at most once a minute, summed. */
static void test_lost_samples_are_said_rate_limited(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 80);

	o.quiet = true;
	f->gaps = true;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(count(f->log, "sample(s) before seq"), 2);
	assert_non_null(strstr(f->log, "lost 1 sample(s) before seq"));
	assert_non_null(strstr(f->log, "lost 60 sample(s) before seq"));
	/* the lengthened intervals are still decided: one record per socket each */
	assert_int_equal(f->n, 64);
}

/* A tenant whose CPUs are on two sockets is refused at start, naming it and the CPUs. */
static void test_tenant_spanning_sockets_is_refused(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f, 2);
	char err[256];

	assert_int_equal(config_parse_string("[tenant x]\ncpus = 1-2\nways = 2\n", "x.ini", &f->cfg,
					     err, sizeof(err)),
			 0);
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), -EINVAL);
	assert_non_null(strstr(f->log,
			       "x.ini:2: [tenant x] cpus: CPU 1 is on socket 0 but CPU 2 on "
			       "socket 1: a tenant's CPUs must be on one socket"));
	assert_int_equal(f->fp.applies, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_sockets_one_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sockets_decide_independently, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_interval_without_ddio_counts_skips_ddio_decisions, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_start_changes_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reload_leaves_unchanged_sockets_alone, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rejected_reload_keeps_running_state, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_apply_failures_back_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lost_samples_are_said_rate_limited, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_tenant_spanning_sockets_is_refused, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
