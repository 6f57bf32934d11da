// SPDX-License-Identifier: GPL-2.0
/* The loop on a scripted platform: apply, dry-run, stop, reload, trace. */
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

static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\nddio_ways_max = 5\n"
			       "ddio_growth = paper\n"
			       "threshold_miss_low = 1000\n"
			       "[tenant vf]\ncpus = 0\nways = 2\npriority = PS\nnetworking = yes\n"
			       "[tenant be]\ncpus = 1-2\nways = 3\n";
static const char cfg2_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\nddio_ways_max = 5\n"
				"[tenant vf]\ncpus = 0\nways = 2\npriority = PS\nnetworking = yes\n"
				"[tenant be]\ncpus = 1-2\nways = 3\n"
				"[tenant new]\ncpus = 3\nways = 1\n";

struct fx {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record rec[64];
	size_t n;
	volatile sig_atomic_t stop, reload;
	int reloads;
	bool reload_bad;
	char log[LOG_BUF_SIZE];
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fake_platform_setup(&f->fp, &f->pf, &f->cfg, cfg_text, "l.ini");
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
	struct loop_opts o = fake_platform_loop_opts(&f->cfg, 10, f->log);

	o.stop = &f->stop;
	o.reload = &f->reload;
	return o;
}

static void test_loop_allocates_runs_and_restores(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->n, 10);
	assert_int_equal(f->fp.polls, 11);  /* one baseline poll */
	assert_int_equal(f->fp.applies, 1); /* LLC Alloc; nothing moved after */
	/* the plan says everything: each group's name, mask and CPUs, DDIO, what to sample */
	assert_int_equal(f->fp.plan.nsockets, 1);
	assert_int_equal(f->fp.plan.socket[0].ngroups, 2);
	assert_string_equal(f->fp.plan.socket[0].group[0].name, "vf");
	assert_int_equal(f->fp.plan.socket[0].group[0].mask, 0x3);
	assert_int_equal(f->fp.plan.socket[0].group[1].mask, 0x1c);
	assert_int_equal(f->fp.plan.socket[0].ddio_mask, 0x600);
	assert_int_equal(platform_cpuset_count(&f->fp.plan.socket[0].group[0].cpus),
			 f->cfg.tenant[0].ncpus);
	assert_true(
		platform_cpuset_has(&f->fp.plan.socket[0].sample_cpus, f->cfg.tenant[1].cpus[0]));
	assert_int_equal(f->fp.plan.events, PLATFORM_EV_ALL);
	assert_int_equal(f->fp.plan.interval_ns, f->cfg.interval_ns);
	assert_int_equal(f->fp.restores, 1);
	assert_string_equal(fsm_state_name(f->rec[9].state), "low_keep");
	assert_string_equal(decide_reason_name(&f->rec[0].decision), "first");
	assert_string_equal(decide_reason_name(&f->rec[5].decision), "stable");
	assert_int_equal(f->rec[3].tenant[1].llc_refs, 2000000); /* two cpus */
	assert_true(f->rec[3].tenant[1].ipc > 0.99 && f->rec[3].tenant[1].ipc < 1.01);
	assert_non_null(
		strstr(f->log, "#4 s0 t=6.000s low_keep (stable) ddio=0x600 vf=0x3 be=0x1c"));
	assert_non_null(strstr(f->log, "restored"));
	/* the one line per interval also says what changed */
	assert_null(strstr(f->log, "[+"));
}

/* From the 3rd poll on, DDIO misses climb: I/O Demand to the max. */
static void io_pressure(struct fake_platform *fp, void *arg)
{
	(void)arg;
	if (fp->polls >= 3)
		fp->sock[0].misses_inc = 50000 + 20000ull * fp->polls;
}

static void test_loop_io_demand_grows_ddio_one_way_per_interval(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.on_poll = io_pressure;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_string_equal(fsm_state_name(f->rec[1].state), "io_demand");
	assert_int_equal(f->rec[1].ddio_ways, 3);
	assert_int_equal(f->rec[2].ddio_ways, 4);
	assert_int_equal(f->rec[3].ddio_ways, 5);
	assert_int_equal(f->rec[3].ddio_mask, 0x7c0);
	assert_string_equal(fsm_state_name(f->rec[4].state), "high_keep");
	assert_string_equal(decide_reason_name(&f->rec[4].decision), "ddio_max");
	assert_non_null(strstr(f->log, "#1 s0 t=3.000s low_keep -> io_demand (io_pressure) "
				       "ddio=0x700 vf=0x3 be=0x1c [+ddio]"));
	assert_true(f->rec[3].applied);
	/* PS tenant never on DDIO's ways; 11 - 5 = 6 ways hold both tenants */
	for (size_t i = 0; i < f->n; i++)
		assert_int_equal(f->rec[i].tenant[0].mask & f->rec[i].ddio_mask, 0);
	assert_int_equal(f->fp.restores, 1);
	assert_int_equal(f->fp.sock[0].mask_now, 0x600);
}

