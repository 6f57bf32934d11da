// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

/* As libioca's and libbpf's: warnings to stderr unless the object names a callback. */
static void default_print(enum libspec_print_level level, const char *fmt, va_list ap)
{
	if (level != LIBSPEC_PRINT_WARN)
		return;
	fputs("libspec: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void libspec__print(const struct libspec_log *log, enum libspec_print_level level, const char *fmt,
		    ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	if (log && log->fn)
		log->fn(level, log->ctx, fmt, ap);
	else
		default_print(level, fmt, ap);
	va_end(ap);
	errno = saved;
}

int libspec__opts_valid(const struct libspec_log *log, const void *opts, size_t user_sz,
			size_t known_sz, const char *type)
{
	const unsigned char *p = opts;
	size_t i;

	if (user_sz < sizeof(size_t)) {
		pr_warn(log, "%s: sz %zu is smaller than the sz field", type, user_sz);
		return 0;
	}
	for (i = known_sz; i < user_sz; i++) {
		if (p[i]) {
			pr_warn(log, "%s: unknown non-zero field at byte %zu", type, i);
			return 0;
		}
	}
	return 1;
}
