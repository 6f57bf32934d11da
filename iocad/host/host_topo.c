// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs CPU topology. An offline CPU has no topology/ directory, so its
 * socket stays unknown; the check reports it as offline, which is what
 * the operator has to fix first.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host_topo.h"
#include "rdt.h"
#include "rdt_info.h"

static int read_int(const char *path, int *out)
{
	char buf[32], *end;
	long v;
	int r;

	r = rdt_info_read_file(path, buf, sizeof(buf));
	if (r)
		return r;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < 0 || v > 1 << 20)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/*
 * "0-3,8\n" into @on. Not config_value_cpus: the host may have more CPUs
 * than a tenant may name, and those are simply not tracked.
 */
int host_topo_online(const char *root, struct platform_cpuset *on, char *err, size_t errlen)
{
	char path[512], buf[4096];
	int r;

	snprintf(path, sizeof(path), "%s/online", root);
	r = rdt_info_read_file(path, buf, sizeof(buf));
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (rdt_parse_cpus(buf, on)) {
		snprintf(err, errlen, "%s: cannot parse '%s'", path, buf);
		return -EINVAL;
	}
	return 0;
}

/*
 * sysfs shows an attribute afresh at every read from offset 0, so a kept
 * descriptor costs one pread(2) a look instead of open, read, read and
 * close. A buffer the content fills, or any failure, falls back to the
 * whole read (and the next look opens again).
 */
int host_topo_online_fd(int *fd, const char *root, struct platform_cpuset *on, char *err,
			size_t errlen)
{
	char path[512], buf[4096];
	ssize_t n = -1;

	if (*fd < 0) {
		snprintf(path, sizeof(path), "%s/online", root);
		*fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	if (*fd >= 0)
		n = pread(*fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0 || (size_t)n >= sizeof(buf) - 1) {
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
		return host_topo_online(root, on, err, errlen);
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (rdt_parse_cpus(buf, on)) {
		snprintf(err, errlen, "%s/online: cannot parse '%s'", root, buf);
		return -EINVAL;
	}
	return 0;
}

static int read_online(const char *root, struct host_topo *t, char *err, size_t errlen)
{
	struct platform_cpuset on;
	int r;

	r = host_topo_online(root, &on, err, errlen);
	if (r)
		return r;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		t->online[c] = platform_cpuset_has(&on, c);
	return 0;
}

static int l3_of(const char *root, unsigned int cpu)
{
	char path[512];
	int level, id;

	for (unsigned int k = 0; k < 8; k++) {
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%u/level", root, cpu, k);
		if (read_int(path, &level))
			return -1;
		if (level != 3)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u/cache/index%u/id", root, cpu, k);
		return read_int(path, &id) ? -1 : id;
	}
	return -1;
}

int host_topo_read(const char *root, struct host_topo *t, char *err, size_t errlen)
{
	char path[512];
	struct stat st;
	int r, v;

	memset(t, 0, sizeof(*t));
	r = read_online(root, t, err, errlen);
	if (r)
		return r;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++) {
		t->socket[c] = -1;
		t->l3_id[c] = -1;
		snprintf(path, sizeof(path), "%s/cpu%u", root, c);
		if (stat(path, &st) || !S_ISDIR(st.st_mode))
			continue;
		t->present[c] = true;
		t->ncpus = c + 1;
		snprintf(path, sizeof(path), "%s/cpu%u/topology/physical_package_id", root, c);
		if (t->online[c] && !read_int(path, &v))
			t->socket[c] = v;
		if (t->online[c])
			t->l3_id[c] = l3_of(root, c);
	}
	if (!t->ncpus) {
		snprintf(err, errlen, "%s: no cpuN directories", root);
		return -ENOENT;
	}
	return 0;
}

int host_topo_l3_id(const struct host_topo *t, unsigned int socket)
{
	for (unsigned int c = 0; c < t->ncpus; c++)
		if (t->online[c] && t->socket[c] == (int)socket && t->l3_id[c] >= 0)
			return t->l3_id[c];
	return -1;
}

void host_topo_info(const struct host_topo *t, struct platform_info *out)
{
	out->ncpus = t->ncpus;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++) {
		if (c >= t->ncpus || !t->present[c])
			out->cpu_socket[c] = PLATFORM_CPU_ABSENT;
		else if (!t->online[c] || t->socket[c] < 0)
			out->cpu_socket[c] = PLATFORM_CPU_OFFLINE;
		else
			out->cpu_socket[c] = t->socket[c];
	}
}
