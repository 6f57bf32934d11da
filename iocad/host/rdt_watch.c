// SPDX-License-Identifier: GPL-2.0
/*
 * Does resctrl still hold iocad's record? A remount gives the root a new
 * device and takes every group with it; a group removed and made again by
 * someone else has a new inode; a runtime's class may vanish and come
 * back. Each is found by stat(2) alone, so the loop can ask every
 * interval. Also: reading the record back from resctrl, and the groups a
 * plan holds at its peak.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rdt_apply.h"
#include "rdt_class.h"
#include "rdt_watch.h"

/* A class of the record that is gone or is another group now: it waits. */
static int class_gone(struct rdt *r, struct rdt_group *g, uint64_t ino)
{
	g->missing = true;
	rdt_forget_orig(r, g->name);
	if (ino)
		return RDT_CLASS_BACK; /* made again already: a new group */
	rdt_say(r,
		"resctrl: rdt_class %s vanished: its tenant waits for it (its mask is written "
		"when it appears), the other tenants are managed",
		g->name);
	return 0;
}

int rdt_verify(struct rdt *r)
{
	char path[RDT_PATH_LEN];
	struct stat st;
	int ret = 0;

	if (stat(r->root, &st))
		return -ENOENT;
	if ((uint64_t)st.st_dev != r->root_dev) {
		rdt_pathf(path, sizeof(path), "%s/info/L3", r->root);
		return rdt_dir_ino(path) ? RDT_LOST : -ENOENT;
	}
	for (unsigned int i = 0; i < r->ngroups; i++) {
		struct rdt_group *g = &r->group[i];
		uint64_t ino;

		rdt_gpath(r, g, NULL, path, sizeof(path));
		ino = rdt_dir_ino(path);
		if (!g->shared) {
			if (ino != g->ino)
				ret |= RDT_LOST;
		} else if (g->missing) {
			if (ino)
				ret |= RDT_CLASS_BACK;
		} else if (ino != g->ino) {
			ret |= class_gone(r, g, ino);
		}
	}
	return ret;
}

/* One group of ours as resctrl has it: mask on our domain, CPUs, inode. */
static int read_group(struct rdt *r, struct rdt_group *g)
{
	char path[RDT_PATH_LEN], buf[4096];
	struct platform_cpuset cpus;
	int e;

	rdt_group_path(r, g->name, "schemata", path, sizeof(path));
	e = rdt_info_read_file(path, buf, sizeof(buf));
	if (!e)
		e = rdt_info_schemata_l3(buf, r->cache_id, &g->mask);
	if (!e) {
		rdt_group_path(r, g->name, "cpus_list", path, sizeof(path));
		e = rdt_info_read_file(path, buf, sizeof(buf));
	}
	if (!e)
		e = rdt_parse_cpus(buf, &cpus);
	if (e)
		return e;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (platform_cpuset_has(&cpus, c))
			g->cpus[g->ncpus++] = c;
	rdt_group_path(r, g->name, NULL, path, sizeof(path));
	g->ino = rdt_dir_ino(path);
	return 0;
}

int rdt_reread(struct rdt *r)
{
	char names[RDT_MAX_GROUPS][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	char path[RDT_PATH_LEN], buf[4096];
	size_t plen = strlen(r->prefix);
	unsigned int nclass = 0;
	int n, first = 0;

	n = rdt_find_stale(r, names, RDT_MAX_GROUPS);
	if (n < 0)
		return n;
	r->staged = false;
	/* the runtimes' classes of the record, waiting ones too */
	for (unsigned int i = 0; i < r->ngroups; i++)
		if (r->group[i].shared)
			r->next[nclass++] = r->group[i];
	r->ngroups = 0;
	for (int i = 0; i < n && i < RDT_MAX_GROUPS; i++) {
		struct rdt_group *g = &r->group[r->ngroups];
		int e;

		memset(g, 0, sizeof(*g));
		snprintf(g->name, sizeof(g->name), "%s", names[i] + plen);
		e = read_group(r, g);
		if (e) {
			/* unreadable: not on record, so the next apply writes it whole */
			first = first ? first : e;
			continue;
		}
		r->ngroups++;
	}
	/* the classes iocad holds: their masks as they are now */
	for (unsigned int i = 0; i < nclass && r->ngroups < RDT_MAX_GROUPS; i++) {
		struct rdt_group *g = &r->group[r->ngroups++];

		*g = r->next[i];
		if (g->missing)
			continue;
		rdt_gpath(r, g, "schemata", path, sizeof(path));
		if (rdt_info_read_file(path, buf, sizeof(buf)) ||
		    rdt_info_schemata_l3(buf, r->cache_id, &g->mask))
			class_gone(r, g, 0);
	}
	return first;
}

int rdt_reset(struct rdt *r, char *err, size_t errlen)
{
	struct rdt_l3_info info;
	int e;

	e = rdt_info_read(r->root, &info, err, errlen);
	if (e)
		return e;
	r->info = info;
	rdt_mount_dev(r);
	e = rdt_reread(r);
	if (e)
		snprintf(err, errlen, "resctrl: reading iocad's groups in %s: %s", r->root,
			 strerror(-e));
	return e;
}

unsigned int rdt_peak(struct rdt *r, const struct rdt_group *g, unsigned int n)
{
	char names[RDT_MAX_GROUPS][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	size_t plen = strlen(r->prefix);
	unsigned int peak = 0;
	int have;

	for (unsigned int i = 0; i < n; i++)
		peak += !g[i].shared;
	have = rdt_find_stale(r, names, RDT_MAX_GROUPS);
	for (int i = 0; i < have && i < RDT_MAX_GROUPS; i++) {
		const struct rdt_group *p = rdt_find(g, n, names[i] + plen);

		peak += !p || p->shared;
	}
	return peak;
}

unsigned int rdt_missing_classes(const struct rdt *r, char *buf, size_t len)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < r->ngroups; i++) {
		const struct rdt_group *g = &r->group[i];
		size_t used = strlen(buf);

		if (!g->shared || !g->missing)
			continue;
		n++;
		if (used < len)
			snprintf(buf + used, len - used, "%s%s", used ? ", " : "", g->name);
	}
	return n;
}
