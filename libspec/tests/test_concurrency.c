// SPDX-License-Identifier: GPL-2.0
/*
 * Swapping under load: 8 threads call a handler while another thread
 * specializes it 1,000 times (mostly cache hits, a bounded number of real
 * recompiles and evictions). Every result must match the native build, and
 * memory must stay bounded: evicted variants are freed once no thread can
 * be inside them.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

#define WORKERS 8
#define SPECIALIZATIONS 1000
#define MAX_VARIANTS 4

/* Native builds of tests/handlers/concurrency.c. */
long wk_sum(long a, long b);
long wk_held(long a, long b);

/* Called by wk_held: signals that a thread is inside, waits for release. */
static pthread_mutex_t block_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t block_cv = PTHREAD_COND_INITIALIZER;
static int block_inside, block_open = 1;

void wk_block(void)
{
	pthread_mutex_lock(&block_mu);
	block_inside++;
	pthread_cond_broadcast(&block_cv);
	while (!block_open)
		pthread_cond_wait(&block_cv, &block_mu);
	pthread_mutex_unlock(&block_mu);
}

struct shared {
	long (*f)(long, long);
	atomic_bool stop;
	atomic_ulong calls, wrong;
};

static void *worker(void *arg)
{
	struct shared *sh = arg;
	uint64_t seed = (uint64_t)(uintptr_t)&seed | 1;

	while (!atomic_load(&sh->stop)) {
		long a = (long)(tu_rand(&seed) % 1000) - 500;
		long b = (long)(tu_rand(&seed) % 8) + 1;

		if (sh->f(a, b) != wk_sum(a, b))
			atomic_fetch_add(&sh->wrong, 1);
		atomic_fetch_add(&sh->calls, 1);
	}
	return NULL;
}

static long rss_kb(void)
{
	long pages = 0, rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Mostly a hot set that stays cached; every 50th a cold config forces a
 * compile and an eviction (and later a recompile of what it pushed out).
 */
static void config_for(int i, char *buf, size_t size)
{
	if (i % 50 == 49)
		snprintf(buf, size, "wb=%d~16", 4 + (i / 50) % 5);
	else
		snprintf(buf, size, "wb=%d", 1 + i % 3);
}

static void test_concurrency_swaps_under_load_stay_correct_and_bounded(void **state)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .max_variants = MAX_VARIANTS, .print = tu_print);
	struct shared sh = {0};
	struct spec_runtime_stats st;
	struct spec_runtime *rt;
	pthread_t th[WORKERS];
	long rss0, rss1;
	char text[32];
	int i, tries;

	(void)state;
	tu_capture();
	rt = spec_runtime__open(tu_ir("concurrency"), &opts);
	assert_non_null(rt);
	sh.f = spec_runtime__handler(rt, "wk_sum");
	assert_non_null(sh.f);
	/* Warm up the hot set so the RSS baseline includes it. */
	for (i = 0; i < 3; i++) {
		config_for(i, text, sizeof(text));
		assert_int_equal(tu_specialize(rt, text), 0);
	}
	rss0 = rss_kb();
	for (i = 0; i < WORKERS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, &sh), 0);
	for (i = 0; i < SPECIALIZATIONS; i++) {
		struct spec_config *cfg;

		config_for(i, text, sizeof(text));
		cfg = spec_config__parse(text);
		assert_non_null(cfg);
		/* Mostly async (callers never wait); some sync to interleave. */
		if (i % 10)
			assert_int_equal(spec_runtime__specialize(rt, cfg, NULL), 0);
		else
			assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), 0);
		spec_config__free(cfg);
	}
	assert_int_equal(spec_runtime__wait(rt), 0);
	atomic_store(&sh.stop, true);
	for (i = 0; i < WORKERS; i++)
		pthread_join(th[i], NULL);
	rss1 = rss_kb();

	/* With every thread outside, the compile thread frees what is left. */
	for (tries = 0; tries < 200; tries++) {
		spec_runtime__stats(rt, &st, sizeof(st));
		if (st.freed == st.evictions)
			break;
		usleep(5000);
	}
	print_message("calls %lu, compiles %llu, hits %llu, evictions %llu, freed %llu, "
		      "rss %+ld kB\n",
		      atomic_load(&sh.calls), (unsigned long long)st.compiles,
		      (unsigned long long)st.cache_hits, (unsigned long long)st.evictions,
		      (unsigned long long)st.freed, rss1 - rss0);
	assert_int_equal(atomic_load(&sh.wrong), 0);
	assert_true(atomic_load(&sh.calls) > 0);
	assert_int_equal(st.swaps, SPECIALIZATIONS + 3 + 1);
	assert_true(st.cache_hits >= SPECIALIZATIONS - 60);
	assert_true(st.compiles >= 1 + 3 + SPECIALIZATIONS / 50);
	assert_true(st.compiles <= 1 + 3 + 3 * (SPECIALIZATIONS / 50));
	assert_true(st.evictions >= SPECIALIZATIONS / 50);
	assert_int_equal(st.freed, st.evictions);
	assert_int_equal(st.live_variants, MAX_VARIANTS);
