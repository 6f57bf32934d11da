// SPDX-License-Identifier: GPL-2.0
/*
 * CTP (examples/ctp) differential test: the same messages through a lossy
 * link deliver the same bytes, and every micro-protocol does the same
 * things in the same order, with generic dispatch, with merged handlers,
 * and with the optimizer rebuilding while another thread binds and
 * unbinds a neutral handler at random.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ctp_stack.h"
#include "events/event_registry.h"
#include "jit/jit_event.h"
#include "testutil.h"

#define NR_MSGS 120

struct outcome {
	uint64_t effects, effect_hash;
	struct ctp_effect log[CTP_LOG];
	int64_t delivered, retrans, recovered, drops, next_seq;
	uint64_t stats_calls;
};

static uint8_t *stream(int64_t *total, int64_t *sizes)
{
	uint8_t *buf = malloc(CTP_STREAM);
	uint64_t seed = 7;
	int64_t i, n = 0;

	assert_non_null(buf);
	for (i = 0; i < NR_MSGS; i++) {
		sizes[i] = 1 + (int64_t)(tu_rand(&seed) % 2000);
		n += sizes[i];
	}
	assert_true(n <= CTP_STREAM);
	for (i = 0; i < n; i++)
		buf[i] = (uint8_t)tu_rand(&seed);
	*total = n;
	return buf;
}

/*
 * GENERIC_TOGGLED: REBINDING's audit moves, generic dispatch only;
 * MERGED_TOGGLED: the same moves on code merged once, no optimizer (every
 * move leaves stale merged code that only its guards keep out).
 */
enum mode { GENERIC, MERGED, REBINDING, GENERIC_TOGGLED, MERGED_TOGGLED };

/*
 * Bind ctp_audit (effects the comparison sees) to the next event of a fixed
 * cycle, tagged @k, after unbinding the previous one: the same in the
 * reference and the rebinding run, while the optimizer rebuilds.
 */
static int64_t toggle_audit(struct ctp_stack *s, int64_t k, int64_t prev_id,
			    struct spec_event **prev_ev)
{
	/* From k = 2 (message 25) on: Seg2Net first, inlined into SegFromUser. */
	static const enum ctp_event cycle[] = {CTP_SEGMENT_ACKED, CTP_ADAPT,	    CTP_SEG2NET,
					       CTP_SEG_FROM_USER, CTP_SEG_FROM_NET, CTP_SEG2NET};
	LIBSPEC_OPTS(spec_bind_opts, o, .order = 10, .args = {k});
	struct spec_event *ev = s->ev[cycle[k % (int64_t)(sizeof(cycle) / sizeof(cycle[0]))]];
	int64_t id;

	if (*prev_ev)
		assert_int_equal(spec_event__unbind(*prev_ev, prev_id), 0);
	id = spec_event__bind(ev, "ctp_audit", &o);
	assert_true(id > 0);
	*prev_ev = ev;
	return id;
}

struct rebinder {
	struct ctp_stack *s;
	_Atomic bool stop;
	_Atomic uint64_t rebinds;
};

/* Bind ctp_stats to a random event, wait a little, unbind it. */
static void *rebind_loop(void *arg)
{
	struct rebinder *r = arg;
	uint64_t seed = 99;
	LIBSPEC_OPTS(spec_bind_opts, first);
	int64_t id = spec_event__bind(r->s->ev[CTP_MSG_FROM_USER], "ctp_stats", &first);

	/* Once on the event every send raises, until it ran: a random event
	 * alone may never be raised while bound, on a loaded machine.
	 */
	assert_true(id > 0);
	while (!atomic_load(&r->stop) && !__atomic_load_n(&r->s->c->stats_calls, __ATOMIC_RELAXED))
		nanosleep(&(struct timespec){.tv_nsec = 100000}, NULL);
	assert_int_equal(spec_event__unbind(r->s->ev[CTP_MSG_FROM_USER], id), 0);
	while (!atomic_load(&r->stop)) {
		struct spec_event *ev = r->s->ev[tu_rand(&seed) % CTP_NR_EVENTS];
		LIBSPEC_OPTS(spec_bind_opts, o, .order = (int)(tu_rand(&seed) % 7) - 3);
		id = spec_event__bind(ev, "ctp_stats", &o);

		assert_true(id > 0);
		nanosleep(&(struct timespec){.tv_nsec = (long)(tu_rand(&seed) % 2000000)}, NULL);
		assert_int_equal(spec_event__unbind(ev, id), 0);
		atomic_fetch_add(&r->rebinds, 1);
		nanosleep(&(struct timespec){.tv_nsec = (long)(tu_rand(&seed) % 2000000)}, NULL);
	}
	return NULL;
}

