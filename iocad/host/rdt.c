// SPDX-License-Identifier: GPL-2.0
/*
 * The resctrl handle: opening (info/L3), the groups of others and of dead
 * instances, CLOSID accounting, removal. Plans are applied in rdt_apply.c.
 */
#define _DEFAULT_SOURCE /* readdir's d_type */
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
#include "rdt_apply.h"
#include "rdt_class.h"

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

void rdt_pathf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void rdt_say(const struct rdt *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->print(r->print_arg, msg);
}

const struct rdt_group *rdt_find(const struct rdt_group *g, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	return NULL;
}

void rdt_group_path(const struct rdt *r, const char *name, const char *file, char *buf, size_t len)
{
	if (file)
		rdt_pathf(buf, len, "%s/%s%s/%s", r->root, r->prefix, name, file);
	else
		rdt_pathf(buf, len, "%s/%s%s", r->root, r->prefix, name);
}

void rdt_gpath(const struct rdt *r, const struct rdt_group *g, const char *file, char *buf,
	       size_t len)
{
	if (!g->shared)
		rdt_group_path(r, g->name, file, buf, len);
	else if (file)
		rdt_pathf(buf, len, "%s/%s/%s", r->root, g->name, file);
	else
		rdt_pathf(buf, len, "%s/%s", r->root, g->name);
}

static int default_rmdir(void *arg, const char *path)
{
	(void)arg;
	return rmdir(path) ? -errno : 0;
}

static int default_mkdir(void *arg, const char *path)
{
	(void)arg;
	return mkdir(path, 0755) ? -errno : 0;
}

void rdt_mount_dev(struct rdt *r)
{
	struct stat st;

	r->root_dev = stat(r->root, &st) ? 0 : (uint64_t)st.st_dev;
}

uint64_t rdt_dir_ino(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode) ? (uint64_t)st.st_ino : 0;
}

static void default_print(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "iocad: %s\n", msg);
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
	snprintf(r->family, sizeof(r->family), "%s", o->family ? o->family : o->prefix);
	r->cache_id = o->cache_id;
	r->write = o->write ? o->write : default_write;
	r->rmdir = o->rmdir ? o->rmdir : default_rmdir;
	r->mkdir = o->sz >= offsetof(struct rdt_opts, mkdir) + sizeof(o->mkdir) && o->mkdir
			   ? o->mkdir
			   : default_mkdir;
	r->fs_arg = o->fs_arg;
	r->print = o->print ? o->print : default_print;
	r->print_arg = o->print_arg;
	e = rdt_info_read(r->root, &r->info, err, errlen);
	if (e) {
		free(r);
		errno = -e;
		return NULL;
	}
	rdt_mount_dev(r);
	r->watch_fd = r->watch_wd = -1;
	return r;
}

void rdt_close(struct rdt *r)
{
	if (r && r->watch_fd >= 0)
		close(r->watch_fd);
	free(r);
}

const struct rdt_l3_info *rdt_info(const struct rdt *r)
{
	return &r->info;
}

const char *rdt_root(const struct rdt *r)
{
	return r->root;
}

unsigned int rdt_groups(const struct rdt *r, const struct rdt_group **out)
{
	*out = r->group;
	return r->ngroups;
}

/* Directories at the root that are control groups (not info, mon_*). */
static int is_group_dir(const char *root, const struct dirent *de)
{
	char path[RDT_PATH_LEN];
	struct stat st;

	if (de->d_name[0] == '.' || !strcmp(de->d_name, "info") ||
	    !strcmp(de->d_name, "mon_groups") || !strcmp(de->d_name, "mon_data"))
		return 0;
	/* resctrl's readdir says the type: no stat of every file at the root */
	if (de->d_type != DT_UNKNOWN && de->d_type != DT_LNK)
		return de->d_type == DT_DIR;
	rdt_pathf(path, sizeof(path), "%s/%s", root, de->d_name);
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
			/* the same daemon's groups on other sockets are not others' */
			if (strncmp(de->d_name, r->family, strlen(r->family)))
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
	char path[RDT_PATH_LEN];
	int n, i, e, first = 0;

	n = rdt_find_stale(r, names, RDT_MAX_GROUPS * 2);
	if (n < 0) {
		snprintf(err, errlen, "resctrl: %s: %s", r->root, strerror(-n));
		return n;
	}
	for (i = 0; i < n && i < RDT_MAX_GROUPS * 2; i++) {
		rdt_pathf(path, sizeof(path), "%s/%s", r->root, names[i]);
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
		rdt_say(r, "resctrl: removed group %s left by an earlier iocad", names[i]);
	}
	return first ? first : n;
}

