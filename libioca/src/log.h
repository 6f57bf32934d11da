/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Messages and error returns. Every object carries its own print callback
 * (struct ioca_log), so the library has no global state to race on.
 */
#ifndef LIBIOCA_LOG_H
#define LIBIOCA_LOG_H

#include <stddef.h>
#include "libioca.h"

struct ioca_log {
	ioca_print_fn_t fn; /* NULL: the default, warnings to stderr */
	void *ctx;
};

/* Formats and hands a message to @log's callback; keeps errno. */
__attribute__((format(printf, 3, 4))) void
ioca_log_print(const struct ioca_log *log, enum ioca_print_level level, const char *fmt, ...);

#define pr_warn(log, ...) ioca_log_print(log, IOCA_PRINT_WARN, __VA_ARGS__)
#define pr_info(log, ...) ioca_log_print(log, IOCA_PRINT_INFO, __VA_ARGS__)
#define pr_debug(log, ...) ioca_log_print(log, IOCA_PRINT_DEBUG, __VA_ARGS__)

/* @err (0 or -errno) returned as is, with errno set to -@err when < 0. */
int ioca_err(int err);

/* NULL with errno = -@err. */
void *ioca_err_ptr(int err);

/*
 * Whether an opts struct of @user_sz bytes can be read by a library that
 * knows @known_sz bytes of it: sz at least a size_t, and every byte beyond
 * what this library knows is zero. NULL opts are valid.
 */
int ioca_opts_valid(const struct ioca_log *log, const void *opts, size_t known_sz,
		    const char *type);

/* The opts' size when non-NULL (the first field of every opts struct). */
#define IOCA_OPTS_SZ(opts) ((opts) ? *(const size_t *)(opts) : 0)

/* Whether @opts is long enough to hold @field. */
#define IOCA_OPTS_HAS(opts, field) \
	((opts) &&                 \
	 *(const size_t *)(opts) >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))

/* (opts)->field when present, else @fallback. */
#define IOCA_OPTS_GET(opts, field, fallback) \
	(IOCA_OPTS_HAS(opts, field) ? (opts)->field : (fallback))

/* Bytes of TYPE this library knows: up to the end of TYPE__last_field. */
#define IOCA_OPTS_KNOWN(TYPE) \
	(offsetof(struct TYPE, TYPE##__last_field) + sizeof(((struct TYPE *)0)->TYPE##__last_field))

#define IOCA_OPTS_VALID(log, opts, TYPE) ioca_opts_valid(log, opts, IOCA_OPTS_KNOWN(TYPE), #TYPE)

#endif
