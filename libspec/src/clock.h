/* SPDX-License-Identifier: GPL-2.0 */
/* The clocks the runtime times and waits with. */
#ifndef LIBSPEC_CLOCK_H
#define LIBSPEC_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns: durations, event deadlines. */
uint64_t clock_mono_ns(void);
/* CLOCK_REALTIME @ns from now, for pthread_cond_timedwait() on a
 * condition variable with the default clock.
 */
void clock_wait_until(struct timespec *ts, uint64_t ns);
/* Whether CLOCK_REALTIME has reached @ts. */
bool clock_passed(const struct timespec *ts);

#endif /* LIBSPEC_CLOCK_H */
