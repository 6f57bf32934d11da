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
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* What rdt_verify's answer depends on besides the disk: FNV-1a over the record. */
static uint64_t record_sum(const struct rdt *r)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (unsigned int i = 0; i < r->ngroups; i++) {
		const struct rdt_group *g = &r->group[i];
		uint64_t v[2] = {g->ino, (uint64_t)g->shared | (uint64_t)g->missing << 1};
		const unsigned char *p = (const unsigned char *)v;

		for (size_t k = 0; k < sizeof(v); k++)
			h = (h ^ p[k]) * 0x100000001b3ull;
		for (const char *c = g->name; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	}
	return h ^ r->ngroups;
}

/*
 * Did anything come, go or move in the root since the last look? true
 * only when the watch was there all along and its queue is empty; it is
 * (re)made here before the full look that follows, so nothing that
 * happens during that look is missed. No watch (inotify unavailable, the
 * limit reached): false, every look is the full one.
 */
static bool root_quiet(struct rdt *r)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool quiet = r->watch_wd >= 0;
	ssize_t n;

	if (r->watch_fd < 0)
		r->watch_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (r->watch_fd < 0)
		return false;
	while ((n = read(r->watch_fd, buf, sizeof(buf))) > 0) {
		quiet = false;
		for (ssize_t off = 0; off < n;) {
			const struct inotify_event *ev = (const void *)(buf + off);

			/*
			 * The watch went (an unmount, the root removed): made
			 * again below. After an overflow the IN_IGNORED that
			 * said so may be among the events dropped: made again
			 * too (the same wd while it is still there).
			 */
			if ((ev->mask & IN_IGNORED && ev->wd == r->watch_wd) ||
			    ev->mask & IN_Q_OVERFLOW)
				r->watch_wd = -1;
			off += (ssize_t)(sizeof(*ev) + ev->len);
		}
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		quiet = false;
	if (r->watch_wd < 0)
		r->watch_wd =
			inotify_add_watch(r->watch_fd, r->root,
					  IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO |
						  IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR);
	return quiet && r->watch_wd >= 0;
}

static int verify_groups(struct rdt *r);

int rdt_verify(struct rdt *r)
{
	char path[RDT_PATH_LEN];
	struct stat st;
	bool quiet;
	int ret;

	if (stat(r->root, &st)) {
		r->watch_held = false;
		return -ENOENT;
	}
	if ((uint64_t)st.st_dev != r->root_dev) {
		r->watch_held = false;
		rdt_pathf(path, sizeof(path), "%s/info/L3", r->root);
		return rdt_dir_ino(path) ? RDT_LOST : -ENOENT;
	}
	quiet = root_quiet(r);
	if (quiet && r->watch_held && r->watch_sum == record_sum(r))
		return 0;
	ret = verify_groups(r);
	r->looks++;
	r->watch_held = !ret;
	r->watch_sum = record_sum(r);
	return ret;
}

unsigned long rdt_verify_looks(const struct rdt *r)
{
	return r->looks;
}

/* Each group of the record against its directory. */
static int verify_groups(struct rdt *r)
{
	char path[RDT_PATH_LEN];
	int ret = 0;

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
