/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Messages through the print callback of the object they concern (struct
 * libspec_log: no global state), errno conventions, opts checks.
 */
#ifndef LIBSPEC_LOG_H
#define LIBSPEC_LOG_H

#include <errno.h>
#include <stddef.h>

#include "libspec/libspec.h"

struct libspec_log {
	libspec_print_fn_t fn; /* NULL: the default, warnings to stderr */
	void *ctx;
};

/* The callback an opts struct names (print, print_ctx; NULL opts: none). */
#define LIBSPEC_LOG_OPTS(opts)                                   \
	((struct libspec_log){.fn = OPTS_GET(opts, print, NULL), \
			      .ctx = OPTS_GET(opts, print_ctx, NULL)})

/* @own when it names a callback, else @parent's (objects built on a runtime). */
static inline struct libspec_log libspec_log_or(struct libspec_log own,
						const struct libspec_log *parent)
{
	return own.fn ? own : *parent;
}

/* Formats and hands a message to @log's callback (NULL log: the default); keeps errno. */
void libspec__print(const struct libspec_log *log, enum libspec_print_level level, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

#define pr_warn(log, ...) libspec__print(log, LIBSPEC_PRINT_WARN, __VA_ARGS__)
#define pr_info(log, ...) libspec__print(log, LIBSPEC_PRINT_INFO, __VA_ARGS__)
#define pr_debug(log, ...) libspec__print(log, LIBSPEC_PRINT_DEBUG, __VA_ARGS__)

/* Return a negative errno and set errno to it. */
static inline int libspec_err(int ret)
{
	if (ret < 0)
		errno = -ret;
	return ret;
}

/* Return NULL with errno set from a negative errno. */
static inline void *libspec_err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

/*
 * An opts struct is valid when its size is at least the size field and every
 * byte past the fields this library knows is zero (a newer caller asking for
 * something this version cannot do must not be silently ignored). Refusals
 * go to @log.
 */
int libspec__opts_valid(const struct libspec_log *log, const void *opts, size_t user_sz,
			size_t known_sz, const char *type);

#define OPTS_VALID(log, opts, type)                                                 \
	(!(opts) || libspec__opts_valid((log), (opts), (opts)->sz,                  \
					offsetof(struct type, type##__last_field) + \
						sizeof((opts)->type##__last_field), \
					#type))
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))
#define OPTS_GET(opts, field, fallback) (OPTS_HAS(opts, field) ? (opts)->field : (fallback))

#endif /* LIBSPEC_LOG_H */
