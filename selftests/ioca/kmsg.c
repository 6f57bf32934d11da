// SPDX-License-Identifier: GPL-2.0
/*
 * klogctl rather than /dev/kmsg: one call returns everything still in the
 * ring, with no record framing to undo. Offsets are only meaningful while
 * the ring has not wrapped; the guest's log is far smaller than the ring.
 */
#include "kmsg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static const char *const splats[] = {
	"WARNING:", "BUG:",   "Oops",	    "Call Trace",	   "general protection",
	"UBSAN:",   "KASAN:", "kernel BUG", "list_add corruption", "refcount_t:",
};

char *kmsg_read(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		int e = errno;

		free(buf);
		errno = e;
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

size_t kmsg_mark(void)
{
	char *buf = kmsg_read();
	size_t n;

	if (!buf)
		return 0;
	n = strlen(buf);
	free(buf);
	return n;
}

static int scan(size_t since, const char *const *needles, size_t nneedles, char *out, size_t len)
{
	char *buf = kmsg_read();
	char *line, *save = NULL;
	int found = 0;
	size_t i;

	if (!buf)
		return -errno;
	if (since > strlen(buf))
		since = 0; /* the ring wrapped: look at all of it */
	for (line = strtok_r(buf + since, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		for (i = 0; i < nneedles; i++) {
			if (strstr(line, needles[i])) {
				found = 1;
				if (out)
					snprintf(out, len, "%s", line);
				break;
			}
		}
	}
	free(buf);
	return found;
}

int kmsg_find_splat(size_t since, char *out, size_t len)
{
	return scan(since, splats, sizeof(splats) / sizeof(splats[0]), out, len);
}

int kmsg_contains(size_t since, const char *needle)
{
	const char *const one[] = {needle};

	return scan(since, one, 1, NULL, 0);
}
