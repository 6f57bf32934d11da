// SPDX-License-Identifier: GPL-2.0
/*
 * Merged handlers against generic dispatch: the same handler effects in the
 * same order with the same arguments, with and without chain subsumption;
 * guards that send a rebound event (or a rebound event inlined into
 * another) back to the generic path; the optimizer's rebuild; many threads
 * raising while another rebinds.
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

#include "handlers/events_trace.h"
#include "libspec/events.h"
#include "testutil.h"

/* ev_rebind's hook: binds ev_rec (tag @what) to hook_ev, once. */
static struct spec_event *hook_ev;

void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	LIBSPEC_OPTS(spec_bind_opts, o, .args = {what});

	if (!hook_ev)
		return;
	assert_true(spec_event__bind(hook_ev, "ev_rec", &o) > 0);
	hook_ev = NULL;
}

struct fix {
	struct spec_runtime *rt;
	struct spec_events *evs;
	struct ev_trace *t;
	struct spec_event *a, *b, *c, *d;
};

static int64_t bind(struct spec_event *ev, const char *h, int order, int64_t tag, int64_t b1)
{
	LIBSPEC_OPTS(spec_bind_opts, o, .order = order, .args = {tag, b1});
	int64_t id = spec_event__bind(ev, h, &o);

	assert_true(id > 0);
	return id;
}

/* A -> B -> {C, A again}: a chain with recursion and constants to fold. */
static void open_fix(struct fix *f, const struct spec_events_opts *opts)
{
	struct spec_events_opts o = {.sz = sizeof(o)};

	if (opts)
		o = *opts;
	f->t = calloc(1, sizeof(*f->t));
	assert_non_null(f->t);
	o.user = f->t;
	f->rt = tu_open("events");
	f->evs = spec_events__new(f->rt, &o);
	assert_non_null(f->evs);
	f->a = spec_events__event(f->evs, "A");
	f->b = spec_events__event(f->evs, "B");
	f->c = spec_events__event(f->evs, "C");
	f->d = spec_events__event(f->evs, "D");
	bind(f->a, "ev_to_b", 0, 1, 100);
	bind(f->a, "ev_rec", 1, 2, 0);
	bind(f->b, "ev_to_c", 0, 10, 0);
	bind(f->b, "ev_rec", -1, 11, 0);
	bind(f->c, "ev_rec", 0, 20, 0);
	bind(f->c, "ev_add", 0, 3, 4);
	bind(f->c, "ev_add", 0, -7, 1);
	bind(f->d, "ev_rec", 0, 30, 0);
}

static void close_fix(struct fix *f)
{
	spec_events__free(f->evs);
	spec_runtime__close(f->rt);
	free(f->t);
}

/* Raise A with a spread of arguments; returns a copy of what happened. */
static struct ev_trace *workload(struct fix *f)
{
	struct ev_trace *copy = malloc(sizeof(*copy));
	int64_t i;

	assert_non_null(copy);
	atomic_store(&f->t->n, 0);
	atomic_store(&f->t->sum, 0);
	for (i = 0; i < 8; i++) {
		int64_t args[2] = {i % 6, i * 1000 - 3};

		assert_int_equal(spec_event__raise(f->a, args, 2), 0);
	}
	assert_true(atomic_load(&f->t->n) < TRACE_MAX);
	memcpy(copy, f->t, sizeof(*copy));
	return copy;
}

static void assert_same(const struct ev_trace *x, const struct ev_trace *y)
{
	uint64_t i;

	assert_int_equal(atomic_load(&x->n), atomic_load(&y->n));
	assert_int_equal(atomic_load(&x->sum), atomic_load(&y->sum));
	for (i = 0; i < atomic_load(&x->n); i++) {
		const struct ev_rec *r = &x->rec[i], *s = &y->rec[i];

		if (memcmp(r, s, sizeof(*r)))
			fail_msg("record %llu: tag %lld (%lld, %lld) depth %lld vs tag %lld "
				 "(%lld, %lld) depth %lld",
				 (unsigned long long)i, (long long)r->tag, (long long)r->a0,
				 (long long)r->a1, (long long)r->depth, (long long)s->tag,
				 (long long)s->a0, (long long)s->a1, (long long)s->depth);
	}
}