static void test_loop_dry_run_never_applies(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	o.dry_run = true;
	f->fp.on_poll = io_pressure;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->n, 10);
	assert_int_equal(f->rec[3].ddio_ways, 5); /* decided ... */
	assert_false(f->rec[3].applied);
	assert_int_equal(f->fp.applies, 0); /* ... never applied */
	assert_int_equal(f->fp.restores, 0);
	assert_non_null(strstr(f->log, "(dry-run)"));
}

static void stop_at_4(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;

	if (fp->polls == 4)
		f->stop = 1;
}

static void test_loop_stop_restores_and_returns(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	o.max_intervals = 0;
	f->fp.on_poll = stop_at_4;
	f->fp.arg = f;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->n, 3);
	assert_int_equal(f->fp.restores, 1);
	assert_non_null(strstr(f->log, "stop requested"));
}

static void test_loop_ends_with_platform(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	o.max_intervals = 0;
	f->fp.end_after = 6;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 3, &f->n), 0);
	assert_int_equal(f->n, 3); /* only @max recorded */
	assert_int_equal(f->fp.restores, 1);
}

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct fx *f = arg;

	f->reloads++;
	if (f->reload_bad)
		return config_parse_string("[tenant x]\ncpus = 0\nways = 2\nbogus = 1\n", "l.ini",
					   out, err, len);
	return config_parse_string(cfg2_text, "l.ini", out, err, len);
}

static void hup_at_3_and_6(struct fake_platform *fp, void *arg)
{
	struct fx *f = arg;

	if (fp->polls == 3 || fp->polls == 6)
		f->reload = 1;
	f->reload_bad = fp->polls < 6;
}

static void test_loop_reload_keeps_old_config_on_error(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	o.reload_fn = reload_cb;
	o.reload_arg = f;
	f->fp.on_poll = hup_at_3_and_6;
	f->fp.arg = f;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->reloads, 2);
	assert_non_null(strstr(f->log, "reload rejected, keeping the running config: "
				       "l.ini:4: [tenant x] bogus: unknown key"));
	/* after the bad reload: same two tenants */
	assert_int_equal(f->rec[3].ntenants, 2);
	/* after the good one: LLC Alloc for three */
	assert_int_equal(f->rec[9].ntenants, 3);
	assert_string_equal(f->rec[9].tenant[2].name, "new");
	assert_int_equal(f->rec[9].tenant[2].mask, 0x20);
	assert_int_equal(f->fp.applies, 2);
	assert_int_equal(f->fp.plan.socket[0].ngroups, 3);
	assert_non_null(strstr(f->log, "reload: socket 0: 3 tenants"));
}

static void test_loop_apply_failure_changes_nothing(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.on_poll = io_pressure;
	f->fp.apply_error = -EIO;
	/* the very first apply (LLC Alloc) fails: the run fails, nothing to restore */
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), -EIO);
	assert_int_equal(f->fp.restores, 0);
	assert_non_null(strstr(f->log, "apply failed"));
}

static void fail_applies_from_3(struct fake_platform *fp, void *arg)
{
	(void)arg;
	io_pressure(fp, NULL);
	if (fp->polls >= 3)
		fp->apply_error = -EBUSY;
}

static void test_loop_failed_apply_is_not_recorded_as_decided(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.on_poll = fail_applies_from_3;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	for (size_t i = 0; i < f->n; i++) {
		assert_int_equal(f->rec[i].ddio_ways, 2);
		assert_false(f->rec[i].applied);
	}
	assert_int_equal(f->fp.sock[0].mask_now, 0x600);
}

static void test_loop_writes_trace(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	char *buf = NULL, *line;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rows = 0;

	assert_non_null(m);
	o.trace = m;
	o.max_intervals = 5;
	f->fp.on_poll = io_pressure;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), 0);
	fclose(m);
	line = strtok(buf, "\n");
	assert_string_equal(
		line, "interval,socket,t_s,state,reason,ddio_ways,ddio_mask,ddio_hits,"
		      "ddio_misses,ddio_outside,vf_ways,vf_mask,vf_ipc,vf_llc_refs,vf_llc_misses,"
		      "be_ways,be_mask,be_ipc,be_llc_refs,be_llc_misses");
	while ((line = strtok(NULL, "\n")))
		if (++rows == 2)
			assert_string_equal(line,
					    "1,0,3.000000,io_demand,io_pressure,3,0x700,1000000,"
					    "110000,,2,0x3,1.0000,1000000,100000,3,0x1c,"
					    "1.0000,2000000,200000");
	assert_int_equal(rows, 5);
	free(buf);
}

/* Real signals, through handlers like main()'s, reach the loop. */
static volatile sig_atomic_t sig_stop, sig_reload;

static void on_sig(int sig)
{
	if (sig == SIGHUP)
		sig_reload = 1;
	else
		sig_stop = 1;
}

static void raise_signals(struct fake_platform *fp, void *arg)
{
	(void)arg;
	if (fp->polls == 3)
		raise(SIGHUP);
	if (fp->polls == 6)
		raise(SIGTERM);
}

