// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs CPU topology. An offline CPU has no topology/ directory, so its
 * socket stays unknown; the check reports it as offline, which is what
 * the operator has to fix first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host_topo.h"
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
 * "0-3,8\n" into @t->online. Not config_value_cpus: the host may have
 * more CPUs than a tenant may name, and those are simply not tracked.
 */
static int read_online(const char *root, struct host_topo *t, char *err, size_t errlen)
{
	char path[512], buf[4096], *s, *end;
	unsigned long lo, hi;
	int r;

	snprintf(path, sizeof(path), "%s/online", root);
	r = rdt_info_read_file(path, buf, sizeof(buf));
	if (r) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	buf[strcspn(buf, "\n")] = '\0';
	for (s = buf; *s;) {
		errno = 0;
		lo = strtoul(s, &end, 10);
		hi = lo;
		if (!errno && end != s && *end == '-') {
			s = end + 1;
			hi = strtoul(s, &end, 10);
		}
		if (errno || end == s || hi < lo || (*end && *end != ',')) {
			snprintf(err, errlen, "%s: cannot parse '%s'", path, buf);
			return -EINVAL;
		}
		for (unsigned long c = lo; c <= hi && c < PLATFORM_MAX_CPUS; c++)
			t->online[c] = true;
		s = *end ? end + 1 : end;
	}
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

int host_topo_check(const struct config *cfg, const struct host_topo *t, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *tn = &cfg->tenant[i];

		for (unsigned int k = 0; k < tn->ncpus; k++) {
			unsigned int c = tn->cpus[k];
			const char *why = NULL;
			char buf[96];

			if (c >= t->ncpus || !t->present[c]) {
				why = "does not exist on this host";
			} else if (!t->online[c]) {
				why = "is offline";
			} else if (t->socket[c] < 0) {
				why = "has no socket in sysfs (topology/physical_package_id)";
			} else if (t->socket[c] != (int)cfg->socket) {
				snprintf(buf, sizeof(buf), "is on socket %d, not on socket %u",
					 t->socket[c], cfg->socket);
				why = buf;
			}
			if (why) {
				snprintf(err, errlen,
					 "%s:%u: [tenant %s] cpus: CPU %u %s (socket = %u)",
					 cfg->path, tn->cpus_line, tn->name, c, why, cfg->socket);
				return -EINVAL;
			}
		}
	}
	return 0;
}
