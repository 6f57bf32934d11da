// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "metrics/metrics_render.h"
#include "metrics/metrics_textfile.h"

int metrics_textfile_write(const struct metrics_snapshot *s, const char *path, char *err,
			   size_t len)
{
	char tmp[CONFIG_METRICS_PATH_LEN + 32];
	FILE *f = NULL;
	int fd, r;

	/* node_exporter reads *.prom only, so the temporary name is never read */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, len, "metrics: textfile %s: name too long", path);
		return -ENAMETOOLONG;
	}
	/*
	 * node_exporter reads it as its own user, and iocad's unit runs with
	 * UMask=0077: the mode is set, not left to the umask.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, METRICS_TEXTFILE_MODE);
	if (fd >= 0 && fchmod(fd, METRICS_TEXTFILE_MODE) == 0)
		f = fdopen(fd, "w");
	if (!f) {
		r = -errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		snprintf(err, len, "metrics: textfile %s: %s", tmp, strerror(-r));
		return r;
	}
	r = metrics_render(s, f);
	if (fclose(f) && !r)
		r = -EIO;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r) {
		snprintf(err, len, "metrics: textfile %s: %s", path, strerror(-r));
		unlink(tmp);
	}
	return r;
}
