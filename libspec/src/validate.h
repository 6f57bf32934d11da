/* SPDX-License-Identifier: GPL-2.0 */
/* Checking a configuration against the runtime's points before queuing. */
#ifndef LIBSPEC_VALIDATE_H
#define LIBSPEC_VALIDATE_H

#include <stdarg.h>

#include "runtime_state.h"

/* 0, or -errno with the reason (label, value, file:line) recorded as the
 * runtime's last error and logged.
 */
int validate_config(struct spec_runtime *rt, const struct spec_config *cfg);

/* Record @err with a formatted message as the last error; returns @err with
 * errno set. Takes the runtime lock.
 */
int validate_fail(struct spec_runtime *rt, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* LIBSPEC_VALIDATE_H */
