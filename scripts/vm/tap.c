// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>

static int n, failed;

void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failed |= !ok;
}

void skip(const char *why, const char *what)
{
	printf("ok %d - %s # SKIP %s\n", ++n, what, why);
	fflush(stdout);
}

int tap_failed(void)
{
	return failed;
}
