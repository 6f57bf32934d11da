// SPDX-License-Identifier: GPL-2.0
/*
 * Measured tiers: while a thread keeps calling, the runtime times the code
 * a job replaces and both of its tiers, keeps the faster tier, and stops
 * compiling a tier that did not pay for a handler. The tiers differ by
 * design (-O0 against -O3 on a loop), so the verdicts do not hinge on a
 * few percent; every call is checked against the native build.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "handlers/measured.h"
#include "testutil.h"

#define WORK_N 4096
/*
 * A decision needs its windows filled; on a loaded machine one may not fill
 * in time and that job decides nothing, so a verdict gets a few jobs (fewer
 * than the 8 after which a handler is rechecked).
 */
#define RETRIES 5
/* Jobs the tie verdict may take: the 8th job of a handler is a recheck. */
#define TIE_JOBS 6

/* Fixed code for ms_tie: a dependency chain of a few thousand cycles. */
long ms_heavy(long n)
{
	unsigned long x = (unsigned long)n;

	for (int i = 0; i < 5000; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	return (long)x;
}

static long work_data[WORK_N];

struct caller {
	struct spec_runtime *rt;
	bool tie; /* ms_tie, else ms_work */
	atomic_long n;
	atomic_bool stop;
	atomic_long calls, wrong;
	pthread_t thread;
};

static void *call_loop(void *arg)
{
	struct caller *c = arg;
	long (*work)(const long *, long) =
		(long (*)(const long *, long))spec_runtime__handler(c->rt, "ms_work");
	long (*tie)(long) = (long (*)(long))spec_runtime__handler(c->rt, "ms_tie");

	while (!atomic_load(&c->stop)) {
		long n = atomic_load(&c->n);
		/* ms_work and ms_tie of the test binary are the native build. */
		bool ok = c->tie ? tie(n) == ms_heavy(n)
				 : work(work_data, n) == ms_work(work_data, n);

		atomic_fetch_add(&c->wrong, !ok);
		atomic_fetch_add(&c->calls, 1);
	}
	return NULL;
}

static struct spec_runtime *open_measured(const char *final, const char *first, bool fast)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .pipeline = final, .first_pipeline = first,
		     .first_fast_codegen = fast, .measure_tiers = true);

	for (long i = 0; i < WORK_N; i++)
		work_data[i] = i * 7 - 1000;
	return tu_open_loaded("measured", &opts);
}

/* The caller running, if any: a failed check leaves it to the teardown. */
static struct caller *live;

static int stop_live(void **state)
{
	(void)state;
	if (live) {
		atomic_store(&live->stop, true);
		pthread_join(live->thread, NULL);
		live = NULL;
	}
	return 0;
}

static void start(struct caller *c, struct spec_runtime *rt, bool tie, long n)
{
	memset(c, 0, sizeof(*c));
	c->rt = rt;
	c->tie = tie;
	atomic_store(&c->n, n);
	assert_non_null(spec_runtime__handler(rt, tie ? "ms_tie" : "ms_work"));
	assert_int_equal(pthread_create(&c->thread, NULL, call_loop, c), 0);
	live = c;
	/* Calls are running before the first job starts timing them. */
	while (atomic_load(&c->calls) < 100)
		;
}

static void stop(struct caller *c)
{
	atomic_store(&c->stop, true);
	pthread_join(c->thread, NULL);
	live = NULL;
	assert_true(atomic_load(&c->calls) > 0);
	assert_int_equal(atomic_load(&c->wrong), 0);
}

/* Switch the callers' input and the configuration (guarded), then wait
 * for the job and its measurement.
 */
static void job(struct spec_runtime *rt, struct caller *c, const char *label, long n)
{
	char text[64];

	snprintf(text, sizeof(text), "%s=%ld", label, n);
	atomic_store(&c->n, n);
	assert_int_equal(tu_specialize(rt, text), 0);
	assert_int_equal(spec_runtime__wait(rt), 0);
}

