/* SPDX-License-Identifier: GPL-2.0 */
/* Messages through the user's callback, errno conventions, opts checks. */
#ifndef LIBSPEC_LOG_H
#define LIBSPEC_LOG_H

#include <errno.h>
#include <stddef.h>

#include "libspec/libspec.h"

void libspec__print(enum libspec_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_warn(fmt, ...) libspec__print(LIBSPEC_WARN, "libspec: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) libspec__print(LIBSPEC_INFO, "libspec: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) libspec__print(LIBSPEC_DEBUG, "libspec: " fmt, ##__VA_ARGS__)

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
 * something this version cannot do must not be silently ignored).
 */
int libspec__opts_valid(const void *opts, size_t user_sz, size_t known_sz, const char *type);

#define OPTS_VALID(opts, type)                                                      \
	(!(opts) || libspec__opts_valid((opts), (opts)->sz,                         \
					offsetof(struct type, type##__last_field) + \
						sizeof((opts)->type##__last_field), \
					#type))
#define OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field))
#define OPTS_GET(opts, field, fallback) (OPTS_HAS(opts, field) ? (opts)->field : (fallback))

#endif /* LIBSPEC_LOG_H */
