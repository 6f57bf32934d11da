// SPDX-License-Identifier: GPL-2.0
/*
 * The event model: binding order, arguments, nested synchronous raises,
 * asynchronous FIFO dispatch, delayed raises and cancelling, what a
 * rebinding during a raise sees, the sampled graph and its export, and
 * bad input.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "event_fixture.h"
#include "testutil.h"

/* What ev_rebind's hook does (set by the test that uses it). */
static struct spec_event *hook_ev;
static int64_t hook_unbind, hook_bound;
static struct spec_events *hook_drain; /* drain these, result in hook_drained */
static int hook_drained;

void ev_test_hook(int64_t what);
void ev_test_hook(int64_t what)
{
	LIBSPEC_OPTS(spec_bind_opts, o, .args = {what});

	if (hook_drain) {
		hook_drained = spec_events__drain(hook_drain, 3000000000ull);
		hook_drain = NULL;
	}
	if (!hook_ev)
		return;
	if (hook_unbind)
		assert_int_equal(spec_event__unbind(hook_ev, hook_unbind), 0);
	hook_unbind = 0;
	hook_bound = spec_event__bind(hook_ev, "ev_rec", &o);
	hook_ev = NULL; /* once */
}

static void raise2(struct spec_event *ev, int64_t a0, int64_t a1)
{
	int64_t a[2] = {a0, a1};

	assert_int_equal(spec_event__raise(ev, a, 2), 0);
}

/* The trace's tags in order, as text ("1,2,3"). */
static const char *tags(struct ev_trace *t)
{
	static char buf[4096];
	size_t len = 0, i;

	buf[0] = '\0';
	for (i = 0; i < atomic_load(&t->n) && len < sizeof(buf) - 32; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%lld", i ? "," : "",
					(long long)t->rec[i].tag);
	return buf;
}

/* Looking an event up never creates it: a misspelling fails there, named. */
static void test_event_lookup_of_undeclared_name_fails_and_creates_nothing(void **state)
{
	struct spec_ev_graph *g;
	struct spec_event *a;
	struct fix f;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "Alpha");
	assert_non_null(a);
	assert_ptr_equal(spec_events__event(f.evs, "Alpha"), a);
	assert_null(spec_events__event(f.evs, "Alhpa"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(tu_last_msg(), "no event \"Alhpa\""));
	assert_non_null(strstr(tu_last_msg(), "spec_events__declare()"));
	assert_null(spec_events__event(f.evs, "Alhpa"));
	assert_int_equal(errno, ENOENT);
	assert_null(spec_events__find(f.evs, "Alhpa"));
	assert_null(spec_events__event(NULL, "Alpha"));
	assert_int_equal(errno, EINVAL);
	g = spec_events__graph(f.evs);
	assert_non_null(g);
	assert_int_equal(spec_ev_graph__nr_nodes(g), 1);
	spec_ev_graph__free(g);
	evfix_close(&f);
}

static void test_event_handlers_run_by_order_then_binding_time(void **state)
{
	struct fix f;
	struct spec_event *a;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	assert_non_null(a);
	assert_ptr_equal(spec_events__declare(f.evs, "A"), a);
	evfix_bind(a, "ev_rec", 5, 1, 0);
	evfix_bind(a, "ev_rec", -1, 2, 0);
	evfix_bind(a, "ev_rec", 5, 3, 0);
	evfix_bind(a, "ev_rec", 0, 4, 0);
	assert_int_equal(spec_event__nr_bindings(a), 4);
	raise2(a, 7, 9);
	assert_string_equal(tags(f.t), "2,4,1,3");
	assert_int_equal(f.t->rec[0].a0, 7);
	assert_int_equal(f.t->rec[3].a1, 9);
	assert_int_equal(f.t->rec[0].depth, 0);
	evfix_close(&f);
}

static void test_event_unbind_removes_one_binding(void **state)
{
	struct fix f;
	struct spec_event *a;
	int64_t id;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	evfix_bind(a, "ev_rec", 0, 1, 0);
	id = evfix_bind(a, "ev_rec", 0, 2, 0);
	evfix_bind(a, "ev_rec", 0, 3, 0);
	assert_int_equal(spec_event__unbind(a, id), 0);
	assert_int_equal(spec_event__unbind(a, id), -ENOENT);
	assert_int_equal(errno, ENOENT);
	raise2(a, 0, 0);
	assert_string_equal(tags(f.t), "1,3");
	evfix_close(&f);
}