/* Let the optimizer finish one more build (rebindings keep it busy). */
static void wait_for_a_build(struct ctp_stack *s)
{
	struct spec_events_stats st;
	uint64_t before;
	int i;

	spec_events__stats(s->evs, &st, sizeof(st));
	before = st.builds;
	for (i = 0; i < 5000 && st.builds == before; i++) {
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
		spec_events__stats(s->evs, &st, sizeof(st));
	}
}

static void run(enum mode mode, unsigned int mutate, struct outcome *out)
{
	struct spec_event *audit_ev = NULL;
	int64_t audit_id = 0;
	struct ctp_opts o = {.ir = tu_ir("ctp"),
			     .frag = 96,
			     .drop_mod = 6,
			     .fec = true,
			     .optimize = mode == REBINDING,
			     .sample_every = 8,
			     .print = tu_print};
	struct rebinder r = {0};
	int64_t sizes[NR_MSGS], total, i;
	struct ctp_stack s;
	uint8_t *msgs = stream(&total, sizes), *p = msgs;
	pthread_t t;

	tu_capture();
	assert_int_equal(ctp_open(&s, &o), 0);
	s.evs->test_mutate = mutate;
	if (mode == MERGED || mode == MERGED_TOGGLED)
		assert_int_equal(spec_events__merge(s.evs, NULL), CTP_NR_EVENTS);
	if (mode == REBINDING) {
		r.s = &s;
		assert_int_equal(pthread_create(&t, NULL, rebind_loop, &r), 0);
	}
	for (i = 0; i < NR_MSGS; i++) {
		assert_int_equal(ctp_send(&s, p, sizes[i]), 0);
		p += sizes[i];
		if (i % 8 == 7)
			assert_int_equal(ctp_tick(&s), 0);
		if (mode == REBINDING && i % 20 == 19)
			wait_for_a_build(&s);
		if (mode >= REBINDING && i >= 20 && i % 10 == 5)
			audit_id = toggle_audit(&s, i / 10, audit_id, &audit_ev);
	}
	if (mode == REBINDING) {
		struct spec_events_stats st;

		atomic_store(&r.stop, true);
		pthread_join(t, NULL);
		assert_true(atomic_load(&r.rebinds) > 10);
		assert_int_equal(spec_events__stats(s.evs, &st, sizeof(st)), 0);
		assert_true(st.builds >= 4);
	}
	/* The same bytes arrived. */
	assert_int_equal(s.c->delivered, total);
	assert_memory_equal(s.c->rx, msgs, (size_t)total);
	out->effects = s.c->effects;
	out->effect_hash = s.c->effect_hash;
	memcpy(out->log, s.c->log, sizeof(out->log));
	out->delivered = s.c->delivered;
	out->retrans = s.c->retrans;
	out->recovered = s.c->recovered;
	out->drops = s.c->drops;
	out->next_seq = s.c->next_seq;
	out->stats_calls = (uint64_t)s.c->stats_calls;
	if (mode == MERGED) {
		for (i = 0; i < CTP_NR_EVENTS; i++)
			assert_true(spec_event__is_merged(s.ev[i]));
	}
	ctp_close(&s);
	free(msgs);
}

