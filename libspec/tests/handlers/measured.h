/* SPDX-License-Identifier: GPL-2.0 */
/* Handlers whose compile tiers the runtime measures (test_measured). */
#ifndef LIBSPEC_TEST_MEASURED_H
#define LIBSPEC_TEST_MEASURED_H

/* Sum over a[0..n): the optimizer vectorizes it, -O0 code runs it slowly. */
long ms_work(const long *a, long n);
/* ms_heavy(n): all the work is in the fixed code, so every tier is as fast. */
long ms_tie(long n);
/* Defined by the fixed code (the test). */
long ms_heavy(long n);

#endif /* LIBSPEC_TEST_MEASURED_H */
