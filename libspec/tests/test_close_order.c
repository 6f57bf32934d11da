// SPDX-License-Identifier: GPL-2.0
/*
 * Objects built on a runtime hold a reference to it, so everything may be
 * closed in any order: the runtime before its event system, policies and
 * graphs, or after them. Every permutation runs (under ASan in the
 * sanitizer build, where a use after free or a leak fails the test), and an
 * event system whose runtime was closed first still dispatches.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "handlers/events_trace.h"
#include "libspec/events.h"
#include "libspec/policy.h"
#include "testutil.h"

/* The event handlers' hook (tests/handlers/events.c): unused here. */
void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	(void)what;
}

enum obj { O_RT, O_EVS, O_GRAPH, O_FASTPATH, O_EXHAUSTIVE, O_MAX };

struct objs {
	struct spec_runtime *rt;
	struct spec_events *evs;
	struct spec_ev_graph *graph;
	struct spec_policy_fastpath *fp;
	struct spec_policy_exhaustive *ex;
	struct spec_event *a;
	struct ev_trace *t;
};

static void close_one(struct objs *o, enum obj which)
{
	switch (which) {
	case O_RT:
		spec_runtime__close(o->rt);
		o->rt = NULL;
		break;
	case O_EVS:
		spec_events__free(o->evs);
		o->evs = NULL;
		o->a = NULL;
		break;
	case O_GRAPH:
		/* Its names are its own: readable after the system is gone. */
		assert_string_equal(spec_ev_graph__node(o->graph, 0)->name, "A");
		spec_ev_graph__free(o->graph);
		o->graph = NULL;
		break;
	case O_FASTPATH:
		spec_policy_fastpath__free(o->fp);
		o->fp = NULL;
		break;
	case O_EXHAUSTIVE:
		spec_policy_exhaustive__free(o->ex);
		o->ex = NULL;
		break;
	default:
		fail();
	}
}

/* While the event system lives, a raise still runs its handlers. */
static void check_alive(struct objs *o)
{
	uint64_t before;

	if (!o->evs || !o->a)
		return;
	before = atomic_load(&o->t->n);
	assert_int_equal(spec_event__raise_args(o->a, 5, 6), 0);
	assert_true(atomic_load(&o->t->n) > before);
}

/* Every permutation of @objs[0..n) by Heap's algorithm, closed in order. */
static void each_order(const enum obj *objs, size_t n, void (*open)(struct objs *), size_t *runs)
{
	enum obj perm[O_MAX];
	size_t c[O_MAX] = {0}, i = 1, k;

	memcpy(perm, objs, n * sizeof(*perm));
	for (;;) {
		struct objs o = {0};

		open(&o);
		for (k = 0; k < n; k++) {
			close_one(&o, perm[k]);
			check_alive(&o);
		}
		free(o.t);
		++*runs;
		while (i < n && c[i] >= i) {
			c[i] = 0;
			i++;
		}
		if (i >= n)
			break;
		k = i % 2 ? c[i] : 0;
		enum obj tmp = perm[k];
		perm[k] = perm[i];
		perm[i] = tmp;
		c[i]++;
		i = 1;
	}
}

/* A runtime with an event system that dispatches in its own thread and
 * optimizes, a merged event, a queued raise and a graph snapshot.
 */
static void open_events(struct objs *o)
{
	LIBSPEC_OPTS(spec_events_opts, eo, .sample_every = 1, .dispatch_thread = true,
		     .optimize = true, .period_ms = 1);
	LIBSPEC_OPTS(spec_bind_opts, bo, .args = {7, 0});
	int64_t args[2] = {1, 2};

	o->t = calloc(1, sizeof(*o->t));
	assert_non_null(o->t);
	eo.user = o->t;
	o->rt = tu_open("events");
	o->evs = spec_events__new(o->rt, &eo);
	assert_non_null(o->evs);
	o->a = spec_events__declare(o->evs, "A");
	assert_non_null(o->a);
	assert_true(spec_event__bind(o->a, "ev_rec", &bo) > 0);
	assert_int_equal(spec_event__raise(o->a, args, 2), 0);
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = &o->a, .nr_events = 1);

		assert_int_equal(spec_events__merge(o->evs, &mo), 1);
	}
	assert_int_equal(spec_event__raise_async(o->a, args, 2), 0);
	o->graph = spec_events__graph(o->evs);
	assert_non_null(o->graph);
}

static void test_close_events_runtime_graph_in_every_order(void **state)
{
	static const enum obj objs[] = {O_RT, O_EVS, O_GRAPH};
	size_t runs = 0;

	(void)state;
	each_order(objs, 3, open_events, &runs);
	assert_int_equal(runs, 6);
}

static double flat_metric(void *ctx)
{
	(void)ctx;
	return 1.0;
}

/* A loaded runtime with points, both policies and an event system. */
static void open_policies(struct objs *o)
{
	static const char *const only_pk[] = {"pk"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, xo, .metric = flat_metric, .labels = only_pk,
		     .nr_labels = 1);

	o->t = calloc(1, sizeof(*o->t));
	assert_non_null(o->t);
	o->rt = tu_open("policy_points");
	o->evs = spec_events__new(o->rt, NULL);
	assert_non_null(o->evs);
	assert_int_equal(spec_runtime__load(o->rt), 0);
	o->fp = spec_policy_fastpath__new(o->rt, "pc", NULL);
	assert_non_null(o->fp);
	o->ex = spec_policy_exhaustive__new(o->rt, &xo);
	if (!o->ex)
		fail_msg("exhaustive policy: %s", tu_last_msg());
}

static void test_close_runtime_and_policies_in_every_order(void **state)
{
	static const enum obj objs[] = {O_RT, O_EVS, O_FASTPATH, O_EXHAUSTIVE};
	size_t runs = 0;

	(void)state;
	each_order(objs, 4, open_policies, &runs);
	assert_int_equal(runs, 24);
}

/* A policy whose runtime was closed first still works on it. */
static void test_policy_outlives_its_closed_runtime(void **state)
{
	struct objs o = {0};

	(void)state;
	open_policies(&o);
	close_one(&o, O_RT);
	close_one(&o, O_EVS);
	assert_true(spec_policy_fastpath__step(o.fp) >= 0);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(o.ex), 4);
	close_one(&o, O_EXHAUSTIVE);
	close_one(&o, O_FASTPATH);
	free(o.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_close_events_runtime_graph_in_every_order),
		cmocka_unit_test(test_close_runtime_and_policies_in_every_order),
		cmocka_unit_test(test_policy_outlives_its_closed_runtime),
	};

	return cmocka_run_group_tests_name("close_order", tests, NULL, NULL);
}