static void assert_same(const struct outcome *a, const struct outcome *b)
{
	uint64_t i, n = a->effects < CTP_LOG ? a->effects : CTP_LOG;

	assert_int_equal(a->effects, b->effects);
	for (i = 0; i < n; i++) {
		if (memcmp(&a->log[i], &b->log[i], sizeof(a->log[i])))
			fail_msg("effect %llu: handler %lld seq %lld value %lld vs handler %lld "
				 "seq %lld value %lld",
				 (unsigned long long)i, (long long)a->log[i].handler,
				 (long long)a->log[i].seq, (long long)a->log[i].value,
				 (long long)b->log[i].handler, (long long)b->log[i].seq,
				 (long long)b->log[i].value);
	}
	assert_int_equal(a->effect_hash, b->effect_hash);
	assert_int_equal(a->retrans, b->retrans);
	assert_int_equal(a->recovered, b->recovered);
	assert_int_equal(a->next_seq, b->next_seq);
}

static struct outcome *reference(void)
{
	static struct outcome ref;
	static bool done;

	if (!done) {
		run(GENERIC, 0, &ref);
		done = true;
	}
	return &ref;
}

static struct outcome *reference_toggled(void)
{
	static struct outcome ref;
	static bool done;

	if (!done) {
		run(GENERIC_TOGGLED, 0, &ref);
		done = true;
	}
	return &ref;
}

static bool same(const struct outcome *a, const struct outcome *b)
{
	return a->effects == b->effects && a->effect_hash == b->effect_hash &&
	       !memcmp(a->log, b->log,
		       sizeof(a->log[0]) * (a->effects < CTP_LOG ? a->effects : CTP_LOG));
}

static void test_ctp_generic_run_delivers_through_loss_and_recovery(void **state)
{
	const struct outcome *ref = reference();

	(void)state;
	/* The workload reaches every micro-protocol's interesting path. */
	assert_true(ref->drops > 20);
	assert_true(ref->retrans > 5);
	assert_true(ref->recovered > 5);
	assert_true(ref->effects > 5000);
}

static void test_ctp_merged_handlers_do_the_same_as_generic(void **state)
{
	struct outcome *got = malloc(sizeof(*got));

	(void)state;
	assert_non_null(got);
	run(MERGED, 0, got);
	assert_same(reference(), got);
	free(got);
}

/*
 * The optimizer rebuilding while a thread binds and unbinds a no-op handler
 * at random and the main thread moves an effectful one (ctp_audit) from
 * event to event: the effects are those of generic dispatch with the same
 * audit moves, so every raise after a move, inlined ones included, saw it.
 */
static void test_ctp_same_under_random_rebinding_and_rebuilds(void **state)
{
	struct outcome *got = malloc(sizeof(*got));
	const struct outcome *ref = reference_toggled();
	uint64_t i, audits = 0;

	(void)state;
	assert_non_null(got);
	for (i = 0; i < ref->effects && i < CTP_LOG; i++)
		audits += ref->log[i].handler == 17; /* H_AUDIT */
	assert_true(audits > 10);
	assert_false(same(reference(), ref));
	run(REBINDING, 0, got);
	assert_same(ref, got);
	assert_true(got->stats_calls > 0);
	free(got);
}

/*
 * Code merged once, then the audit moves with no rebuild: the guards alone
 * send every raise of a moved-to event (SegFromUser's inlined Seg2Net too)
 * to generic dispatch. With the inner guards switched off the effects
 * differ: the comparison notices code that ignores a rebinding.
 */
static void test_ctp_guards_alone_keep_stale_merged_code_out(void **state)
{
	struct outcome *got = malloc(sizeof(*got));
	const struct outcome *ref = reference_toggled();

	(void)state;
	assert_non_null(got);
	run(MERGED_TOGGLED, 0, got);
	assert_true(same(ref, got));
	run(MERGED_TOGGLED, JIT_EV_MUT_NO_GUARD, got);
	assert_false(same(ref, got));
	free(got);
}