static void test_event_nested_sync_raise_completes_before_raiser_resumes(void **state)
{
	struct fix f;
	struct spec_event *a, *b;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	b = spec_events__declare(f.evs, "B");
	evfix_bind(a, "ev_to_b", 0, 1, 100);
	evfix_bind(b, "ev_to_b", 0, 10, 1);
	evfix_bind(b, "ev_rec", 1, 50, 0);
	raise2(a, 2, 5);
	/* A(2) -> B(1) -> B(0): each raise's handlers finish before the raiser
	 * goes on (tag + 1000 is recorded after the nested raise).
	 */
	assert_string_equal(tags(f.t), "1,10,10,1010,50,1010,50,1001");
	assert_int_equal(f.t->rec[1].a1, 105);
	assert_int_equal(f.t->rec[2].depth, 2);
	evfix_close(&f);
}

static void test_event_async_raises_wait_for_poll_in_fifo_order(void **state)
{
	struct fix f;
	struct spec_event *a, *b;
	int64_t one = 1;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	b = spec_events__declare(f.evs, "B");
	evfix_bind(a, "ev_async_b", 0, 1, 0);
	evfix_bind(b, "ev_rec", 0, 2, 0);
	assert_int_equal(spec_event__raise_async(b, &one, 1), 0);
	raise2(a, 10, 0);
	/* A ran at once; its async raise of B and ours are queued. */
	assert_string_equal(tags(f.t), "1");
	assert_int_equal(spec_events__poll(f.evs, 1), 1);
	assert_string_equal(tags(f.t), "1,2");
	assert_int_equal(f.t->rec[1].a0, 1);
	assert_int_equal(spec_events__poll(f.evs, 0), 1);
	assert_int_equal(f.t->rec[2].a0, 11);
	assert_int_equal(f.t->rec[2].depth, 0);
	assert_int_equal(spec_events__poll(f.evs, 0), 0);
	evfix_close(&f);
}

static void test_event_delayed_raises_run_by_deadline_and_cancel(void **state)
{
	struct fix f;
	struct spec_event *b;
	int64_t t1, t2, t3, a;

	(void)state;
	evfix_open_bare(&f, NULL);
	b = spec_events__declare(f.evs, "B");
	evfix_bind(b, "ev_rec", 0, 7, 0);
	a = 30;
	t1 = spec_event__raise_delayed(b, 30000000, &a, 1);
	a = 10;
	t2 = spec_event__raise_delayed(b, 10000000, &a, 1);
	a = 20;
	t3 = spec_event__raise_delayed(b, 20000000, &a, 1);
	assert_true(t1 > 0 && t2 > 0 && t3 > 0);
	assert_int_equal(spec_events__poll(f.evs, 0), 0); /* nothing due yet */
	assert_int_equal(spec_events__cancel(f.evs, t3), 0);
	assert_int_equal(spec_events__cancel(f.evs, t3), -ENOENT);
	assert_int_equal(spec_events__drain(f.evs, 2000000000ull), 0);
	assert_int_equal(atomic_load(&f.t->n), 2);
	assert_int_equal(f.t->rec[0].a0, 10);
	assert_int_equal(f.t->rec[1].a0, 30);
	assert_int_equal(spec_events__cancel(f.evs, t1), -ENOENT); /* dispatched */
	evfix_close(&f);
}

/* A delay past SPEC_EV_MAX_DELAY_NS would wrap now + delay into the past
 * and run at once: the service's raise is refused with -ERANGE, a
 * handler's dropped; the longest delay allowed waits.
 */
