/* SPDX-License-Identifier: GPL-2.0 */
/* The runtime's last error: recorded by any part, read by spec_runtime__last_error(). */
#ifndef LIBSPEC_RUNTIME_ERROR_H
#define LIBSPEC_RUNTIME_ERROR_H

#include "runtime_state.h"

/* Record an error of @rt and log it; returns @err. Takes err_lock only. */
int rt_set_error(struct spec_runtime *rt, int err, const char *msg);
/* Record it only (the caller logs it where it belongs). */
void rt_record_error(struct spec_runtime *rt, int err, const char *msg);
/* A later success: last_error() reports none. Takes err_lock only. */
void rt_clear_error(struct spec_runtime *rt);

#endif /* LIBSPEC_RUNTIME_ERROR_H */
