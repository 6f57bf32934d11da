// SPDX-License-Identifier: GPL-2.0
/* A cgroup tenant's CPUs from cpuset.cpus.effective (cgroup_cpus.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/cgroup_cpus.h"
#include "config/config_value.h"

int cgroup_cpus_check_path(const char *path, char *why, size_t len)
{
	const char *p = path;

	while (*p == '/')
		p++;
	if (!*p) {
		snprintf(why, len, "empty: name a cgroup below the root (e.g. kubepods.slice/...)");
		return -EINVAL;
	}
	for (const char *s = p; *s; s++) {
		if ((s == p || s[-1] == '/') && s[0] == '.' && s[1] == '.' &&
		    (s[2] == '/' || !s[2])) {
			snprintf(why, len,
				 "'..' is not allowed: the path is below the cgroup root");
			return -EINVAL;
		}
		if ((unsigned char)*s < 0x20 || *s == ' ') {
			snprintf(why, len, "control characters and spaces are not allowed");
			return -EINVAL;
		}
	}
	return 0;
}

int cgroup_cpus_read(const char *root, const char *path, unsigned int *cpus, unsigned int *n,
		     char *why, size_t len)
{
	char file[640], buf[4096], bad[128] = "";
	size_t got;
	FILE *f;
	int r;

	r = cgroup_cpus_check_path(path, why, len);
	if (r)
		return r;
	while (*path == '/')
		path++;
	snprintf(file, sizeof(file), "%s/%s/cpuset.cpus.effective", root, path);
	f = fopen(file, "r");
	if (!f) {
		r = -errno;
		snprintf(why, len,
			 "cannot read %s: %s (is the cgroup there, and the cpuset controller "
			 "enabled in its parent's cgroup.subtree_control?)",
			 file, strerror(-r));
		return r;
	}
	got = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[got] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!buf[0]) {
		snprintf(why, len, "%s is empty: the cgroup has no CPUs", file);
		return -EINVAL;
	}
	if (config_value_cpus(buf, cpus, n, bad, sizeof(bad))) {
		snprintf(why, len, "%s holds '%s': %s", file, buf, bad);
		return -EINVAL;
	}
	return 0;
}
