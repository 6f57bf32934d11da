// SPDX-License-Identifier: GPL-2.0
/*
 * Usage: runas UID[:GID] CMD [ARGS...]
 * Drops every group, then the gid, then the uid (in that order: once the uid
 * is gone the process may no longer change the others), and execs CMD. Used
 * in the test VM, where uid 1000 is the unprivileged user "ioca".
 */
#define _GNU_SOURCE /* setgroups */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runas.h"

static int parse_id(const char *s, char **end, unsigned long *id)
{
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*id = strtoul(s, end, 10);
	if (errno || *id >= UINT_MAX)
		return -EINVAL;
	return 0;
}

int runas_parse_ids(const char *spec, uid_t *uid, gid_t *gid)
{
	unsigned long u, g;
	char *end;

	if (parse_id(spec, &end, &u))
		return -EINVAL;
	g = u;
	if (*end == ':' && parse_id(end + 1, &end, &g))
		return -EINVAL;
	if (*end)
		return -EINVAL;
	*uid = (uid_t)u;
	*gid = (gid_t)g;
	return 0;
}

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID[:GID] CMD [ARGS...]\n");
		return 2;
	}
	if (runas_parse_ids(argv[1], &uid, &gid)) {
		fprintf(stderr, "runas: bad id '%s' (want UID or UID:GID, decimal)\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		fprintf(stderr, "runas: cannot become %s: %s\n", argv[1], strerror(errno));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
