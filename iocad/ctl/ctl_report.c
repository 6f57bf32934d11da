// SPDX-License-Identifier: GPL-2.0
#include "ctl_report.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/*
 * How to load the module, for the iocactl that runs: one built in a
 * checkout (iocad/iocactl, iocad/build/iocactl) has the checkout's
 * kmod/ioca.ko one or two directories above its own; an installed one
 * (the package, make install) has a module modprobe finds (DKMS's, or
 * make -C kmod install's).
 */
static void not_loaded_hint(void)
{
	static const char not_loaded[] = "iocactl: ioca.ko is not loaded";
	char dir[PATH_MAX], ko[PATH_MAX + 16];
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	char *slash;
	int up;

	for (up = 0; n > 0 && up < 3; up++) {
		dir[n] = '\0';
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
		n = slash - dir;
		if (up == 0)
			continue;
		snprintf(ko, sizeof(ko), "%s/kmod/ioca.ko", dir);
		if (!access(ko, R_OK)) {
			fprintf(stderr, "%s (insmod %s, or emulate=1 in a VM)\n", not_loaded, ko);
			return;
		}
	}
	fprintf(stderr, "%s (modprobe ioca, or emulate=1 in a VM)\n", not_loaded);
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
		not_loaded_hint();
	else
		ctl_fail(op, -errno, NULL);
	return NULL;
}
