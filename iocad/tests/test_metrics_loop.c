// SPDX-License-Identifier: GPL-2.0
/*
 * loop_opts.record_fn, what the metrics are fed from: called once per
 * interval with that interval's record (the one loop_run collects), with
 * the samples lost before it, a refused plan, and the tenants' priorities.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_platform.h"
#include "loop/loop.h"
#include "metrics/metrics.h"
#include "metrics_fx.h"

struct run {
	struct fake_platform fp;
	struct platform pf;
	struct config cfg;
	struct loop_record out[8], seen[8];
	size_t nout, nseen;
	struct metrics m;
};

static void collect(void *arg, const struct loop_record *r)
{
	struct run *x = arg;

	if (x->nseen < 8)
		x->seen[x->nseen] = *r;
	x->nseen++;
	metrics_record(&x->m, 0, r);
}

/* Poll 4 (interval 2) comes after two samples that never arrived. */
static void lose_two(struct fake_platform *f, void *arg)
{
	(void)arg;
	if (f->polls == 4)
		f->s.seq += 2;
}

static struct run *run_with(const char *text, bool dry_run,
			    void (*on_poll)(struct fake_platform *, void *))
{
	struct run *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	fake_platform_setup(&x->fp, &x->pf, &x->cfg, text, "r.ini");
	x->fp.on_poll = on_poll;
	assert_int_equal(metrics_init(&x->m), 0);
	assert_int_equal(metrics_add_socket(&x->m, &x->cfg, &x->pf), 0);
	struct loop_opts o = fake_platform_loop_opts(&x->cfg, 6, NULL);

	o.dry_run = dry_run;
	o.quiet = true;
	o.record_fn = collect;
	o.record_arg = x;
	assert_int_equal(loop_run(&o, &x->pf, x->out, 8, &x->nout), 0);
	return x;
}

static struct run *run(void (*on_poll)(struct fake_platform *, void *))
{
	return run_with(fake_platform_vf_be, false, on_poll);
}

static void done(struct run *x)
{
	metrics_destroy(&x->m);
	free(x);
}

static void test_metrics_loop_record_fn_sees_every_interval_once(void **u)
{
	struct run *x = run(lose_two);
	char *t;

	(void)u;
	assert_int_equal(x->nseen, 6);
	assert_int_equal(x->nout, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(x->seen[i].index, i);
		assert_memory_equal(&x->seen[i], &x->out[i], sizeof(x->out[i]));
	}
	assert_int_equal(x->seen[2].lost_samples, 2);
	assert_int_equal(x->seen[1].lost_samples, 0);
	assert_int_equal(x->seen[0].tenant[0].prio, CONFIG_PRIO_PS);
	assert_int_equal(x->seen[0].tenant[1].prio, CONFIG_PRIO_BE);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_lost_samples_total{socket=\"0\"}"), 2);
	assert_int_equal(metrics_fx_value(t, "ioca_intervals_total{socket=\"0\"}"), 6);
	assert_int_equal(metrics_fx_value(t, "ioca_apply_errors_total{socket=\"0\"}"), 0);
	free(t);
	done(x);
}

/* The DDIO mask changed under iocad, and the platform refuses from then on. */
static void outside(struct fake_platform *f, void *arg)
{
	(void)arg;
	if (f->polls == 3) {
		f->sock[0].mask_now = 0x700;
		f->apply_error = -EIO;
	}
}

static void test_metrics_loop_counts_refused_plans(void **u)
{
	struct run *x = run(outside);
	unsigned int failed = 0;
	char *t;

	(void)u;
	for (size_t i = 0; i < x->nout; i++)
		failed += x->out[i].apply_failed;
	assert_true(failed > 0);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_apply_errors_total{socket=\"0\"}"), failed);
	assert_int_equal(metrics_fx_value(t, "ioca_ddio_outside_changes_total{socket=\"0\"}"), 1);
	free(t);
	done(x);
}

/*
 * [device ADDR] in the records and metrics: on a platform without
 * per-device DDIO (the fake) the device is refused and untouched; in
 * dry-run iocad holds the mode it would set.
 */
#define MODE "ioca_device_ddio_mode"
#define REFUSED "ioca_device_ddio_refused"

static void test_metrics_loop_devices_refused_and_dry_run(void **u)
{
	char text[4096];
	const char *dev = "{socket=\"0\",device=\"0000:3b:00.0\",setting=\"off\"";
	struct run *x;
	char *t;

	(void)u;
	snprintf(text, sizeof(text), "%s[device 0000:3b:00.0]\nddio = off\n", fake_platform_vf_be);
	x = run_with(text, false, NULL);
	assert_int_equal(x->out[5].ndev, 1);
	assert_string_equal(x->out[5].dev[0].addr, "0000:3b:00.0");
	assert_int_equal(x->out[5].dev[0].setting, CONFIG_DEV_DDIO_OFF);
	assert_int_equal(x->out[5].dev[0].mode, 0);
	assert_true(x->out[5].dev[0].refused);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_device(t, REFUSED, dev, NULL), 1);
	assert_int_equal(metrics_fx_device(t, MODE, dev, "untouched"), 1);
	free(t);
	done(x);

	x = run_with(text, true, NULL);
	assert_int_equal(x->out[0].dev[0].mode, PLATFORM_DEV_DDIO_OFF);
	assert_false(x->out[0].dev[0].refused);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_device(t, MODE, dev, "off"), 1);
	free(t);
	done(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metrics_loop_record_fn_sees_every_interval_once),
		cmocka_unit_test(test_metrics_loop_counts_refused_plans),
		cmocka_unit_test(test_metrics_loop_devices_refused_and_dry_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
