// SPDX-License-Identifier: GPL-2.0
#include "ctl_report.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "iocactl.h"

void ctl_lib_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	const bool *quiet = ctx;

	if (level != IOCA_PRINT_WARN || (quiet && *quiet))
		return;
	fputs("iocactl: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int ctl_fail(const char *op, int err, const struct ioca_client *c)
{
	const char *ext = c ? ioca_client__last_extack(c) : "";

	fprintf(stderr, "iocactl: %s: %s%s%s\n", op, strerror(-err), *ext ? ": " : "", ext);
	return IOCACTL_EXIT_FAIL;
}

struct ioca_client *ctl_open(const char *op, bool *quiet)
{
	IOCA_OPTS(ioca_client_opts, o, .print = ctl_lib_print, .print_ctx = quiet);
	struct ioca_client *c;

	*quiet = true;
	c = ioca_client__open(&o);
	*quiet = false;
	if (c)
		return c;
	if (errno == ENOENT)
		fprintf(stderr, "iocactl: ioca.ko is not loaded (insmod kmod/ioca.ko, or emulate=1 "
				"in a VM)\n");
	else
		ctl_fail(op, -errno, NULL);
	return NULL;
}