static void test_event_delayed_raise_of_a_huge_delay_is_refused_not_wrapped(void **state)
{
	struct fix f;
	struct spec_event *a, *b;
	int64_t t, one = 1;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	b = spec_events__declare(f.evs, "B");
	evfix_bind(b, "ev_rec", 0, 2, 0);
	errno = 0;
	assert_int_equal(spec_event__raise_delayed(b, UINT64_MAX, &one, 1), -ERANGE);
	assert_int_equal(errno, ERANGE);
	assert_int_equal(spec_event__raise_delayed(b, SPEC_EV_MAX_DELAY_NS + 1, &one, 1), -ERANGE);
	t = spec_event__raise_delayed(b, SPEC_EV_MAX_DELAY_NS, &one, 1);
	assert_true(t > 0);
	assert_int_equal(spec_events__poll(f.evs, 0), 0); /* waits, does not run now */
	assert_int_equal(spec_events__cancel(f.evs, t), 0);
	/* a handler's delay of -1 (bind argument 1) is UINT64_MAX ns */
	evfix_bind(a, "ev_delayed_b", 0, 1, -1);
	raise2(a, 3, 4);
	assert_int_equal(spec_events__poll(f.evs, 0), 0);
	assert_string_equal(tags(f.t), "1");
	evfix_close(&f);
}

static void test_event_dispatch_thread_runs_async_and_delayed(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .dispatch_thread = true);
	struct fix f;
	struct spec_event *a, *b;

	(void)state;
	evfix_open_bare(&f, &o);
	a = spec_events__declare(f.evs, "A");
	b = spec_events__declare(f.evs, "B");
	evfix_bind(a, "ev_delayed_b", 0, 1, 5000000);
	evfix_bind(b, "ev_rec", 0, 2, 0);
	raise2(a, 3, 4);
	assert_int_equal(spec_events__drain(f.evs, 2000000000ull), 0);
	assert_string_equal(tags(f.t), "1,2");
	assert_int_equal(f.t->rec[1].a0, 5);
	evfix_close(&f);
}

/* "No timeout" spelled UINT64_MAX: now + timeout must not wrap into the
 * past (an immediate -ETIMEDOUT with the raise still queued).
 */
static void test_event_drain_with_the_longest_timeout_waits(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .dispatch_thread = true);
	struct fix f;
	struct spec_event *b;
	int64_t one = 1;

	(void)state;
	evfix_open_bare(&f, &o);
	b = spec_events__declare(f.evs, "B");
	evfix_bind(b, "ev_rec", 0, 2, 0);
	assert_true(spec_event__raise_delayed(b, 50000000, &one, 1) > 0);
	assert_int_equal(spec_events__drain(f.evs, UINT64_MAX), 0);
	assert_string_equal(tags(f.t), "2");
	evfix_close(&f);
}

static uint64_t clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A timer due after the timeout is not waited for (the longest delay is
 * allowed now): drain returns 0 at once, in both dispatch modes.
 */
static void test_event_drain_does_not_wait_for_a_timer_due_later(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .dispatch_thread = true);
	struct spec_events_opts *modes[] = {NULL, &o};
	uint64_t t0;
	struct fix f;
	struct spec_event *b;
	int64_t t, one = 1;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		evfix_open_bare(&f, modes[i]);
		b = spec_events__declare(f.evs, "B");
		evfix_bind(b, "ev_rec", 0, 2, 0);
		t = spec_event__raise_delayed(b, SPEC_EV_MAX_DELAY_NS, &one, 1);
		assert_true(t > 0);
		assert_true(spec_event__raise_delayed(b, 1000000, &one, 1) > 0);
		t0 = clock_ns();
		assert_int_equal(spec_events__drain(f.evs, 5000000000ull), 0);
		assert_true(clock_ns() - t0 < 2000000000ull);
		assert_string_equal(tags(f.t), "2");
		assert_int_equal(spec_events__cancel(f.evs, t), 0);
		evfix_close(&f);
	}
}

/* A handler on the dispatch thread that drains would wait for itself
 * (with UINT64_MAX, forever): refused at once, -EDEADLK.
 */
