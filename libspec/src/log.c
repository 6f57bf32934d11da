// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stdatomic.h>

#include "log.h"

#include <stdio.h>

/* As libbpf's: warnings to stderr until the service installs its own. */
static int default_print(enum libspec_print_level level, const char *fmt, va_list ap)
{
	return level == LIBSPEC_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static _Atomic(libspec_print_fn_t) print_fn = default_print;

libspec_print_fn_t libspec_set_print(libspec_print_fn_t fn)
{
	return atomic_exchange(&print_fn, fn);
}

void libspec__print(enum libspec_print_level level, const char *fmt, ...)
{
	libspec_print_fn_t fn = atomic_load(&print_fn);
	int saved = errno;
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}

int libspec__opts_valid(const void *opts, size_t user_sz, size_t known_sz, const char *type)
{
	const unsigned char *p = opts;
	size_t i;

	if (user_sz < sizeof(size_t)) {
		pr_warn("%s: sz %zu is smaller than the sz field\n", type, user_sz);
		return 0;
	}
	for (i = known_sz; i < user_sz; i++) {
		if (p[i]) {
			pr_warn("%s: unknown non-zero field at byte %zu\n", type, i);
			return 0;
		}
	}
	return 1;
}
