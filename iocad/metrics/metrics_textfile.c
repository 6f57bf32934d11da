// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "metrics/metrics_render.h"
#include "metrics/metrics_textfile.h"

int metrics_textfile_write(const struct metrics_snapshot *s, const char *path, char *err,
			   size_t len)
{
	char tmp[CONFIG_METRICS_PATH_LEN + 32];
	FILE *f;
	int r;

	/* node_exporter reads *.prom only, so the temporary name is never read */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp)) {
		snprintf(err, len, "metrics: textfile %s: name too long", path);
		return -ENAMETOOLONG;
	}
	f = fopen(tmp, "w");
	if (!f) {
		r = -errno;
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
