// SPDX-License-Identifier: GPL-2.0
/*
 * The counter metric: its window arithmetic on synthetic readings (IPC,
 * misses per instruction and per operation, a CPU whose counters were
 * re-created), and what opening it says on a machine without ioca.ko (or
 * a libspec built without libioca).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "libspec/metric.h"
#include "metric/metric_counters.h"
#include "testutil.h"

static struct counters_window win;

static double close_at(enum spec_counter_metric what, const struct counters_reading *r, size_t n,
		       uint64_t ops)
{
	return counters_window_close(&win, what, r, n, ops, false);
}

static void test_counters_ipc_sums_the_service_cpus(void **state)
{
	struct counters_reading r[2] = {{0, 1, {1000, 2000, 10}}, {1, 1, {500, 1000, 5}}};

	(void)state;
	memset(&win, 0, sizeof(win));
	assert_true(isnan(close_at(SPEC_COUNTERS_IPC, r, 2, 0))); /* the window opens */
	r[0].v[0] += 3000; /* cpu0: 3000 insn in 2000 cycles */
	r[0].v[1] += 2000;
	r[1].v[0] += 1000; /* cpu1: 1000 insn in 2000 cycles */
	r[1].v[1] += 2000;
	assert_float_equal(close_at(SPEC_COUNTERS_IPC, r, 2, 0), 1.0, 1e-9);
	/* No cycles: no activity, no number. */
	assert_true(isnan(close_at(SPEC_COUNTERS_IPC, r, 2, 0)));
}

static void test_counters_misses_per_insn_and_per_op(void **state)
{
	struct counters_reading r = {3, 7, {100, 100, 100}};

	(void)state;
	memset(&win, 0, sizeof(win));
	close_at(SPEC_COUNTERS_LLC_MISSES_PER_INSN, &r, 1, 10);
	r.v[0] += 1000;
	r.v[2] += 50;
	assert_float_equal(close_at(SPEC_COUNTERS_LLC_MISSES_PER_INSN, &r, 1, 10), 0.05, 1e-12);
	r.v[2] += 40;
	assert_float_equal(close_at(SPEC_COUNTERS_LLC_MISSES_PER_OP, &r, 1, 30), 2.0, 1e-12);
	r.v[2] += 40;
	assert_float_equal(
		counters_window_close(&win, SPEC_COUNTERS_LLC_MISSES_PER_OP, &r, 1, 50, true), -2.0,
		1e-12);
}

static void test_counters_recreated_cpu_starts_over(void **state)
{
	struct counters_reading r[2] = {{0, 1, {1000, 1000, 0}}, {1, 1, {1000, 1000, 0}}};

	(void)state;
	memset(&win, 0, sizeof(win));
	close_at(SPEC_COUNTERS_IPC, r, 2, 0);
	/* cpu1 went offline and back: counters restart small, new generation. */
	r[0].v[0] += 2000;
	r[0].v[1] += 1000;
	r[1] = (struct counters_reading){1, 2, {10, 1000000, 0}};
	assert_float_equal(close_at(SPEC_COUNTERS_IPC, r, 2, 0), 2.0, 1e-9);
	r[1].v[0] += 500;
	r[1].v[1] += 1000;
	r[0].v[1] += 1000;
	assert_float_equal(close_at(SPEC_COUNTERS_IPC, r, 2, 0), 0.25, 1e-9);
}

static void test_counters_open_says_why_it_cannot(void **state)
{
	LIBSPEC_OPTS(spec_counters_opts, o, .configure = true, .print = tu_print);
	struct spec_counters *c;

	(void)state;
	tu_capture();
	/* No ioca.ko on the build host (the VM test covers the module). */
	c = spec_counters__open(SPEC_COUNTERS_IPC, &o);
	if (c) {
		spec_counters__close(c);
		skip();
	}
#ifdef LIBSPEC_HAVE_IOCA
	assert_true(errno == ENOENT || errno == EPERM || errno == EACCES);
	assert_non_null(strstr(tu_last_msg(), "counters:"));
#else
	assert_int_equal(errno, EOPNOTSUPP);
	assert_non_null(strstr(tu_last_msg(), "built without libioca"));
#endif
	tu_capture();
	assert_null(spec_counters__open(SPEC_COUNTERS_LLC_MISSES_PER_OP, &o));
	assert_non_null(strstr(tu_last_msg(), "counter"));
	assert_true(errno == EINVAL || errno == EOPNOTSUPP);
	assert_true(isnan(spec_counters__read(NULL)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_ipc_sums_the_service_cpus),
		cmocka_unit_test(test_counters_misses_per_insn_and_per_op),
		cmocka_unit_test(test_counters_recreated_cpu_starts_over),
		cmocka_unit_test(test_counters_open_says_why_it_cannot),
	};

	return cmocka_run_group_tests_name("counters", tests, NULL, NULL);
}
