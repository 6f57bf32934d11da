// SPDX-License-Identifier: GPL-2.0
/*
 * A reload's fresh layout (LLC Alloc for the new tenant table) puts the
 * idlest BE tenant on DDIO's ways, from the latest counters, in the very
 * plan the reload applies; and the interval after it still compares.
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

/* be1 (cpu 1) busy, be2 (cpu 2) idle; 3 + 3 + 4 ways + DDIO 2 = 12 of 11: one shares */
static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
			       "threshold_miss_low = 1e9\n"
			       "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			       "[tenant be1]\ncpus = 1\nways = 3\n";
static const char cfg2_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
				"threshold_miss_low = 1e9\n"
				"[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
				"[tenant be1]\ncpus = 1\nways = 3\n"
				"[tenant be2]\ncpus = 2\nways = 4\n";

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[16];
	size_t n;
	volatile sig_atomic_t reload;
	struct platform_plan at_poll[16]; /* the plan in force at each poll */
};

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	(void)arg;
	return config_parse_string(cfg2_text, "r.ini", out, err, len);
}

static void on_poll(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;

	if (fp->polls < 16)
		f->at_poll[fp->polls] = fp->plan;
	if (fp->polls == 4)
		f->reload = 1; /* the operator's SIGHUP, seen before the next interval */
}

/* The tenant sharing DDIO's ways (0x600), or -1. */
static int owner_of_top(const struct platform_plan *p)
{
	for (unsigned int i = 0; i < p->socket[0].ngroups; i++)
		if (p->socket[0].group[i].mask & 0x600)
			return (int)i;
	return -1;
}

static void test_reload_fresh_layout_puts_the_idle_be_on_ddio(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	(void)state;
	assert_non_null(f);
	assert_int_equal(config_parse_string(cfg_text, "l.ini", &f->cfg, err, sizeof(err)), 0);
	fake_platform_init(&f->fp, 11, 4, 0x600);
	fake_platform_cpu(&f->fp, 0, 1.0, 1000000, 100000);
	fake_platform_cpu(&f->fp, 1, 1.0, 8000000, 800000); /* be1: busy */
	fake_platform_cpu(&f->fp, 2, 1.0, 10000, 1000);	    /* be2: idle */
	fake_platform_cpu(&f->fp, 3, 1.0, 0, 0);
	f->fp.sock[0].hits_inc = 1000000;
	f->fp.on_poll = on_poll;
	f->fp.arg = f;
	fake_platform_bind(&f->fp, &f->pf);
	struct loop_opts o = {.sz = sizeof(o),
			      .cfg = &f->cfg,
			      .mode = IOCAD_MODE_IOCA,
			      .max_intervals = 8,
			      .reload = &f->reload,
			      .reload_fn = reload_cb};

	assert_int_equal(loop_run(&o, &f->pf, f->rec, 16, &f->n), 0);
	/* poll 5 is the first under the reload's plan: be2 (index 2) shares DDIO */
	assert_int_equal(f->at_poll[5].socket[0].ngroups, 3);
	assert_int_equal(owner_of_top(&f->at_poll[5]), 2);
	assert_int_equal(f->at_poll[5].socket[0].group[1].mask & 0x600, 0);
	assert_int_equal(f->at_poll[5].socket[0].group[0].mask & 0x600, 0);
	/* and the first interval after the reload is no "first" */
	assert_int_equal(f->rec[3].ntenants, 3);
	assert_int_not_equal(f->rec[3].decision.reason, DECIDE_R_FIRST);
	free(f);
}

/* A CPU goes offline after start (poll 3); SIGHUPs at polls 4 and, if set, @second. */
struct offline_run {
	struct fx f;
	unsigned int cpu, second;
	char said[1024]; /* every reload line, in order */
};

static void cpu_offline(struct fake_platform *fp, void *arg)
{
	struct offline_run *o = arg;

	if (fp->polls == 3)
		fp->info.cpu_socket[o->cpu] = PLATFORM_CPU_OFFLINE;
	if (fp->polls == 4 || (o->second && fp->polls == o->second))
		o->f.reload = 1;
}

static void reload_lines(void *arg, enum loop_log_level lvl, const char *msg)
{
	char *said = arg;

	(void)lvl;
	if (strstr(msg, "reload"))
		snprintf(said + strlen(said), 1024 - strlen(said), "%s\n", msg);
}

static int same_cb(void *arg, struct config *out, char *err, size_t len)
{
	(void)arg;
	return config_parse_string(cfg_text, "l.ini", out, err, len);
}

/* cfg_text's two tenants run; CPU @cpu goes offline; @reload_fn's config is reloaded. */
static struct offline_run *run_offline(unsigned int cpu, unsigned int second,
				       loop_reload_fn reload_fn)
{
	struct offline_run *o = calloc(1, sizeof(*o));
	char err[256];

	assert_non_null(o);
	o->cpu = cpu;
	o->second = second;
	assert_int_equal(config_parse_string(cfg_text, "l.ini", &o->f.cfg, err, sizeof(err)), 0);
	fake_platform_init(&o->f.fp, 11, 4, 0x600);
	o->f.fp.on_poll = cpu_offline;
	o->f.fp.arg = o;
	fake_platform_bind(&o->f.fp, &o->f.pf);
	struct loop_opts lo = {.sz = sizeof(lo),
			       .cfg = &o->f.cfg,
			       .mode = IOCAD_MODE_IOCA,
			       .max_intervals = 10,
			       .reload = &o->f.reload,
			       .reload_fn = reload_fn,
			       .log = reload_lines,
			       .log_arg = o->said};

	assert_int_equal(loop_run(&lo, &o->f.pf, o->f.rec, 16, &o->f.n), 0);
	return o;
}

/* The reload names be2's CPU 2, online at start, offline now: refused, naming it. */
static void test_reload_places_by_the_cpus_online_now(void **state)
{
	struct offline_run *o = run_offline(2, 0, reload_cb);

	(void)state;
	assert_non_null(strstr(o->said, "CPU 2 is offline"));
	/* the running two tenants stay */
	assert_int_equal(o->f.fp.plan.socket[0].ngroups, 2);
	free(o);
}

/* The running config again while one of its CPUs (be1's) is offline: unchanged, not refused. */
static void test_reload_unchanged_with_a_cpu_offline(void **state)
{
	struct offline_run *o = run_offline(1, 0, same_cb);

	(void)state;
	assert_non_null(strstr(o->said, "unchanged"));
	free(o);
}

/*
 * Two SIGHUPs of the unchanged config while be1's CPU is offline: both
 * unchanged. The second once fell back to the map the first reload saw
 * (CPU 1 offline already), not the one the running config was placed with.
 */
static void test_two_reloads_unchanged_with_a_cpu_offline(void **state)
{
	struct offline_run *o = run_offline(1, 6, same_cb);

	(void)state;
	assert_null(strstr(o->said, "rejected"));
	assert_non_null(strstr(strstr(o->said, "unchanged") + 1, "unchanged"));
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reload_fresh_layout_puts_the_idle_be_on_ddio),
		cmocka_unit_test(test_reload_places_by_the_cpus_online_now),
		cmocka_unit_test(test_reload_unchanged_with_a_cpu_offline),
		cmocka_unit_test(test_two_reloads_unchanged_with_a_cpu_offline),
	};

	return cmocka_run_group_tests_name("loop_reload", tests, NULL, NULL);
}
