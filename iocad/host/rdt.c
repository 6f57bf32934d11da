// SPDX-License-Identifier: GPL-2.0
/*
 * Applying a CAT plan to resctrl. The order of one apply is the one that
 * lets every step be undone: create missing groups (ENOSPC is the kernel's
 * "no CLOSID left"), write masks, assign CPUs, and only when all that
 * succeeded remove the groups the plan dropped. A failure in the first
 * three steps puts back the masks and CPU lists written so far and removes
 * the groups this apply created.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdt.h"

#define PATH_LEN 512

struct rdt {
	char root[PATH_LEN / 2];
	char prefix[RDT_PREFIX_LEN];
	unsigned int cache_id;
	rdt_write_fn write;
	rdt_rmdir_fn rmdir;
	void *fs_arg;
	rdt_print_fn print;
	void *print_arg;
	struct rdt_l3_info info;
	unsigned int ngroups;
	struct rdt_group group[RDT_MAX_GROUPS];
	struct rdt_group next[RDT_MAX_GROUPS]; /* scratch of rdt_apply */
};

static int default_write(void *arg, const char *path, const char *data)
{
	size_t len = strlen(data);
	ssize_t n;
	int fd, r = 0;

	(void)arg;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* resctrl parses one write() as a whole: never split it */
	n = write(fd, data, len);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) && !r)
		r = -errno;
	return r;
}

/* vsnprintf: a path cut short fails at open(), gcc need not prove it fits */
static void pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static int default_rmdir(void *arg, const char *path)
{
	(void)arg;
	return rmdir(path) ? -errno : 0;
}

static void default_print(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "iocad: %s\n", msg);
}

static void say(const struct rdt *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->print(r->print_arg, msg);
}

static int prefix_ok(const char *p)
{
	size_t n = strlen(p);

	if (!n || n >= RDT_PREFIX_LEN)
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' || *p == '.'))
			return 0;
	return 1;
}

struct rdt *rdt_open(const struct rdt_opts *o, char *err, size_t errlen)
{
	struct rdt *r;
	int e;

	if (!o || o->sz < offsetof(struct rdt_opts, print_arg) + sizeof(void *) || !o->prefix ||
	    !prefix_ok(o->prefix)) {
		snprintf(err, errlen, "resctrl: bad options");
		errno = EINVAL;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "resctrl: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	snprintf(r->root, sizeof(r->root), "%s", o->root ? o->root : RDT_ROOT_DEFAULT);
	snprintf(r->prefix, sizeof(r->prefix), "%s", o->prefix);
	r->cache_id = o->cache_id;
	r->write = o->write ? o->write : default_write;
	r->rmdir = o->rmdir ? o->rmdir : default_rmdir;
	r->fs_arg = o->fs_arg;
	r->print = o->print ? o->print : default_print;
	r->print_arg = o->print_arg;
	e = rdt_info_read(r->root, &r->info, err, errlen);
	if (e) {
		free(r);
		errno = -e;
		return NULL;
	}
	return r;
}

void rdt_close(struct rdt *r)
{
	free(r);
}

const struct rdt_l3_info *rdt_info(const struct rdt *r)
{
	return &r->info;
}

unsigned int rdt_groups(const struct rdt *r, const struct rdt_group **out)
{
	*out = r->group;
	return r->ngroups;
}

/* Directories at the root that are control groups (not info, mon_*). */
static int is_group_dir(const char *root, const struct dirent *de)
{
	char path[PATH_LEN];
	struct stat st;

	if (de->d_name[0] == '.' || !strcmp(de->d_name, "info") ||
	    !strcmp(de->d_name, "mon_groups") || !strcmp(de->d_name, "mon_data"))
		return 0;
	pathf(path, sizeof(path), "%s/%s", root, de->d_name);
	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Count our groups (into @names) and others' groups. */
static int scan(struct rdt *r, char (*names)[PLATFORM_NAME_LEN + RDT_PREFIX_LEN], unsigned int max,
		unsigned int *others)
{
	size_t plen = strlen(r->prefix);
	struct dirent *de;
	unsigned int n = 0;
	DIR *d;

	*others = 0;
	d = opendir(r->root);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!is_group_dir(r->root, de))
			continue;
		if (strncmp(de->d_name, r->prefix, plen)) {
			(*others)++;
			continue;
		}
		if (strlen(de->d_name) >= sizeof(names[0]))
			continue; /* longer than prefix + name: not one of ours */
		if (n < max)
			memcpy(names[n], de->d_name, strlen(de->d_name) + 1);
		n++;
	}
	closedir(d);
	return (int)n;
}

int rdt_find_stale(struct rdt *r, char (*names)[PLATFORM_NAME_LEN + RDT_PREFIX_LEN],
		   unsigned int max)
{
	unsigned int others;

	return scan(r, names, max, &others);
}

