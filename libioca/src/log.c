// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "log.h"

#include <errno.h>
#include <stdio.h>

static void default_print(enum ioca_print_level level, const char *fmt, va_list ap)
{
	if (level != IOCA_PRINT_WARN)
		return;
	fputs("libioca: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void ioca_log_print(const struct ioca_log *log, enum ioca_print_level level, const char *fmt, ...)
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

int ioca_err(int err)
{
	if (err < 0)
		errno = -err;
	return err;
}

void *ioca_err_ptr(int err)
{
	errno = err < 0 ? -err : err;
	return NULL;
}

int ioca_opts_valid(const struct ioca_log *log, const void *opts, size_t known_sz, const char *type)
{
	const unsigned char *p = opts;
	size_t sz, i;

	if (!opts)
		return 0;
	sz = *(const size_t *)opts;
	if (sz < sizeof(size_t)) {
		pr_warn(log, "struct %s: sz %zu is smaller than the sz field itself", type, sz);
		return -EINVAL;
	}
	for (i = known_sz; i < sz; i++) {
		if (p[i]) {
			pr_warn(log,
				"struct %s: byte %zu is set but this libioca knows only %zu bytes "
				"of it",
				type, i, known_sz);
			return -EINVAL;
		}
	}
	return 0;
}
