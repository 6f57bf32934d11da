/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the libspec cmocka tests. */
#ifndef LIBSPEC_TESTUTIL_H
#define LIBSPEC_TESTUTIL_H

#include <stdarg.h>
#include <stdint.h>

#include "libspec/libspec.h"

/* Path of the test IR built from tests/handlers/<name>.c. */
const char *tu_ir(const char *name);

/* The tests' print callback (objects opened by the helpers below have it):
 * keeps the latest warning instead of printing it; tu_capture() forgets
 * it, tu_last_msg() returns it.
 */
void tu_print(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap);
void tu_capture(void);
const char *tu_last_msg(void);

/* Deterministic pseudo-random numbers (xorshift64*). */
uint64_t tu_rand(uint64_t *state);

/* Open @name's IR (print: tu_print) and fail the test if that fails. */
struct spec_runtime *tu_open(const char *name);

/* Open @name's IR with @opts (print: tu_print unless they name one) and
 * load it, failing the test otherwise.
 */
struct spec_runtime *tu_open_loaded(const char *name, const struct spec_runtime_opts *opts);

/* Parse @text and specialize synchronously; returns the result. */
int tu_specialize(struct spec_runtime *rt, const char *text);

#endif /* LIBSPEC_TESTUTIL_H */
