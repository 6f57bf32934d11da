// SPDX-License-Identifier: GPL-2.0
/*
 * Merged handlers against generic dispatch: the same handler effects in the
 * same order with the same arguments, with and without chain subsumption;
 * guards that send a rebound event (or a rebound event inlined into
 * another) back to the generic path; rebinding during a raise; the graph
 * from merged code.
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
#include "runtime.h"
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
	evfix_open(&f, NULL);
	ref = evfix_workload(&f);
	assert_true(atomic_load(&ref->n) > 40);
	assert_int_equal(merge(&f, true), 3);
	assert_true(spec_event__is_merged(f.a));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d));
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.builds, 1);
	assert_int_equal(st.merged_events, 3);
	/* ev_to_b raises B, ev_to_c C and A, ev_rebind B: every function of
	 * the module is rewritten, bound or not. A -> B -> A is a cycle, so
	 * those two sites are guarded calls; C and ev_rebind's B are inlined.
	 */
	assert_int_equal(st.subsumed, 2);
	assert_int_equal(st.subsumed_calls, 2);
	got = evfix_workload(&f);
	evfix_assert_same(ref, got);
	free(got);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.guard_fails, 0);
	free(ref);
	evfix_close(&f);
}

static void test_event_merged_without_subsumption_matches_too(void **state)
{
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	evfix_open(&f, NULL);
	ref = evfix_workload(&f);
	assert_int_equal(merge(&f, false), 3);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.subsumed, 0);
	got = evfix_workload(&f);
	evfix_assert_same(ref, got);
	free(got);
	free(ref);
	evfix_close(&f);
}

static void test_event_rebinding_sends_merged_event_back_to_generic(void **state)
{
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;
	int64_t id;

	(void)state;
	evfix_open(&f, NULL);
	assert_int_equal(merge(&f, true), 3);
	id = evfix_bind(f.a, "ev_rec", 2, 5, 0);
	assert_false(spec_event__is_merged(f.a));
	got = evfix_workload(&f); /* A generic (sees tag 5), B and C merged */
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_true(st.guard_fails >= 8);
	assert_int_equal(spec_events__unmerge(f.evs), 0);
	assert_false(spec_event__is_merged(f.b));
	ref = evfix_workload(&f);
	evfix_assert_same(ref, got);
	free(got);
	assert_int_equal(merge(&f, true), 3);
	assert_true(spec_event__is_merged(f.a));
	got = evfix_workload(&f);
	evfix_assert_same(ref, got);
	free(got);
	assert_int_equal(spec_event__unbind(f.a, id), 0);
	assert_false(spec_event__is_merged(f.a));
	free(ref);
	evfix_close(&f);
}

static void test_event_rebinding_an_inlined_event_fails_its_inner_guard(void **state)
{
	struct ev_trace *ref, *got;
	struct fix f;

	(void)state;
	evfix_open(&f, NULL);
	assert_int_equal(merge(&f, true), 3);
	/* C's code is inlined into B's (and so A's): rebinding C must reach
	 * raises of A although A's own bindings did not change.
	 */
	evfix_bind(f.c, "ev_rec", -5, 99, 0);
	assert_true(spec_event__is_merged(f.a));
	assert_false(spec_event__is_merged(f.c));
	got = evfix_workload(&f);
	assert_int_equal(spec_events__unmerge(f.evs), 0);
	ref = evfix_workload(&f);
	evfix_assert_same(ref, got);
	{
		uint64_t i, n99 = 0;

		for (i = 0; i < atomic_load(&got->n); i++)
			n99 += got->rec[i].tag == 99;
		assert_true(n99 >= 6);
	}
	free(got);
	free(ref);
	evfix_close(&f);
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

	evfix_open(&f, NULL);
	f.d = spec_events__declare(f.evs, "R");
	evfix_bind(f.d, "ev_rebind", 0, 1, 3);
	evfix_bind(f.d, "ev_rec", 1, 2, 0);
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
	evfix_close(&f);
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
	evfix_open(&f, &o);
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
	evfix_close(&f);
}