static int merge(struct fix *f, bool subsume)
{
	struct spec_event *set[] = {f->a, f->b, f->c};
	LIBSPEC_OPTS(spec_merge_opts, o, .events = set, .nr_events = 3, .no_subsume = !subsume);

	return spec_events__merge(f->evs, &o);
}

static void test_event_merged_code_matches_generic_dispatch(void **state)
{
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	open_fix(&f, NULL);
	ref = workload(&f);
	assert_true(atomic_load(&ref->n) > 40);
	assert_int_equal(merge(&f, true), 3);
	assert_true(spec_event__is_merged(f.a));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d));
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.builds, 1);
	assert_int_equal(st.merged_events, 3);
	/* ev_to_b raises B, ev_to_c C and A, ev_rebind B: every function of
	 * the module is rewritten, bound or not.
	 */
	assert_int_equal(st.subsumed, 4);
	got = workload(&f);
	assert_same(ref, got);
	free(got);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.guard_fails, 0);
	free(ref);
	close_fix(&f);
}

static void test_event_merged_without_subsumption_matches_too(void **state)
{
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	open_fix(&f, NULL);
	ref = workload(&f);
	assert_int_equal(merge(&f, false), 3);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.subsumed, 0);
	got = workload(&f);
	assert_same(ref, got);
	free(got);
	free(ref);
	close_fix(&f);
}

static void test_event_rebinding_sends_merged_event_back_to_generic(void **state)
{
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;
	int64_t id;

	(void)state;
	open_fix(&f, NULL);
	assert_int_equal(merge(&f, true), 3);
	id = bind(f.a, "ev_rec", 2, 5, 0);
	assert_false(spec_event__is_merged(f.a));
	got = workload(&f); /* A generic (sees tag 5), B and C merged */
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_true(st.guard_fails >= 8);
	assert_int_equal(spec_events__unmerge(f.evs), 0);
	assert_false(spec_event__is_merged(f.b));
	ref = workload(&f);
	assert_same(ref, got);
	free(got);
	assert_int_equal(merge(&f, true), 3);
	assert_true(spec_event__is_merged(f.a));
	got = workload(&f);
	assert_same(ref, got);
	free(got);
	assert_int_equal(spec_event__unbind(f.a, id), 0);
	assert_false(spec_event__is_merged(f.a));
	free(ref);
	close_fix(&f);
}

static void test_event_rebinding_an_inlined_event_fails_its_inner_guard(void **state)
{
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	open_fix(&f, NULL);
	assert_int_equal(merge(&f, true), 3);
	/* C's code is inlined into B's (and so A's): rebinding C must reach
	 * raises of A although A's own bindings did not change.
	 */
	bind(f.c, "ev_rec", -5, 99, 0);
	assert_true(spec_event__is_merged(f.a));
	assert_false(spec_event__is_merged(f.c));
	got = workload(&f);
	assert_int_equal(spec_events__unmerge(f.evs), 0);
	ref = workload(&f);
	assert_same(ref, got);
	{
		uint64_t i, n99 = 0;

		for (i = 0; i < atomic_load(&got->n); i++)
			n99 += got->rec[i].tag == 99;
		assert_true(n99 >= 6);
	}
	free(got);
	free(ref);
	close_fix(&f);
}

/* The raise of B inlined into A's merged code after the hook rebound B sees
 * the new binding, and the rest of A's dispatch does not see one made to A:
 * as with generic dispatch.
 */
static void run_rebinding_raise(bool merged, char *out, size_t size)
{
	struct spec_event *set[2];
	struct fix f;
	size_t len = 0;
	uint64_t i;
	int round;

	open_fix(&f, NULL);
	f.d = spec_events__event(f.evs, "R");
	bind(f.d, "ev_rebind", 0, 1, 3);
	bind(f.d, "ev_rec", 1, 2, 0);
	set[0] = f.d;
	set[1] = f.b;
	if (merged) {
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = set, .nr_events = 2);

		assert_int_equal(spec_events__merge(f.evs, &mo), 2);
	}
	for (round = 0; round < 3; round++) {
		int64_t args[2] = {0, 0};

		hook_ev = round == 0 ? f.b : round == 1 ? f.d : NULL;
		atomic_store(&f.t->n, 0);
		assert_int_equal(spec_event__raise(f.d, args, 2), 0);
		for (i = 0; i < atomic_load(&f.t->n); i++)
			len += (size_t)snprintf(out + len, size - len, "%lld,",
						(long long)f.t->rec[i].tag);
		len += (size_t)snprintf(out + len, size - len, "|");
	}
	close_fix(&f);
}