static void test_event_drain_from_the_dispatch_thread_is_refused(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .dispatch_thread = true);
	struct fix f;
	struct spec_event *a;
	int64_t one = 1;
	uint64_t t0;

	(void)state;
	evfix_open_bare(&f, &o);
	a = spec_events__declare(f.evs, "A");
	evfix_bind(a, "ev_rebind", 0, 1, 3);
	hook_drained = 1;
	hook_drain = f.evs;
	t0 = clock_ns();
	assert_int_equal(spec_event__raise_async(a, &one, 1), 0);
	assert_int_equal(spec_events__drain(f.evs, 10000000000ull), 0);
	assert_int_equal(hook_drained, -EDEADLK);
	assert_true(clock_ns() - t0 < 2000000000ull);
	evfix_close(&f);
}

static void test_event_rebinding_during_a_raise_applies_to_the_next(void **state)
{
	struct fix f;
	struct spec_event *a, *b;

	(void)state;
	evfix_open_bare(&f, NULL);
	a = spec_events__declare(f.evs, "A");
	b = spec_events__declare(f.evs, "B");
	evfix_bind(a, "ev_rebind", 0, 1, 3); /* hook binds ev_rec tag 3 to B */
	evfix_bind(b, "ev_rec", 0, 2, 0);
	hook_unbind = evfix_bind(b, "ev_rec", 0, 4, 0);
	hook_ev = b;
	raise2(a, 0, 0);
	/* B's raise started after the hook: it sees the new bindings. */
	assert_string_equal(tags(f.t), "1,2,3");
	atomic_store(&f.t->n, 0);
	hook_ev = a;
	hook_unbind = 0;
	raise2(a, 0, 0);
	/* The hook bound tag 9 to A during A's raise: not seen by that raise. */
	assert_string_equal(tags(f.t), "1,2,3");
	atomic_store(&f.t->n, 0);
	raise2(a, 0, 0);
	assert_true(hook_bound > 0);
	assert_string_equal(tags(f.t), "1,2,3,3");
	evfix_close(&f);
}

/* A misspelled name runs nothing and says so: counted, warned, last_error. */
static void test_event_raise_of_unknown_name_is_an_error(void **state)
{
	struct spec_events_stats st;
	struct spec_event *a;
	char msg[256];
	struct fix f;

	(void)state;
	evfix_open_bare(&f, NULL);
	/* Handlers need no points: an event-only IR is not warned about. */
	assert_null(strstr(tu_last_msg(), "no specialization points"));
	a = spec_events__declare(f.evs, "A");
	evfix_bind(a, "ev_to_nowhere", 0, 1, 0);
	raise2(a, 0, 0);
	assert_string_equal(tags(f.t), "1");
	assert_null(spec_events__find(f.evs, "NoSuchEvent"));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(tu_last_msg(), "'NoSuchEvent' from handler 'ev_to_nowhere'"));
	assert_int_equal(spec_runtime__last_error(f.rt, msg, sizeof(msg)), -ENOENT);
	assert_non_null(strstr(msg, "unknown event 'NoSuchEvent' from handler 'ev_to_nowhere'"));
	raise2(a, 0, 0);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.unknown_raises, 2);
	/* last_error counts what the counter counts, also between warnings. */
	raise2(a, 0, 0);
	assert_int_equal(spec_runtime__last_error(f.rt, msg, sizeof(msg)), -ENOENT);
	assert_int_equal(spec_events__stats(f.evs, &st, sizeof(st)), 0);
	assert_int_equal(st.unknown_raises, 3);
	assert_non_null(strstr(msg, "(3 such raises)"));
	/* A merge that works clears it. */
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = &a, .nr_events = 1);

		assert_int_equal(spec_events__merge(f.evs, &mo), 1);
	}
	assert_int_equal(spec_runtime__last_error(f.rt, msg, sizeof(msg)), 0);
	evfix_close(&f);
}

static void test_event_bad_input_is_refused_and_named(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .max_events = 2);
	struct fix f;
	struct spec_event *a;
	int64_t args[5] = {0};

	(void)state;
	evfix_open_bare(&f, &o);
	a = spec_events__declare(f.evs, "A");
	assert_non_null(spec_events__declare(f.evs, "B"));
	assert_null(spec_events__declare(f.evs, "C"));
	assert_int_equal(errno, ENOSPC);
	assert_null(spec_events__declare(f.evs, "bad\tname"));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(tu_last_msg(), "bad\tname"));
	{
		char longname[300];

		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		assert_null(spec_events__declare(f.evs, longname));
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(tu_last_msg(), "299 bytes"));
	}
	assert_int_equal(spec_event__bind(a, "ev_not_a_handler", NULL), -EINVAL);
	assert_non_null(strstr(tu_last_msg(), "ev_not_a_handler"));
	assert_int_equal(spec_event__bind(a, "no_such_fn", NULL), -ENOENT);
	assert_int_equal(spec_event__nr_bindings(a), 0);
	assert_int_equal(spec_event__raise(a, args, 5), -EINVAL);
	assert_int_equal(spec_events__cancel(f.evs, 12345), -ENOENT);
	evfix_close(&f);
}

