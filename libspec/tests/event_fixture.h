/* SPDX-License-Identifier: GPL-2.0 */
/* Fixture of the event tests (handlers in tests/handlers/events.c). */
#ifndef EVENT_FIXTURE_H
#define EVENT_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "handlers/events_trace.h"
#include "libspec/events.h"

struct fix {
	struct spec_runtime *rt;
	struct spec_events *evs;
	struct ev_trace *t;
	struct spec_event *a, *b, *c, *d;
};

/* Bind @h to @ev with @order and bind arguments {tag, b1}; fails the test
 * on error. Returns the binding id.
 */
int64_t evfix_bind(struct spec_event *ev, const char *h, int order, int64_t tag, int64_t b1);
/* The runtime and an event system recording into a fresh trace, nothing
 * bound; @opts (may be NULL) with .user replaced by the trace.
 */
void evfix_open_bare(struct fix *f, const struct spec_events_opts *opts);
/* A -> B -> {C, A again}: a chain with recursion and constants to fold; D
 * bound, never raised.
 */
void evfix_open(struct fix *f, const struct spec_events_opts *opts);
void evfix_close(struct fix *f);
/* Raise A with a spread of arguments; returns a copy of what happened. */
struct ev_trace *evfix_workload(struct fix *f);
/* Same records, count and sum, or fail naming the first difference. */
void evfix_assert_same(const struct ev_trace *x, const struct ev_trace *y);
uint64_t evfix_now_ms(void);
/* Raise A until @ev is merged (or 30 s passed). */
bool evfix_raise_until_merged(struct fix *f, struct spec_event *ev);

#endif /* EVENT_FIXTURE_H */