static void test_event_merged_code_keeps_the_rebinding_semantics(void **state)
{
	char generic[512] = "", merged[512] = "";

	(void)state;
	run_rebinding_raise(false, generic, sizeof(generic));
	run_rebinding_raise(true, merged, sizeof(merged));
	assert_string_equal(generic, merged);
	/* Round 0: B got tag 3 before R's handler raised it (inlined in the
	 * merged case: its guard sends it to the generic path); round 1: R got
	 * tag 3 during its own dispatch, seen from round 2 on.
	 */
	assert_string_equal(generic, "1,11,10,20,3,2,|1,11,10,20,3,2,|1,11,10,20,3,3,2,|");
}

/* Merged code still tells the graph which handler raised what. */
static void test_event_merged_code_records_the_raising_handler(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .sample_every = 1);
	const struct spec_ev_handler_edge *h;
	struct spec_ev_graph *g;
	struct spec_event *set[1];
	int64_t args[2] = {1, 0};
	struct fix f;

	(void)state;
	open_fix(&f, &o);
	set[0] = f.a;
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = set, .nr_events = 1);

		assert_int_equal(spec_events__merge(f.evs, &mo), 1);
	}
	assert_true(spec_event__is_merged(f.a));
	assert_int_equal(spec_event__raise(f.a, args, 2), 0);
	g = spec_events__graph(f.evs);
	assert_non_null(g);
	h = spec_ev_graph__handler_edge(g, 0);
	assert_non_null(h);
	/* A(1): ev_to_b raises B (generic: B is not merged), B's ev_to_c
	 * raises C and not A; each once.
	 */
	assert_int_equal(spec_ev_graph__nr_handler_edges(g), 2);
	assert_string_equal(spec_ev_graph__handler_edge(g, 0)->handler, "ev_to_b");
	assert_int_equal(spec_ev_graph__handler_edge(g, 0)->to, 1);
	assert_string_equal(spec_ev_graph__handler_edge(g, 1)->handler, "ev_to_c");
	assert_int_equal(spec_ev_graph__handler_edge(g, 1)->to, 2);
	spec_ev_graph__free(g);
	close_fix(&f);
}

static void test_event_merge_without_a_set_takes_the_hot_events(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .sample_every = 1);
	struct fix f;
	struct ev_trace *t;

	(void)state;
	open_fix(&f, &o);
	t = workload(&f);
	free(t);
	assert_int_equal(spec_events__merge(f.evs, NULL), 3);
	assert_true(spec_event__is_merged(f.a));
	assert_true(spec_event__is_merged(f.b));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d)); /* bound, never raised */
	close_fix(&f);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Raise A until @ev is merged (or 30 s passed). */
static bool raise_until_merged(struct fix *f, struct spec_event *ev)
{
	uint64_t end = now_ms() + 30000;
	int64_t args[2] = {1, 0};

	while (now_ms() < end) {
		if (spec_event__is_merged(ev))
			return true;
		assert_int_equal(spec_event__raise(f->a, args, 2), 0);
		atomic_store(&f->t->n, 0);
		nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
	}
	return false;
}

