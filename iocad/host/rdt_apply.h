/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What rdt.c and rdt_apply.c share: the handle's layout and the helpers
 * both use. Internal to the two; callers use rdt.h.
 */
#ifndef IOCAD_RDT_APPLY_H
#define IOCAD_RDT_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "rdt.h"

#define RDT_PATH_LEN 512

/* What one stage changed, to put back (rdt_unstage). */
struct rdt_undo {
	bool created[RDT_MAX_GROUPS];
	bool mask_written[RDT_MAX_GROUPS];
	bool cpus_written;
};

struct rdt {
	char root[RDT_PATH_LEN / 2];
	char prefix[RDT_PREFIX_LEN];
	char family[RDT_PREFIX_LEN];
	unsigned int cache_id;
	rdt_write_fn write;
	rdt_rmdir_fn rmdir;
	rdt_mkdir_fn mkdir;
	void *fs_arg;
	rdt_print_fn print;
	void *print_arg;
	struct rdt_l3_info info;
	unsigned int ngroups;
	struct rdt_group group[RDT_MAX_GROUPS];
	struct rdt_group next[RDT_MAX_GROUPS]; /* scratch of rdt_commit */
	/* The masks shared groups had on our domain before iocad wrote them. */
	unsigned int norig;
	struct rdt_group orig[RDT_MAX_GROUPS];
	/* Between rdt_stage() and rdt_commit()/rdt_unstage(): the record before it. */
	bool staged;
	unsigned int nold;
	struct rdt_group old[RDT_MAX_GROUPS];
	struct rdt_undo undo;
	/* CPUs of groups iocad did not create, read by the last stage; those said */
	struct platform_cpuset foreign, foreign_said;
	/* The mount's device when the record was made (rdt_watch.c) */
	uint64_t root_dev;
	/*
	 * rdt_verify's shortcut (rdt_watch.c): an inotify watch on the root
	 * (-1: none), and whether the last full look found the record held,
	 * for the record whose fingerprint is @watch_sum.
	 */
	int watch_fd, watch_wd;
	bool watch_held;
	uint64_t watch_sum;
	unsigned long looks; /* full looks (a stat per group) so far */
};

/* vsnprintf: a path cut short fails at open(), gcc need not prove it fits */
void rdt_pathf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void rdt_say(const struct rdt *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The group called @name among @n, or NULL. */
const struct rdt_group *rdt_find(const struct rdt_group *g, unsigned int n, const char *name);

/* root/<prefix><name>[/file], or root/<name>[/file] for a shared one, into @buf. */
void rdt_gpath(const struct rdt *r, const struct rdt_group *g, const char *file, char *buf,
	       size_t len);

/*
 * The union of the CPU lists of the groups iocad did not create (outside
 * the family) into @out; 0 or -errno.
 */
int rdt_foreign_set(struct rdt *r, struct platform_cpuset *out);

/* Note the mount's device (at open and after rdt_reset()). */
void rdt_mount_dev(struct rdt *r);

/* The inode of @path's directory (0 if it is not one). */
uint64_t rdt_dir_ino(const char *path);

/* root/<prefix><name>[/file] into @buf. */
void rdt_group_path(const struct rdt *r, const char *name, const char *file, char *buf, size_t len);

#endif /* IOCAD_RDT_APPLY_H */
