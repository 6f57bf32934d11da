// SPDX-License-Identifier: GPL-2.0
/*
 * A platform without samples (a sampler that will not start, a late
 * module): the loop keeps turning, answers a reload while no sample
 * comes, publishes what the platform waits for at every turn, and tells
 * the caller whether each reload was taken or refused.
 */
#include <errno.h>
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

static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
			       "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			       "[tenant be1]\ncpus = 1\nways = 3\n";
static const char cfg2_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
				"[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
				"[tenant be1]\ncpus = 1\nways = 3\n"
				"[tenant be2]\ncpus = 2\nways = 2\n";
/* 3 + 3 + 9 ways on 11: refused when parsed */
static const char bad_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
			       "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			       "[tenant be1]\ncpus = 1\nways = 3\n"
			       "[tenant be2]\ncpus = 2\nways = 9\n";

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	volatile sig_atomic_t reload;
	const char *next; /* the config a reload reads */
	unsigned int reload_polls[4], nreloads;
	bool taken[4];
	unsigned int ntaken;
	unsigned int turns, waiting_turns, cat_turns;
	char waiting[128], cat_waiting[128];
	unsigned int cat_waits;
	unsigned int down_from, down_to; /* polls without a sample */
	unsigned int hup_at;		 /* the poll a SIGHUP comes at */
};

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct fx *f = arg;

	if (f->nreloads < 4)
		f->reload_polls[f->nreloads++] = f->fp.polls;
	return config_parse_string(f->next, "r.ini", out, err, len);
}

static void reloaded_cb(void *arg, bool taken)
{
	struct fx *f = arg;

	if (f->ntaken < 4)
		f->taken[f->ntaken++] = taken;
}

static void status_cb(void *arg, const struct loop_status *st)
{
	struct fx *f = arg;

	f->turns++;
	f->cat_waits = st->cat_waits;
	snprintf(f->cat_waiting, sizeof(f->cat_waiting), "%s", st->cat_waiting);
	if (st->cat_waits)
		f->cat_turns++;
	if (st->waiting[0]) {
		f->waiting_turns++;
		snprintf(f->waiting, sizeof(f->waiting), "%s", st->waiting);
		assert_true(st->waiting_since_ns > 0);
	}
}

static void on_poll(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;
	bool down = fp->polls >= f->down_from && fp->polls < f->down_to;

	fp->poll_error = down ? -EAGAIN : 0;
	fp->waiting = down ? "the sampler to start" : "";
	if (fp->polls == f->hup_at)
		f->reload = 1;
}

static struct fx *setup_fx(const char *next)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(config_parse_string(cfg_text, "l.ini", &f->cfg, err, sizeof(err)), 0);
	fake_platform_quiet(&f->fp);
	f->fp.on_poll = on_poll;
	f->fp.arg = f;
	f->next = next;
	fake_platform_bind(&f->fp, &f->pf);
	return f;
}

static struct loop_opts opts(struct fx *f, uint64_t intervals)
{
	return (struct loop_opts){.sz = sizeof(struct loop_opts),
				  .cfg = &f->cfg,
				  .mode = IOCAD_MODE_IOCA,
				  .max_intervals = intervals,
				  .reload = &f->reload,
				  .reload_fn = reload_cb,
				  .reload_arg = f,
				  .status_fn = status_cb,
				  .status_arg = f,
				  .reloaded_fn = reloaded_cb};
}

/*
 * Polls 3 .. 29 have no sample (the sampler is down); a SIGHUP at poll 5
 * is answered at the next turn, not when samples come again, and every
 * turn says what the platform waits for.
 */
static void test_loop_reload_answered_while_no_sample_comes(void **state)
{
	struct fx *f = setup_fx(cfg2_text);
	struct loop_opts o = opts(f, 6);

	(void)state;
	f->down_from = 3;
	f->down_to = 30;
	f->hup_at = 5;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), 0);
	assert_int_equal(f->nreloads, 1);
	assert_int_equal(f->reload_polls[0], 5);
	assert_int_equal(f->ntaken, 1);
	assert_true(f->taken[0]);
	/* the reload's plan reached the platform while it had no sample */
	assert_int_equal(fake_plan_socket(&f->fp.plan, 0)->ngroups, 3);
	assert_true(f->waiting_turns >= 26);
	assert_string_equal(f->waiting, "the sampler to start");
	/* a turn per poll: the watchdog is fed while waiting */
	assert_true(f->turns >= f->fp.polls - 1);
	/* and the intervals went on once samples came again */
	assert_true(f->fp.polls >= 33);
	free(f);
}

/*
 * CAT waiting (resctrl unmounted, an rdt_class not there) while samples
 * come: intervals go on, and every turn publishes what CAT waits for,
 * until it holds again.
 */
static void cat_wait_poll(struct fake_platform *fp, void *arg)
{
	(void)arg;
	fp->cat_waits = fp->polls >= 2 && fp->polls < 5 ? PLATFORM_CAT_WAIT_RESCTRL : 0;
	fp->cat_waiting = fp->cat_waits ? "resctrl is not mounted at /sys/fs/resctrl" : "";
}

static void test_loop_publishes_what_cat_waits_for(void **state)
{
	struct fx *f = setup_fx(cfg_text);
	struct loop_opts o = opts(f, 6);

	(void)state;
	f->fp.on_poll = cat_wait_poll;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), 0);
	/* the turns after polls 2, 3 and 4 said it; not a wait for samples */
	assert_int_equal(f->cat_turns, 3);
	assert_int_equal(f->waiting_turns, 0);
	/* and the last turn, CAT holding again, says nothing */
	assert_int_equal(f->cat_waits, 0);
	assert_string_equal(f->cat_waiting, "");
	f->fp.on_poll = NULL;
	f->fp.cat_waits = PLATFORM_CAT_WAIT_CLASS;
	f->fp.cat_waiting = "rdt_class gold to be made";
	o = opts(f, 2);
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), 0);
	assert_int_equal(f->cat_waits, PLATFORM_CAT_WAIT_CLASS);
	assert_string_equal(f->cat_waiting, "rdt_class gold to be made");
	free(f);
}

/* A refused reload says so to the caller (which drops what it prepared). */
static void test_loop_refused_reload_is_reported(void **state)
{
	struct fx *f = setup_fx(bad_text);
	struct loop_opts o = opts(f, 6);

	(void)state;
	f->hup_at = 3;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), 0);
	assert_int_equal(f->ntaken, 1);
	assert_false(f->taken[0]);
	assert_int_equal(fake_plan_socket(&f->fp.plan, 0)->ngroups, 2);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop_reload_answered_while_no_sample_comes),
		cmocka_unit_test(test_loop_refused_reload_is_reported),
		cmocka_unit_test(test_loop_publishes_what_cat_waits_for),
	};

	return cmocka_run_group_tests_name("loop_wait", tests, NULL, NULL);
}