static void test_event_system_must_precede_load(void **state)
{
	struct spec_runtime *rt = tu_open("events");

	(void)state;
	assert_int_equal(spec_runtime__load(rt), 0);
	assert_null(spec_events__new(rt, NULL));
	assert_int_equal(errno, EBUSY);
	assert_non_null(strstr(tu_last_msg(), "before spec_runtime__load"));
	spec_runtime__close(rt);
}

static struct fix f_graph;

static void test_event_graph_counts_edges_and_exports(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .sample_every = 1);
	const struct spec_ev_edge *e;
	struct spec_ev_graph *g;
	struct spec_event *a, *b, *c;
	char buf[2048];
	int i, len;

	(void)state;
	evfix_open_bare(&f_graph, &o);
	a = spec_events__declare(f_graph.evs, "A");
	b = spec_events__declare(f_graph.evs, "B");
	c = spec_events__declare(f_graph.evs, "C");
	evfix_bind(a, "ev_to_b", 0, 1, 0);
	evfix_bind(b, "ev_rec", 0, 2, 0);
	evfix_bind(c, "ev_rec", 0, 3, 0);
	for (i = 0; i < 3; i++)
		raise2(a, 1, 0);
	assert_int_equal(spec_event__raise_async(c, NULL, 0), 0);
	assert_int_equal(spec_event__raise_async(c, NULL, 0), 0);
	assert_int_equal(spec_events__poll(f_graph.evs, 0), 2);

	g = spec_events__graph(f_graph.evs);
	assert_non_null(g);
	assert_int_equal(spec_ev_graph__nr_nodes(g), 3);
	assert_int_equal(spec_ev_graph__node(g, 0)->count, 3);
	assert_int_equal(spec_ev_graph__node(g, 1)->count, 3);
	assert_int_equal(spec_ev_graph__node(g, 2)->count, 2);
	assert_int_equal(spec_ev_graph__nr_edges(g), 3);
	e = spec_ev_graph__edge(g, 0);
	assert_true(e->from == 0 && e->to == 1 && e->kind == SPEC_EV_SYNC && e->count == 3);
	e = spec_ev_graph__edge(g, 1);
	assert_true(e->from == SPEC_EV_ROOT && e->to == 0 && e->count == 3);
	e = spec_ev_graph__edge(g, 2);
	assert_true(e->from == SPEC_EV_ROOT && e->to == 2 && e->kind == SPEC_EV_ASYNC);
	assert_null(spec_ev_graph__edge(g, 3));
	assert_int_equal(errno, ERANGE);
	/* By handler: ev_to_b raised B three times (C and A by the service). */
	assert_int_equal(spec_ev_graph__nr_handler_edges(g), 1);
	assert_string_equal(spec_ev_graph__handler_edge(g, 0)->handler, "ev_to_b");
	assert_int_equal(spec_ev_graph__handler_edge(g, 0)->to, 1);
	assert_int_equal(spec_ev_graph__handler_edge(g, 0)->count, 3);

	len = spec_ev_graph__dot(g, buf, sizeof(buf));
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	assert_int_equal(spec_ev_graph__dot(g, NULL, 0), len);
	assert_non_null(strstr(buf, "\"A\" -> \"B\" [label=\"3\"];"));
	assert_non_null(strstr(buf, "\"(service)\" -> \"C\" [label=\"2\", style=dashed];"));
	assert_non_null(strstr(buf, "\"C\" [label="));
	len = spec_ev_graph__json(g, buf, sizeof(buf));
	assert_true(len > 0 && (size_t)len < sizeof(buf));
	assert_non_null(strstr(buf, "{\"from\":\"A\",\"to\":\"B\",\"kind\":\"sync\",\"count\":3}"));
	assert_non_null(strstr(buf, "{\"from\":null,\"to\":\"C\",\"kind\":\"async\",\"count\":2}"));
	assert_non_null(
		strstr(buf, "\"handlers\":[{\"handler\":\"ev_to_b\",\"to\":\"B\",\"kind\":\"sync\","
			    "\"count\":3}]"));

	/* Fig. 6: edges below 0.9 x the heaviest go, and C with them. */
	assert_int_equal(spec_ev_graph__reduce(g, 1.5), -EINVAL);
	assert_int_equal(spec_ev_graph__reduce(g, 0.9), 0);
	assert_int_equal(spec_ev_graph__nr_edges(g), 2);
	spec_ev_graph__dot(g, buf, sizeof(buf));
	assert_null(strstr(buf, "\"C\""));
	assert_non_null(strstr(buf, "\"B\" [label="));
	spec_ev_graph__json(g, buf, sizeof(buf));
	assert_null(strstr(buf, "\"C\""));
	spec_ev_graph__free(g);

	assert_int_equal(spec_events__reset_graph(f_graph.evs), 0);
	g = spec_events__graph(f_graph.evs);
	assert_int_equal(spec_ev_graph__nr_edges(g), 0);
	assert_int_equal(spec_ev_graph__node(g, 0)->count, 0);
	spec_ev_graph__free(g);
	evfix_close(&f_graph);
}