/*
 * Walk the groups iocad did not create (outside the family): the first
 * holding a CPU of @want (name into @group, CPU into *@cpu: 1 returned),
 * and the union of all their CPUs into @all (either may be NULL).
 */
static int walk_foreign(struct rdt *r, const struct platform_cpuset *want, char *group, size_t glen,
			unsigned int *cpu, struct platform_cpuset *all)
{
	char path[RDT_PATH_LEN], buf[4096];
	struct platform_cpuset held;
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (all)
		memset(all, 0, sizeof(*all));
	d = opendir(r->root);
	if (!d)
		return -errno;
	while (!found && (de = readdir(d))) {
		if (!is_group_dir(r->root, de) ||
		    !strncmp(de->d_name, r->family, strlen(r->family)))
			continue;
		rdt_pathf(path, sizeof(path), "%s/%s/cpus_list", r->root, de->d_name);
		if (rdt_info_read_file(path, buf, sizeof(buf)) || rdt_parse_cpus(buf, &held))
			continue;
		for (unsigned int w = 0; all && w < PLATFORM_MAX_CPUS / 64; w++)
			all->w[w] |= held.w[w];
		for (unsigned int c = 0; want && c < PLATFORM_MAX_CPUS && !found; c++)
			if (platform_cpuset_has(want, c) && platform_cpuset_has(&held, c)) {
				snprintf(group, glen, "%s", de->d_name);
				*cpu = c;
				found = 1;
			}
	}
	closedir(d);
	return found;
}

int rdt_foreign_set(struct rdt *r, struct platform_cpuset *out)
{
	int e = walk_foreign(r, NULL, NULL, 0, NULL, out);

	return e < 0 ? e : 0;
}

int rdt_foreign_cpus(struct rdt *r, const struct platform_cpuset *cpus, char *group, size_t glen,
		     unsigned int *cpu)
{
	return walk_foreign(r, cpus, group, glen, cpu, NULL);
}

int rdt_check_closids(struct rdt *r, unsigned int ngroups, char *err, size_t errlen)
{
	return rdt_check_closids_peak(r, ngroups, ngroups, err, errlen);
}

int rdt_check_closids_peak(struct rdt *r, unsigned int ngroups, unsigned int peak, char *err,
			   size_t errlen)
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
	if (peak < ngroups)
		peak = ngroups;
	if (peak > free_ids) {
		char why[160] = "";

		if (peak > ngroups)
			snprintf(why, sizeof(why),
				 " (%u of them at once: iocad removes the groups a plan drops only "
				 "after the new ones hold their CPUs)",
				 peak);
		snprintf(err, errlen,
			 "resctrl: %u tenant groups need %u CLOSIDs%s, but num_closids is %u: "
			 "1 is the default group and %u group(s) iocad did not create exist, "
			 "leaving %u",
			 ngroups, peak, why, r->info.num_closids, others, free_ids);
		return -ENOSPC;
	}
	return 0;
}

int rdt_remove_all(struct rdt *r)
{
	char path[RDT_PATH_LEN];
	int e, first = 0;

	if (r->staged)
		rdt_commit(r);
	for (unsigned int i = 0; i < r->ngroups; i++) {
		if (r->group[i].shared && r->group[i].missing)
			continue; /* not there: nothing to put back */
		if (r->group[i].shared) {
			e = rdt_put_orig(r, &r->group[i]);
			if (e && !first) {
				first = e;
				rdt_say(r, "resctrl: putting back the mask of %s: %s",
					r->group[i].name, strerror(-e));
			}
			continue;
		}
		rdt_group_path(r, r->group[i].name, NULL, path, sizeof(path));
		e = r->rmdir(r->fs_arg, path);
		if (e && e != -ENOENT && !first) {
			first = e;
			rdt_say(r, "resctrl: removing %s: %s", path, strerror(-e));
		}
	}
	r->ngroups = 0;
	return first;
}