static void stats(struct spec_runtime *rt, struct spec_runtime_stats *st)
{
	assert_int_equal(spec_runtime__stats(rt, st, sizeof(*st)), 0);
}

/* The tiers installed and left out so far. */
static void expect_tiers(struct spec_runtime *rt, uint64_t first, uint64_t final,
			 uint64_t first_skipped, uint64_t final_skipped)
{
	struct spec_runtime_stats st;

	stats(rt, &st);
	assert_int_equal(st.tier_first, first);
	assert_int_equal(st.tier_final, final);
	assert_int_equal(st.tier_first_skipped, first_skipped);
	assert_int_equal(st.tier_final_skipped, final_skipped);
}

static void tiers(struct spec_runtime *rt, const char *name, struct spec_tiers *ti)
{
	assert_int_equal(spec_runtime__tiers(rt, name, ti, sizeof(*ti)), 0);
}

/* -O3 beats -O0 on the loop; -O0 is also slower than the generic -O3
 * code it replaced, so the next job of ms_work compiles no first tier.
 */
static void test_measured_final_pays_first_skipped(void **state)
{
	struct spec_runtime *rt = open_measured(NULL, "default<O0>", true);
	struct spec_runtime_stats st = {0};
	struct spec_tiers ti = {0};
	static struct caller c; /* outlives a failed check; stop_live() ends it */
	long n = WORK_N;

	(void)state;
	start(&c, rt, false, WORK_N);
	while (!ti.skip_first && n > WORK_N - RETRIES) {
		job(rt, &c, "m", n--);
		stats(rt, &st);
		if (st.tier_measured)
			assert_true(st.last_final_cycles * 2 < st.last_first_cycles);
		tiers(rt, "ms_work", &ti);
	}
	assert_true(ti.skip_first);
	assert_false(ti.skip_final);
	assert_int_equal(ti.first_losses, 1);
	assert_true(st.last_old_cycles < st.last_first_cycles);
	assert_int_equal(st.tier_first_kept, 0);
	assert_int_equal(ti.last_cycles, st.last_final_cycles);
	expect_tiers(rt, ti.jobs, ti.jobs, 0, 0);

	job(rt, &c, "m", n);
	expect_tiers(rt, ti.jobs, ti.jobs + 1, 1, 0);
	stop(&c);
	spec_runtime__close(rt);
}

/* Equal code at both tiers: after two jobs in a row where the final tier
 * won nothing, ms_tie is compiled at the first tier only.
 */
static void test_measured_tie_skips_final(void **state)
{
	struct spec_runtime *rt = open_measured(NULL, "default<O1>", false);
	struct spec_tiers ti = {0};
	static struct caller c; /* outlives a failed check; stop_live() ends it */
	long t = 1;

	(void)state;
	start(&c, rt, true, 1);
	/* Two ties in a row among noisy windows: up to TIE_JOBS jobs, so that
	 * the one after them is still not a recheck.
	 */
	while (!ti.skip_final && t <= TIE_JOBS) {
		job(rt, &c, "t", t++);
		tiers(rt, "ms_tie", &ti);
	}
	assert_true(ti.skip_final);
	assert_int_equal(ti.final_ties, 2);
	expect_tiers(rt, ti.jobs, ti.jobs, 0, 0);
	tiers(rt, "ms_work", &ti);
	assert_int_equal(ti.jobs, 0);

	tiers(rt, "ms_tie", &ti);
	job(rt, &c, "t", t);
	expect_tiers(rt, ti.jobs + 1, ti.jobs, 0, 1);
	stop(&c);
	spec_runtime__close(rt);
}

/* A final pipeline worse than the first: the first tier is reinstalled
 * and becomes the configuration's code, served from the cache later.
 */