/* The text of @ir's function defining @name (a prefix up to the build id). */
static char *entry_body(const char *ir, const char *prefix)
{
	char head[64];
	const char *p, *end;
	char *body;

	snprintf(head, sizeof(head), "define void @%s", prefix);
	p = strstr(ir, head);
	if (!p)
		return NULL;
	p = strchr(p, '('); /* past the entry's own name */
	end = strstr(p, "\n}\n");
	assert_non_null(end);
	body = strndup(p, (size_t)(end - p));
	assert_non_null(body);
	return body;
}

/*
 * Every synchronous edge between merged events that the sampled graph
 * keeps at 5 % of the heaviest is inlined into its raiser's entry under
 * the raised event's guard, and no site is left a call.
 */
static void test_ctp_every_hot_chain_is_subsumed(void **state)
{
	struct ctp_opts o = {.ir = tu_ir("ctp"),
			     .frag = 96,
			     .drop_mod = 6,
			     .fec = true,
			     .sample_every = 1,
			     .print = tu_print};
	int64_t sizes[NR_MSGS], total, i;
	uint8_t *msgs = stream(&total, sizes), *p = msgs;
	struct spec_events_stats st;
	struct spec_ev_graph *g;
	size_t e, checked = 0;
	struct ctp_stack s;
	char *ir;

	(void)state;
	tu_capture();
	assert_int_equal(ctp_open(&s, &o), 0);
	for (i = 0; i < 40; i++) {
		assert_int_equal(ctp_send(&s, p, sizes[i]), 0);
		p += sizes[i];
		if (i % 8 == 7)
			assert_int_equal(ctp_tick(&s), 0);
	}
	s.evs->keep_ir = true;
	assert_true(spec_events__merge(s.evs, NULL) > 0);
	assert_int_equal(spec_events__stats(s.evs, &st, sizeof(st)), 0);
	assert_true(st.subsumed > 0);
	assert_int_equal(st.subsumed_calls, 0);
	pthread_mutex_lock(&s.evs->code_lock);
	ir = s.evs->last_ir;
	s.evs->last_ir = NULL;
	pthread_mutex_unlock(&s.evs->code_lock);
	assert_non_null(ir);
	g = spec_events__graph(s.evs);
	assert_non_null(g);
	assert_int_equal(spec_ev_graph__reduce(g, 0.05), 0);
	for (e = 0; e < spec_ev_graph__nr_edges(g); e++) {
		const struct spec_ev_edge *ed = spec_ev_graph__edge(g, e);
		struct spec_event *from, *to;
		char prefix[32], guard[96], *body;

		if (ed->kind != SPEC_EV_SYNC || ed->from == SPEC_EV_ROOT)
			continue;
		/* Node indices are the reduced graph's own: go by name. */
		from = spec_events__find(s.evs, spec_ev_graph__node(g, ed->from)->name);
		to = spec_events__find(s.evs, spec_ev_graph__node(g, ed->to)->name);
		assert_non_null(from);
		assert_non_null(to);
		if (!spec_event__is_merged(from) || !spec_event__is_merged(to))
			continue;
		snprintf(prefix, sizeof(prefix), "__ev.%u.m", from->idx);
		body = entry_body(ir, prefix);
		assert_non_null(body);
		snprintf(guard, sizeof(guard), "inttoptr (i64 %llu to ptr) acquire",
			 (unsigned long long)(uintptr_t)&to->version);
		if (!strstr(body, guard) || strstr(body, " @__ev."))
			fail_msg("hot edge %s -> %s (%llu samples) is not inlined under its guard",
				 from->name, to->name, (unsigned long long)ed->count);
		free(body);
		checked++;
	}
	/* SegFromUser -> Seg2Net and SegFromNet -> SegmentAcked at least. */
	assert_true(checked >= 2);
	spec_ev_graph__free(g);
	free(ir);
	ctp_close(&s);
	free(msgs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ctp_generic_run_delivers_through_loss_and_recovery),
		cmocka_unit_test(test_ctp_merged_handlers_do_the_same_as_generic),
		cmocka_unit_test(test_ctp_same_under_random_rebinding_and_rebuilds),
		cmocka_unit_test(test_ctp_guards_alone_keep_stale_merged_code_out),
		cmocka_unit_test(test_ctp_every_hot_chain_is_subsumed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
