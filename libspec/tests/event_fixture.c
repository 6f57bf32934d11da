// SPDX-License-Identifier: GPL-2.0
/* The event tests' shared fixture: runtime, events A-D bound as a chain. */
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

int64_t evfix_bind(struct spec_event *ev, const char *h, int order, int64_t tag, int64_t b1)
{
	LIBSPEC_OPTS(spec_bind_opts, o, .order = order, .args = {tag, b1});
	int64_t id = spec_event__bind(ev, h, &o);

	assert_true(id > 0);
	return id;
}

void evfix_open_bare(struct fix *f, const struct spec_events_opts *opts)
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
}

/* A -> B -> {C, A again}: a chain with recursion and constants to fold. */
void evfix_open(struct fix *f, const struct spec_events_opts *opts)
{
	evfix_open_bare(f, opts);
	f->a = spec_events__declare(f->evs, "A");
	f->b = spec_events__declare(f->evs, "B");
	f->c = spec_events__declare(f->evs, "C");
	f->d = spec_events__declare(f->evs, "D");
	evfix_bind(f->a, "ev_to_b", 0, 1, 100);
	evfix_bind(f->a, "ev_rec", 1, 2, 0);
	evfix_bind(f->b, "ev_to_c", 0, 10, 0);
	evfix_bind(f->b, "ev_rec", -1, 11, 0);
	evfix_bind(f->c, "ev_rec", 0, 20, 0);
	evfix_bind(f->c, "ev_add", 0, 3, 4);
	evfix_bind(f->c, "ev_add", 0, -7, 1);
	evfix_bind(f->d, "ev_rec", 0, 30, 0);
}

void evfix_close(struct fix *f)
{
	spec_events__free(f->evs);
	spec_runtime__close(f->rt);
	free(f->t);
}

/* Raise A with a spread of arguments; returns a copy of what happened. */
struct ev_trace *evfix_workload(struct fix *f)
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

void evfix_assert_same(const struct ev_trace *x, const struct ev_trace *y)
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

uint64_t evfix_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Raise A until @ev is merged (or 30 s passed). */
bool evfix_raise_until_merged(struct fix *f, struct spec_event *ev)
{
	uint64_t end = evfix_now_ms() + 30000;
	int64_t args[2] = {1, 0};

	while (evfix_now_ms() < end) {
		if (spec_event__is_merged(ev))
			return true;
		assert_int_equal(spec_event__raise(f->a, args, 2), 0);
		atomic_store(&f->t->n, 0);
		nanosleep(&(struct timespec){.tv_nsec = 200000}, NULL);
	}
	return false;
}