int rdt_remove_stale(struct rdt *r, char *err, size_t errlen)
{
	static char names[RDT_MAX_GROUPS * 2][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	char path[PATH_LEN];
	int n, i, e, first = 0;

	n = rdt_find_stale(r, names, RDT_MAX_GROUPS * 2);
	if (n < 0) {
		snprintf(err, errlen, "resctrl: %s: %s", r->root, strerror(-n));
		return n;
	}
	for (i = 0; i < n && i < RDT_MAX_GROUPS * 2; i++) {
		pathf(path, sizeof(path), "%s/%s", r->root, names[i]);
		e = r->rmdir(r->fs_arg, path);
		if (e) {
			if (!first) {
				first = e;
				snprintf(err, errlen,
					 "resctrl: removing %s left by an earlier iocad: %s", path,
					 strerror(-e));
			}
			continue;
		}
		say(r, "resctrl: removed group %s left by an earlier iocad", names[i]);
	}
	return first ? first : n;
}

int rdt_check_closids(struct rdt *r, unsigned int ngroups, char *err, size_t errlen)
{
	char names[1][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	unsigned int others, free_ids;
	int n;

	n = scan(r, names, 0, &others);
	if (n < 0) {
		snprintf(err, errlen, "resctrl: %s: %s", r->root, strerror(-n));
		return n;
	}
	/* our own groups (n of them) are reused or freed by the next apply */
	free_ids = r->info.num_closids > 1 + others ? r->info.num_closids - 1 - others : 0;
	if (ngroups > free_ids) {
		snprintf(err, errlen,
			 "resctrl: %u tenant groups need %u CLOSIDs, but num_closids is %u: "
			 "1 is the default group and %u other group(s) exist, leaving %u",
			 ngroups, ngroups, r->info.num_closids, others, free_ids);
		return -ENOSPC;
	}
	return 0;
}

static void format_cpus(const unsigned int *cpus, unsigned int n, char *buf, size_t len)
{
	size_t off = 0;
	unsigned int i = 0, j;

	buf[0] = '\0';
	while (i < n && off < len) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (j == i)
			off += (size_t)snprintf(buf + off, len - off, "%s%u", off ? "," : "",
						cpus[i]);
		else
			off += (size_t)snprintf(buf + off, len - off, "%s%u-%u", off ? "," : "",
						cpus[i], cpus[j]);
		i = j + 1;
	}
	if (off + 1 < len)
		strcat(buf, "\n");
}

static const struct rdt_group *find(const struct rdt_group *g, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	return NULL;
}

static void group_path(const struct rdt *r, const char *name, const char *file, char *buf,
		       size_t len)
{
	if (file)
		pathf(buf, len, "%s/%s%s/%s", r->root, r->prefix, name, file);
	else
		pathf(buf, len, "%s/%s%s", r->root, r->prefix, name);
}

static int write_mask(struct rdt *r, const char *name, uint32_t mask)
{
	char path[PATH_LEN], line[64];

	group_path(r, name, "schemata", path, sizeof(path));
	snprintf(line, sizeof(line), "L3:%u=%x\n", r->cache_id, mask);
	return r->write(r->fs_arg, path, line);
}

static int write_cpus(struct rdt *r, const struct rdt_group *g)
{
	char path[PATH_LEN], list[PLATFORM_MAX_CPUS * 5];

	group_path(r, g->name, "cpus_list", path, sizeof(path));
	format_cpus(g->cpus, g->ncpus, list, sizeof(list));
	return r->write(r->fs_arg, path, list);
}

/* The kernel's reason for the last refused write, "" if none. */
static void last_status(const struct rdt *r, char *buf, size_t len)
{
	char path[PATH_LEN];

	pathf(path, sizeof(path), "%s/info/last_cmd_status", r->root);
	if (rdt_info_read_file(path, buf, len))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int same_cpus(const struct rdt_group *a, const struct rdt_group *b)
{
	return a->ncpus == b->ncpus && !memcmp(a->cpus, b->cpus, a->ncpus * sizeof(a->cpus[0]));
}

struct undo {
	bool created[RDT_MAX_GROUPS];
	bool mask_written[RDT_MAX_GROUPS];
	bool cpus_written;
};

/* Put back what one failed apply changed; the old state is r->group. */
static void rollback(struct rdt *r, const struct rdt_group *g, unsigned int n, const struct undo *u)
{
	char path[PATH_LEN];
	int e;

	for (unsigned int i = 0; i < n; i++) {
		const struct rdt_group *old = find(r->group, r->ngroups, g[i].name);

		if (u->created[i]) {
			group_path(r, g[i].name, NULL, path, sizeof(path));
			e = r->rmdir(r->fs_arg, path);
			if (e)
				say(r, "resctrl: rollback: rmdir %s: %s", path, strerror(-e));
		} else if (u->mask_written[i] && old) {
			e = write_mask(r, old->name, old->mask);
			if (e)
				say(r, "resctrl: rollback: mask of %s%s: %s", r->prefix, old->name,
				    strerror(-e));
		}
	}
	/* CPUs taken by a new or changed group go back where they were */
	if (u->cpus_written)
		for (unsigned int i = 0; i < r->ngroups; i++) {
			e = write_cpus(r, &r->group[i]);
			if (e)
				say(r, "resctrl: rollback: cpus of %s%s: %s", r->prefix,
				    r->group[i].name, strerror(-e));
		}
}

static int fail(struct rdt *r, const struct rdt_group *g, const char *what, int e, char *err,
		size_t errlen)
{
	char status[256];

	last_status(r, status, sizeof(status));
	snprintf(err, errlen, "resctrl: %s %s%s: %s%s%s%s", what, r->prefix, g->name, strerror(-e),
		 status[0] ? " (last_cmd_status: " : "", status, status[0] ? ")" : "");
	return e;
}

static int check_plan(const struct rdt *r, const struct rdt_group *g, unsigned int n, char *err,
		      size_t errlen)
{
	char why[128];

	if (n > RDT_MAX_GROUPS) {
		snprintf(err, errlen, "resctrl: %u groups, at most %d", n, RDT_MAX_GROUPS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < n; i++) {
		if (rdt_info_check_mask(&r->info, g[i].mask, why, sizeof(why))) {
			snprintf(err, errlen, "resctrl: group %s%s: %s", r->prefix, g[i].name, why);
			return -EINVAL;
		}
		if (find(g, i, g[i].name)) {
			snprintf(err, errlen, "resctrl: group %s twice in one plan", g[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

int rdt_apply(struct rdt *r, const struct rdt_group *g, unsigned int n, char *err, size_t errlen)
{
	char path[PATH_LEN];
	struct undo u = {0};
	unsigned int i, kept;
	int e;

	e = check_plan(r, g, n, err, errlen);
	if (e)
		return e;
	for (i = 0; i < n; i++) {
		if (find(r->group, r->ngroups, g[i].name))
			continue;
		group_path(r, g[i].name, NULL, path, sizeof(path));
		if (mkdir(path, 0755)) {
			e = -errno;
			if (e == -ENOSPC)
				snprintf(err, errlen,
					 "resctrl: creating %s: no free CLOSID (num_closids %u)",
					 path, r->info.num_closids);
			else
				fail(r, &g[i], "creating", e, err, errlen);
			goto undo;
		}
		u.created[i] = true;
	}
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = find(r->group, r->ngroups, g[i].name);

		if (old && old->mask == g[i].mask)
			continue;
		e = write_mask(r, g[i].name, g[i].mask);
		if (e) {
			fail(r, &g[i], "writing the L3 mask of", e, err, errlen);
			goto undo;
		}
		u.mask_written[i] = true;
	}
	for (i = 0; i < n; i++) {
		const struct rdt_group *old = find(r->group, r->ngroups, g[i].name);

		if (old && same_cpus(old, &g[i]))
			continue;
		u.cpus_written = true;
		e = write_cpus(r, &g[i]);
		if (e) {
			fail(r, &g[i], "assigning CPUs to", e, err, errlen);
			goto undo;
		}
	}
	/* committed: drop the groups the plan no longer has */
	memcpy(r->next, g, n * sizeof(g[0]));
	kept = n;
	for (i = 0; i < r->ngroups; i++) {
		if (find(g, n, r->group[i].name))
			continue;
		group_path(r, r->group[i].name, NULL, path, sizeof(path));
		e = r->rmdir(r->fs_arg, path);
		if (e && e != -ENOENT) {
			say(r, "resctrl: removing %s: %s (kept; retried on exit)", path,
			    strerror(-e));
			if (kept < RDT_MAX_GROUPS)
				r->next[kept++] = r->group[i];
		}
	}
	memcpy(r->group, r->next, kept * sizeof(r->group[0]));
	r->ngroups = kept;
	return 0;
undo:
	rollback(r, g, n, &u);
	return e;
}

int rdt_remove_all(struct rdt *r)
{
	char path[PATH_LEN];
	int e, first = 0;

	for (unsigned int i = 0; i < r->ngroups; i++) {
		group_path(r, r->group[i].name, NULL, path, sizeof(path));
		e = r->rmdir(r->fs_arg, path);
		if (e && e != -ENOENT && !first) {
			first = e;
			say(r, "resctrl: removing %s: %s", path, strerror(-e));
		}
	}
	r->ngroups = 0;
	return first;
}
