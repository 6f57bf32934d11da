// SPDX-License-Identifier: GPL-2.0
/*
 * The optimizer thread: merging hot events, staying put while nothing
 * changes, rebuilding after a rebinding, dropping a build that lowers the
 * service's metric; many threads raising (synchronously, and through the
 * dispatcher thread) while another rebinds.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "libspec/events.h"
#include "event_fixture.h"
#include "testutil.h"

/* ev_rebind's hook (not bound in these tests). */
void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	(void)what;
}

static void test_event_optimizer_merges_hot_events_and_rebuilds_after_rebinding(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .optimize = true, .period_ms = 10, .sample_every = 1);
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	evfix_open(&f, &o);
	ref = evfix_workload(&f);
	assert_true(evfix_raise_until_merged(&f, f.a));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d));
	/* B and C now run inlined in A and are no longer sampled: the set
	 * must stay (not flap) over 20 more periods.
	 */
	{
		uint64_t end = evfix_now_ms() + 200, before;
		int64_t args[2] = {1, 0};

		assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
		before = st.builds;
		while (evfix_now_ms() < end) {
			assert_int_equal(spec_event__raise(f.a, args, 2), 0);
			atomic_store(&f.t->n, 0);
		}
		assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
		assert_true(st.builds <= before + 1);
		assert_true(spec_event__is_merged(f.b));
	}
	evfix_bind(f.b, "ev_rec", 9, 77, 0);
	assert_false(spec_event__is_merged(f.b));
	assert_true(evfix_raise_until_merged(&f, f.b));
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_true(st.builds >= 2);
	got = evfix_workload(&f);
	free(ref);
	evfix_close(&f);
	/* The same bindings, generic only. */
	evfix_open(&f, NULL);
	evfix_bind(f.b, "ev_rec", 9, 77, 0);
	ref = evfix_workload(&f);
	evfix_assert_same(ref, got);
	free(ref);
	free(got);
	evfix_close(&f);
}

/* A service whose throughput drops when A runs merged code. */
static double worse_when_merged(void *ctx)
{
	struct fix *f = ctx;

	return spec_event__is_merged(f->a) ? 10.0 : 100.0;
}

static void test_event_optimizer_drops_a_build_that_lowers_the_metric(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .optimize = true, .period_ms = 10, .sample_every = 1,
		     .metric = worse_when_merged);
	uint64_t end;
	struct fix f = {0};
	int64_t args[2] = {1, 0};
	bool dropped = false;

	(void)state;
	o.metric_ctx = &f;
	evfix_open(&f, &o);
	assert_true(evfix_raise_until_merged(&f, f.a));
	for (end = evfix_now_ms() + 20000; evfix_now_ms() < end && !dropped;) {
		assert_int_equal(spec_event__raise(f.a, args, 2), 0);
		atomic_store(&f.t->n, 0);
		dropped = !spec_event__is_merged(f.a) && !spec_event__is_merged(f.b);
		nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
	}
	assert_true(dropped);
	evfix_close(&f);
}

struct mt {
	struct fix *f;
	struct spec_event *e;
	_Atomic bool stop, sync_done;
};

#define MT_RAISES 20000

/* Raise until the optimizer rebuilt a few times under the rebinding (or
 * 20 s passed), a multiple of MT_RAISES times; returns the raises made.
 */
static void *raiser(void *arg)
{
	struct mt *m = arg;
	uint64_t end = evfix_now_ms() + 20000;
	struct spec_events_stats st;
	int64_t i, rounds = 0;

	do {
		for (i = 0; i < MT_RAISES; i++) {
			int64_t a = i % 97;

			spec_event__raise(m->e, &a, 1);
		}
		rounds++;
		spec_events__stats(m->f->evs, &st, sizeof(st));
	} while (st.builds < 4 && evfix_now_ms() < end);
	return (void *)(intptr_t)rounds;
}

#define MT_ASYNC (MT_RAISES / 4)

/* Queue raises for the dispatcher thread until the synchronous raisers are
 * done, MT_ASYNC at a time; returns the batches queued.
 */
static void *async_raiser(void *arg)
{
	struct mt *m = arg;
	int64_t i, rounds = 0;

	do {
		for (i = 0; i < MT_ASYNC; i++) {
			int64_t a = i % 97;

			assert_int_equal(spec_event__raise_async(m->e, &a, 1), 0);
		}
		rounds++;
	} while (!atomic_load(&m->sync_done));
	return (void *)(intptr_t)rounds;
}

static void *rebinder(void *arg)
{
	struct mt *m = arg;
	LIBSPEC_OPTS(spec_bind_opts, o, .args = {0, 0});
	uint64_t seed = 42;

	while (!atomic_load(&m->stop)) {
		int64_t id = spec_event__bind(m->e, "ev_add", &o);

		nanosleep(&(struct timespec){.tv_nsec = (long)(tu_rand(&seed) % 3000000)}, NULL);
		if (id > 0)
			spec_event__unbind(m->e, id);
		nanosleep(&(struct timespec){.tv_nsec = (long)(tu_rand(&seed) % 3000000)}, NULL);
	}
	return NULL;
}

static void test_event_many_threads_raise_exactly_while_another_rebinds(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .optimize = true, .period_ms = 5, .sample_every = 16,
		     .dispatch_thread = true);
	pthread_t r[2], w, q;
	struct mt m = {0};
	struct fix f;
	int64_t i, per = 0, per_async = 0, expect = 0;
	void *rounds;
	int k;

	(void)state;
	evfix_open(&f, &o);
	m.f = &f;
	m.e = spec_events__declare(f.evs, "E");
	evfix_bind(m.e, "ev_add", 0, 3, 1);
	evfix_bind(m.e, "ev_add", 0, 5, 0);
	for (i = 0; i < MT_RAISES; i++)
		per += 3 * (i % 97) + 1 + 5 * (i % 97);
	for (i = 0; i < MT_ASYNC; i++)
		per_async += 3 * (i % 97) + 1 + 5 * (i % 97);
	assert_int_equal(pthread_create(&w, NULL, rebinder, &m), 0);
	assert_int_equal(pthread_create(&q, NULL, async_raiser, &m), 0);
	for (k = 0; k < 2; k++)
		assert_int_equal(pthread_create(&r[k], NULL, raiser, &m), 0);
	for (k = 0; k < 2; k++) {
		pthread_join(r[k], &rounds);
		expect += per * (intptr_t)rounds;
	}
	atomic_store(&m.sync_done, true);
	pthread_join(q, &rounds);
	expect += per_async * (intptr_t)rounds;
	assert_int_equal(spec_events__drain(f.evs, 60000000000ull), 0);
	atomic_store(&m.stop, true);
	pthread_join(w, NULL);
	assert_int_equal(atomic_load(&f.t->sum), expect);
	evfix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_event_optimizer_merges_hot_events_and_rebuilds_after_rebinding),
		cmocka_unit_test(test_event_optimizer_drops_a_build_that_lowers_the_metric),
		cmocka_unit_test(test_event_many_threads_raise_exactly_while_another_rebinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