/* Quotes and backslashes in names come out escaped in DOT and JSON. */
static void test_event_graph_export_escapes_names(void **state)
{
	LIBSPEC_OPTS(spec_events_opts, o, .sample_every = 1);
	struct spec_ev_graph *g;
	struct spec_event *ev;
	char buf[1024];
	struct fix f;

	(void)state;
	evfix_open_bare(&f, &o);
	ev = spec_events__declare(f.evs, "say \"hi\" \\o/");
	assert_non_null(ev);
	evfix_bind(ev, "ev_rec", 0, 1, 0);
	assert_int_equal(spec_event__raise(ev, NULL, 0), 0);
	g = spec_events__graph(f.evs);
	assert_non_null(g);
	assert_true(spec_ev_graph__dot(g, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "\"(service)\" -> \"say \\\"hi\\\" \\\\o/\" [label=\"1\"];"));
	assert_true(spec_ev_graph__json(g, buf, sizeof(buf)) > 0);
	assert_non_null(
		strstr(buf, "{\"from\":null,\"to\":\"say \\\"hi\\\" \\\\o/\",\"kind\":\"sync\""));
	spec_ev_graph__free(g);
	evfix_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_graph_export_escapes_names),
		cmocka_unit_test(test_event_lookup_of_undeclared_name_fails_and_creates_nothing),
		cmocka_unit_test(test_event_handlers_run_by_order_then_binding_time),
		cmocka_unit_test(test_event_unbind_removes_one_binding),
		cmocka_unit_test(test_event_nested_sync_raise_completes_before_raiser_resumes),
		cmocka_unit_test(test_event_async_raises_wait_for_poll_in_fifo_order),
		cmocka_unit_test(test_event_delayed_raises_run_by_deadline_and_cancel),
		cmocka_unit_test(test_event_delayed_raise_of_a_huge_delay_is_refused_not_wrapped),
		cmocka_unit_test(test_event_dispatch_thread_runs_async_and_delayed),
		cmocka_unit_test(test_event_drain_with_the_longest_timeout_waits),
		cmocka_unit_test(test_event_drain_does_not_wait_for_a_timer_due_later),
		cmocka_unit_test(test_event_drain_from_the_dispatch_thread_is_refused),
		cmocka_unit_test(test_event_rebinding_during_a_raise_applies_to_the_next),
		cmocka_unit_test(test_event_raise_of_unknown_name_is_an_error),
		cmocka_unit_test(test_event_bad_input_is_refused_and_named),
		cmocka_unit_test(test_event_system_must_precede_load),
		cmocka_unit_test(test_event_graph_counts_edges_and_exports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
