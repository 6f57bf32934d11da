/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the events benchmark parts: timing a batch of raises. */
#ifndef BENCH_EVENTS_H
#define BENCH_EVENTS_H

#include <stdint.h>

#include "ctp_stack.h"

/* Best ns per raise of @ev over @reps batches of @n raises with @args. */
double bench_raise_ns(struct ctp_stack *s, enum ctp_event ev, const int64_t *args, int nargs, int n,
		      int reps);
double bench_raise_ev_ns(struct spec_event *e, const int64_t *args, int nargs, int n, int reps);

#endif /* BENCH_EVENTS_H */