static void test_measured_keeps_faster_first(void **state)
{
	struct spec_runtime *rt = open_measured("default<O0>", "default<O3>", false);
	struct spec_runtime_stats st = {0}, st2;
	static struct caller c; /* outlives a failed check; stop_live() ends it */
	long m = WORK_N;

	(void)state;
	start(&c, rt, false, WORK_N);
	while (!st.tier_first_kept && m > WORK_N - RETRIES) {
		job(rt, &c, "m", m--);
		stats(rt, &st);
	}
	assert_int_equal(st.tier_first_kept, 1);
	assert_true(st.last_first_cycles * 2 < st.last_final_cycles);

	/* Away and back: the kept first tier comes from the cache. */
	job(rt, &c, "m", 100);
	stats(rt, &st);
	job(rt, &c, "m", m + 1);
	stats(rt, &st2);
	assert_int_equal(st2.compiles, st.compiles);
	assert_true(st2.cache_hits > st.cache_hits);
	stop(&c);
	spec_runtime__close(rt);
}

/* Nobody calls: no window fills, nothing is decided, the final tier stays. */
static void test_measured_no_calls_no_decision(void **state)
{
	struct spec_runtime *rt = open_measured(NULL, "default<O1>", false);
	long (*work)(const long *, long) =
		(long (*)(const long *, long))spec_runtime__handler(rt, "ms_work");
	struct spec_runtime_stats st;

	(void)state;
	assert_non_null(work);
	assert_int_equal(tu_specialize(rt, "m=4096"), 0);
	assert_int_equal(spec_runtime__wait(rt), 0);
	stats(rt, &st);
	assert_int_equal(st.tier_measured, 0);
	assert_int_equal(st.tier_final, 1);
	assert_int_equal(work(work_data, WORK_N), ms_work(work_data, WORK_N));
	spec_runtime__close(rt);
}

/* A level the caller names is forced: no tiers, nothing measured. */
static void test_measured_forced_level(void **state)
{
	struct spec_runtime *rt = open_measured(NULL, "default<O1>", false);
	LIBSPEC_OPTS(spec_specialize_opts, o, .pipeline = "default<O2>");
	struct spec_config *cfg = spec_config__parse("m=4096");
	struct spec_runtime_stats st;
	static struct caller c; /* outlives a failed check; stop_live() ends it */

	(void)state;
	assert_non_null(cfg);
	start(&c, rt, false, WORK_N);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, &o), 0);
	assert_int_equal(spec_runtime__wait(rt), 0);
	stats(rt, &st);
	assert_int_equal(st.tier_measured, 0);
	assert_int_equal(st.tier_first, 0);
	stop(&c);
	spec_config__free(cfg);
	spec_runtime__close(rt);
}

/* What was learned is asked per handler, of a measuring runtime only. */
static void test_measured_tiers_errors(void **state)
{
	struct spec_runtime *rt = open_measured(NULL, NULL, false);
	struct spec_runtime *plain = tu_open("measured");
	struct spec_tiers ti;

	(void)state;
	assert_int_equal(spec_runtime__tiers(rt, "ms_work", &ti, sizeof(ti)), 0);
	assert_int_equal(ti.jobs, 0);
	assert_false(ti.skip_first || ti.skip_final);
	assert_int_equal(spec_runtime__tiers(rt, "nope", &ti, sizeof(ti)), -ENOENT);
	assert_int_equal(spec_runtime__tiers(rt, "ms_work", NULL, sizeof(ti)), -EINVAL);
	assert_int_equal(spec_runtime__tiers(plain, "ms_work", &ti, sizeof(ti)), -EOPNOTSUPP);
	spec_runtime__close(plain);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_measured_final_pays_first_skipped, stop_live),
		cmocka_unit_test_teardown(test_measured_tie_skips_final, stop_live),
		cmocka_unit_test_teardown(test_measured_keeps_faster_first, stop_live),
		cmocka_unit_test_teardown(test_measured_no_calls_no_decision, stop_live),
		cmocka_unit_test_teardown(test_measured_forced_level, stop_live),
		cmocka_unit_test_teardown(test_measured_tiers_errors, stop_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