static void test_event_merge_without_a_set_takes_the_hot_events(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .sample_every = 1);
	struct fix f;
	struct ev_trace *t;

	(void)state;
	evfix_open(&f, &o);
	t = evfix_workload(&f);
	free(t);
	assert_int_equal(spec_events__merge(f.evs, NULL), 3);
	assert_true(spec_event__is_merged(f.a));
	assert_true(spec_event__is_merged(f.b));
	assert_true(spec_event__is_merged(f.c));
	assert_false(spec_event__is_merged(f.d)); /* bound, never raised */
	evfix_close(&f);
}

struct binder {
	struct fix *f;
	_Atomic bool done;
};

static void *bind_loop(void *arg)
{
	struct binder *b = arg;
	int i;

	/* ev_fwd_y was never bound: its first binding too. */
	for (i = 0; i < 50; i++) {
		int64_t id = evfix_bind(b->f->b, i % 2 ? "ev_fwd_y" : "ev_add", 0, i, 0);

		assert_int_equal(spec_event__unbind(b->f->b, id), 0);
	}
	atomic_store(&b->done, true);
	return NULL;
}

/*
 * bind and unbind while the JIT lock is held as a background compile holds
 * it, with retired merged code waiting to be freed: they must complete
 * without it.
 */
/* Raise S0..S3 (one handler bound to all four) with a spread of counts. */
static struct ev_trace *shared_workload(struct fix *f, struct spec_event **s)
{
	struct ev_trace *copy = malloc(sizeof(*copy));
	int64_t i;

	assert_non_null(copy);
	atomic_store(&f->t->n, 0);
	for (i = 0; i < 12; i++)
		assert_int_equal(spec_event__raise_args(s[i % 4], i % 5, i * 10), 0);
	memcpy(copy, f->t, sizeof(*copy));
	return copy;
}

/*
 * One function bound to four events that raises one of them is a cycle
 * (S3 -> S3): its site must be a guarded call, not an inlined body, however
 * few functions the module has.
 */
static void test_event_shared_handler_cycle_is_a_call(void **state)
{
	static const char *const names[] = {"S0", "S1", "S2", "S3"};
	struct spec_event *s[4];
	struct spec_events_stats st;
	struct ev_trace *ref, *got;
	struct fix f;
	int i;

	(void)state;
	evfix_open_bare(&f, NULL);
	for (i = 0; i < 4; i++) {
		s[i] = spec_events__declare(f.evs, names[i]);
		assert_non_null(s[i]);
		evfix_bind(s[i], "ev_shared_to_s3", 0, i + 1, 0);
	}
	ref = shared_workload(&f, s);
	assert_true(atomic_load(&ref->n) > 12);
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = s, .nr_events = 4);

		assert_int_equal(spec_events__merge(f.evs, &mo), 4);
	}
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.subsumed_calls, 1);
	assert_int_equal(st.subsumed, 0);
	got = shared_workload(&f, s);
	evfix_assert_same(ref, got);
	free(got);
	free(ref);
	evfix_close(&f);
}

static void test_event_bind_never_waits_for_the_jit(void **state)
{
	struct binder b = {0};
	bool done_locked;
	uint64_t end;
	pthread_t t;
	struct fix f;

	(void)state;
	evfix_open(&f, NULL);
	assert_int_equal(merge(&f, true), 3);
	{
		/* As a raise in flight would, keep the replaced build's code
		 * from being freed by the merge itself: the next reclaim may.
		 */
		_Atomic uint64_t *ep = spec_rt_enter(&f.rt->dom);

		assert_int_equal(merge(&f, true), 3);
		atomic_store(ep, 0);
	}
	b.f = &f;
	pthread_mutex_lock(&f.rt->jit_lock);
	assert_int_equal(pthread_create(&t, NULL, bind_loop, &b), 0);
	for (end = evfix_now_ms() + 10000; !atomic_load(&b.done) && evfix_now_ms() < end;)
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	done_locked = atomic_load(&b.done);
	pthread_mutex_unlock(&f.rt->jit_lock);
	pthread_join(t, NULL);
	if (!done_locked)
		fail_msg("bind/unbind waited for the JIT lock");
	evfix_close(&f);
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
		cmocka_unit_test(test_event_shared_handler_cycle_is_a_call),
		cmocka_unit_test(test_event_bind_never_waits_for_the_jit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