static void test_event_optimizer_merges_hot_events_and_rebuilds_after_rebinding(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .optimize = true, .period_ms = 10, .sample_every = 1);
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	open_fix(&f, &o);
	ref = workload(&f);
	assert_true(raise_until_merged(&f, f.a));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d));
	/* B and C now run inlined in A and are no longer sampled: the set
	 * must stay (not flap) over 20 more periods.
	 */
	{
		uint64_t end = now_ms() + 200, before;
		int64_t args[2] = {1, 0};

		assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
		before = st.builds;
		while (now_ms() < end) {
			assert_int_equal(spec_event__raise(f.a, args, 2), 0);
			atomic_store(&f.t->n, 0);
		}
		assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
		assert_true(st.builds <= before + 1);
		assert_true(spec_event__is_merged(f.b));
	}
	bind(f.b, "ev_rec", 9, 77, 0);
	assert_false(spec_event__is_merged(f.b));
	assert_true(raise_until_merged(&f, f.b));
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_true(st.builds >= 2);
	got = workload(&f);
	free(ref);
	close_fix(&f);
	/* The same bindings, generic only. */
	open_fix(&f, NULL);
	bind(f.b, "ev_rec", 9, 77, 0);
	ref = workload(&f);
	assert_same(ref, got);
	free(ref);
	free(got);
	close_fix(&f);
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
	open_fix(&f, &o);
	assert_true(raise_until_merged(&f, f.a));
	for (end = now_ms() + 20000; now_ms() < end && !dropped;) {
		assert_int_equal(spec_event__raise(f.a, args, 2), 0);
		atomic_store(&f.t->n, 0);
		dropped = !spec_event__is_merged(f.a) && !spec_event__is_merged(f.b);
		nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
	}
	assert_true(dropped);
	close_fix(&f);
}

struct mt {
	struct fix *f;
	struct spec_event *e;
	_Atomic bool stop;
	int64_t expect;
};

#define MT_RAISES 20000

/* Raise until the optimizer rebuilt a few times under the rebinding (or
 * 20 s passed), a multiple of MT_RAISES times; returns the raises made.
 */
static void *raiser(void *arg)
{
	struct mt *m = arg;
	uint64_t end = now_ms() + 20000;
	struct spec_events_stats st;
	int64_t i, rounds = 0;

	do {
		for (i = 0; i < MT_RAISES; i++) {
			int64_t a = i % 97;

			spec_event__raise(m->e, &a, 1);
		}
		rounds++;
		spec_events__stats(m->f->evs, &st, sizeof(st));
	} while (st.builds < 4 && now_ms() < end);
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
	LIBSPEC_OPTS(spec_events_opts, o, .optimize = true, .period_ms = 5, .sample_every = 16);
	pthread_t r[2], w;
	struct mt m = {0};
	struct fix f;
	int64_t i, per = 0, expect = 0;
	int k;

	(void)state;
	open_fix(&f, &o);
	m.f = &f;
	m.e = spec_events__event(f.evs, "E");
	bind(m.e, "ev_add", 0, 3, 1);
	bind(m.e, "ev_add", 0, 5, 0);
	for (i = 0; i < MT_RAISES; i++)
		per += 3 * (i % 97) + 1 + 5 * (i % 97);
	assert_int_equal(pthread_create(&w, NULL, rebinder, &m), 0);
	for (k = 0; k < 2; k++)
		assert_int_equal(pthread_create(&r[k], NULL, raiser, &m), 0);
	for (k = 0; k < 2; k++) {
		void *rounds;

		pthread_join(r[k], &rounds);
		expect += per * (intptr_t)rounds;
	}
	atomic_store(&m.stop, true);
	pthread_join(w, NULL);
	assert_int_equal(atomic_load(&f.t->sum), expect);
	close_fix(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_merged_code_matches_generic_dispatch),
		cmocka_unit_test(test_event_merged_without_subsumption_matches_too),
		cmocka_unit_test(test_event_rebinding_sends_merged_event_back_to_generic),
		cmocka_unit_test(test_event_rebinding_an_inlined_event_fails_its_inner_guard),
		cmocka_unit_test(test_event_merged_code_keeps_the_rebinding_semantics),
		cmocka_unit_test(test_event_merged_code_records_the_raising_handler),
		cmocka_unit_test(test_event_merge_without_a_set_takes_the_hot_events),
		cmocka_unit_test(
			test_event_optimizer_merges_hot_events_and_rebuilds_after_rebinding),
		cmocka_unit_test(test_event_optimizer_drops_a_build_that_lowers_the_metric),
		cmocka_unit_test(test_event_many_threads_raise_exactly_while_another_rebinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
