/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * TAP lines for the static test programs run in the test VM (libioca's and
 * libspec's), which print their own plan and number results in order.
 * Not thread-safe: one program, one thread of results.
 */
#ifndef IOCA_SELFTESTS_TAP_H
#define IOCA_SELFTESTS_TAP_H

/* "ok N - ..." or "not ok N - ...", numbered in order. */
__attribute__((format(printf, 2, 3))) void tap(int ok, const char *fmt, ...);
/* "ok N - @what # SKIP @why". */
void skip(const char *why, const char *what);
/* Whether any tap() failed (the exit status). */
int tap_failed(void);

#endif