#ifndef __SANITIZE_ADDRESS__
	/* ASan's quarantine keeps freed memory resident: there the leak
	 * checker at exit and the freed/live counts above are the bound.
	 */
	assert_true(rss1 - rss0 < 64 * 1024);
#endif
	spec_runtime__close(rt);
}

struct held_call {
	long (*f)(long, long);
	long result;
};

static void *call_held(void *arg)
{
	struct held_call *hc = arg;

	hc->result = hc->f(6, 7);
	return NULL;
}

/* A runtime of two cached variants and its wk_held handler in @hc. */
static struct spec_runtime *open_held(struct held_call *hc)
{
	LIBSPEC_OPTS(spec_runtime_opts, opts, .max_variants = 2, .print = tu_print);
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(tu_ir("concurrency"), &opts);
	assert_non_null(rt);
	hc->f = spec_runtime__handler(rt, "wk_held");
	assert_non_null(hc->f);
	return rt;
}

/* Start @th calling @hc and return once it is blocked inside the handler. */
static void hold(struct held_call *hc, pthread_t *th)
{
	block_open = 0;
	block_inside = 0;
	assert_int_equal(pthread_create(th, NULL, call_held, hc), 0);
	pthread_mutex_lock(&block_mu);
	while (!block_inside)
		pthread_cond_wait(&block_cv, &block_mu);
	pthread_mutex_unlock(&block_mu);
}

/* Let @th out and join it; returns how many calls were inside until then. */
static int release(pthread_t th)
{
	int inside;

	pthread_mutex_lock(&block_mu);
	inside = block_inside;
	block_open = 1;
	pthread_cond_broadcast(&block_cv);
	pthread_mutex_unlock(&block_mu);
	pthread_join(th, NULL);
	return inside;
}

static void test_concurrency_variant_in_use_is_not_freed(void **state)
{
	struct spec_runtime_stats st;
	struct spec_runtime *rt;
	struct held_call hc;
	pthread_t th;
	char cfg[16];
	int i;

	(void)state;
	rt = open_held(&hc);
	assert_int_equal(tu_specialize(rt, "hb=7"), 0);

	/* A thread enters the hb=7 variant and stays inside. */
	hold(&hc, &th);

	/* Push hb=7 out of the two-entry cache (with the generic one). */
	for (i = 1; i <= 3; i++) {
		snprintf(cfg, sizeof(cfg), "hb=%d", 20 + i);
		assert_int_equal(tu_specialize(rt, cfg), 0);
	}
	usleep(20000);
	spec_runtime__stats(rt, &st, sizeof(st));
	assert_true(st.evictions >= 3);
	/* hb=7 is evicted but the thread is inside it: not freed. */
	assert_true(st.freed < st.evictions);

	release(th);
	/* It returned through the evicted variant's code, still mapped. */
	assert_int_equal(hc.result, wk_held(6, 7));
	for (i = 0; i < 200; i++) {
		spec_runtime__stats(rt, &st, sizeof(st));
		if (st.freed == st.evictions)
			break;
		usleep(5000);
	}
	assert_int_equal(st.freed, st.evictions);
	spec_runtime__close(rt);
}

/*
 * The generic variant is never freed, so the entry stub calls it without
 * entering the epoch: a thread blocked inside it must not hold back the
 * reclamation of variants evicted meanwhile.
 */
static void test_concurrency_generic_call_holds_no_epoch(void **state)
{
	struct spec_runtime_stats st;
	struct spec_runtime *rt;
	struct held_call hc;
	pthread_t th;
	char cfg[16];
	int i;

	(void)state;
	rt = open_held(&hc);

	hold(&hc, &th);

	for (i = 1; i <= 3; i++) {
		snprintf(cfg, sizeof(cfg), "hb=%d", 30 + i);
		assert_int_equal(tu_specialize(rt, cfg), 0);
	}
	/* Still inside the generic code, yet the evicted ones are freed. */
	for (i = 0; i < 400; i++) {
		spec_runtime__stats(rt, &st, sizeof(st));
		if (st.evictions >= 2 && st.freed == st.evictions)
			break;
		usleep(5000);
	}
	assert_true(st.evictions >= 2);
	assert_int_equal(st.freed, st.evictions);
	assert_int_equal(release(th), 1);
	assert_int_equal(hc.result, wk_held(6, 7));
	/* The installed variant (hb=33) now goes through the epoch path. */
	assert_int_equal(hc.f(6, 33), wk_held(6, 33));
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_concurrency_swaps_under_load_stay_correct_and_bounded),
		cmocka_unit_test(test_concurrency_variant_in_use_is_not_freed),
		cmocka_unit_test(test_concurrency_generic_call_holds_no_epoch),
	};

	return cmocka_run_group_tests_name("concurrency", tests, NULL, NULL);
}