static void test_loop_real_signals_reload_and_stop(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	struct sigaction sa = {.sa_handler = on_sig}, old_hup, old_term;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGHUP, &sa, &old_hup);
	sigaction(SIGTERM, &sa, &old_term);
	sig_stop = sig_reload = 0;
	o.max_intervals = 0;
	o.stop = &sig_stop;
	o.reload = &sig_reload;
	o.reload_fn = reload_cb;
	o.reload_arg = f;
	f->fp.on_poll = raise_signals;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	sigaction(SIGHUP, &old_hup, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	assert_int_equal(f->reloads, 1);
	assert_int_equal(f->rec[f->n - 1].ntenants, 3); /* the good config took */
	assert_int_equal(f->fp.polls, 6);
	assert_int_equal(f->fp.restores, 1);
	assert_int_equal(f->fp.sock[0].mask_now, 0x600);
}

static void test_loop_trace_failure_stops_tracing_only(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	FILE *full = fopen("/dev/full", "w");

	if (!full)
		skip();
	setvbuf(full, NULL, _IONBF, 0);
	o.trace = full;
	/* the header cannot be written: the run does not start */
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), -EIO);
	assert_int_equal(f->fp.applies, 0);
	fclose(full);
}

static void test_loop_trace_row_failure_keeps_deciding(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	char buf[300];
	FILE *small = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(small);
	setvbuf(small, NULL, _IONBF, 0);
	o.trace = small; /* room for the header and about one row */
	f->fp.on_poll = io_pressure;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_int_equal(f->n, 10);
	assert_int_equal(f->rec[3].ddio_ways, 5);
	assert_non_null(strstr(f->log, "tracing stopped, decisions go on"));
	/* said once, not once per interval */
	assert_null(strstr(strstr(f->log, "tracing stopped") + 1, "tracing stopped"));
	fclose(small);
}

/* Poll 4 comes after two lost samples: counters and time kept counting. */
static void lose_two(struct fake_platform *fp, void *arg)
{
	(void)arg;
	if (fp->polls != 4)
		return;
	fp->s.seq += 2;
	fp->s.t_ns += 2 * fp->interval_ns;
	fp->s.socket[0].ddio_hits += 2 * fp->sock[0].hits_inc;
	fp->s.socket[0].ddio_misses += 2 * fp->sock[0].misses_inc;
	for (unsigned int c = 0; c < fp->info.ncpus; c++) {
		fp->s.cpu[c].instructions += 2 * fp->inc[c].instructions;
		fp->s.cpu[c].cycles += 2 * fp->inc[c].cycles;
		fp->s.cpu[c].llc_refs += 2 * fp->inc[c].llc_refs;
		fp->s.cpu[c].llc_misses += 2 * fp->inc[c].llc_misses;
	}
}

static void test_loop_lost_samples_lengthen_the_interval(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);

	f->fp.on_poll = lose_two;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 64, &f->n), 0);
	assert_non_null(strstr(f->log, "lost 2 sample(s) before seq 6"));
	/* three intervals' counts over three intervals' time: the same rates */
	assert_int_equal(f->rec[2].tenant[0].llc_refs, 3000000);
	assert_string_equal(decide_reason_name(&f->rec[2].decision), "stable");
	assert_string_equal(decide_reason_name(&f->rec[3].decision), "stable");
}

static void test_loop_rejects_bad_opts(void **state)
{
	struct fx *f = *state;
	struct loop_opts o = opts(f);
	size_t n;

	o.sz = 8;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), -22);
	o = opts(f);
	o.cfg = NULL;
	assert_int_equal(loop_run(&o, &f->pf, NULL, 0, NULL), -22);
	o = opts(f);
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 4, NULL), -22);
	/* a config that does not fit the platform */
	f->fp.info.ncpus = 2;
	assert_int_equal(loop_run(&o, &f->pf, f->rec, 4, &n), -22);
	assert_non_null(strstr(f->log, "l.ini:13: [tenant be] cpus: CPU 2 does not exist"));
	assert_int_equal(f->fp.applies, 0);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_loop_allocates_runs_and_restores),
		T(test_loop_io_demand_grows_ddio_one_way_per_interval),
		T(test_loop_dry_run_never_applies),
		T(test_loop_stop_restores_and_returns),
		T(test_loop_ends_with_platform),
		T(test_loop_reload_keeps_old_config_on_error),
		T(test_loop_apply_failure_changes_nothing),
		T(test_loop_failed_apply_is_not_recorded_as_decided),
		T(test_loop_writes_trace),
		T(test_loop_real_signals_reload_and_stop),
		T(test_loop_trace_failure_stops_tracing_only),
		T(test_loop_trace_row_failure_keeps_deciding),
		T(test_loop_lost_samples_lengthen_the_interval),
		T(test_loop_rejects_bad_opts),
	};

	return cmocka_run_group_tests_name("loop", tests, NULL, NULL);
}
