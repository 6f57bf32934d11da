/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocad's resctrl groups: one directory per tenant (or tenant group) under
 * the resctrl root, named <prefix><name>, holding the tenant's CPUs and its
 * L3 mask on one cache domain. Only directories with the prefix are ever
 * created, written or removed; a plan is applied whole or the previous
 * masks and CPU lists are put back.
 *
 * Not thread-safe: one handle belongs to one thread.
 */
#ifndef IOCAD_RDT_H
#define IOCAD_RDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "rdt_info.h"

#define RDT_PREFIX_LEN 32
#define RDT_MAX_GROUPS PLATFORM_MAX_TENANTS

/*
 * Every write into resctrl and every group removal goes through these (the
 * defaults: open(@path, O_WRONLY) + one write() of @data; rmdir(2)). Tests
 * replace them to refuse chosen writes as the kernel would, and to remove
 * a plain directory that holds files. 0 or -errno.
 */
typedef int (*rdt_write_fn)(void *arg, const char *path, const char *data);
typedef int (*rdt_rmdir_fn)(void *arg, const char *path);
/* A group's creation likewise (the default: mkdir(@path, 0755)); 0 or -errno. */
typedef int (*rdt_mkdir_fn)(void *arg, const char *path);

/* Warnings and notices (stale groups removed, a rollback that failed). */
typedef void (*rdt_print_fn)(void *arg, const char *msg);

struct rdt_opts {
	size_t sz;	    /* sizeof(struct rdt_opts) */
	const char *root;   /* NULL: RDT_ROOT_DEFAULT */
	const char *prefix; /* e.g. "iocad-s0-"; required, [A-Za-z0-9_.-]+ */
	/* e.g. "iocad-": groups of the same daemon on other sockets (NULL: prefix) */
	const char *family;
	unsigned int cache_id; /* the managed socket's L3 domain id */
	rdt_write_fn write;    /* NULL: write(2) */
	rdt_rmdir_fn rmdir;    /* NULL: rmdir(2) */
	void *fs_arg;	       /* passed to write and rmdir */
	rdt_print_fn print;    /* NULL: stderr */
	void *print_arg;
	rdt_mkdir_fn mkdir; /* NULL: mkdir(2) */
	size_t : 0;
};
#define rdt_opts__last_field mkdir

/* One group of a plan. */
struct rdt_group {
	/*
	 * iocad's own group <prefix><name>, or with @shared a container
	 * runtime's RDT class at <root>/<name> (rdt_class): iocad writes only
	 * its mask on our domain, never creates or removes it, never writes its
	 * CPUs or tasks, and puts back the mask it found there when it lets go.
	 */
	char name[PLATFORM_NAME_LEN];
	bool shared;
	unsigned int cpus[PLATFORM_MAX_CPUS]; /* ascending */
	unsigned int ncpus;
	uint32_t mask;
	/*
	 * Set by rdt, ignored in a plan. @missing: a runtime's class that is
	 * not there (vanished, or not yet made): its tenant waits, every other
	 * group is applied. @ino: the directory's inode when iocad last saw it,
	 * so a group removed and made again (a remount) is told from ours.
	 */
	bool missing;
	uint64_t ino;
};

struct rdt;

/*
 * Read info/L3 and check the mount. Touches nothing. NULL with errno set
 * and @err saying why (not mounted: how to mount).
 */
struct rdt *rdt_open(const struct rdt_opts *opts, char *err, size_t errlen);
void rdt_close(struct rdt *r);

const struct rdt_l3_info *rdt_info(const struct rdt *r);

/* The resctrl root this handle works in. */
const char *rdt_root(const struct rdt *r);

/*
 * Groups under the root that carry our prefix (left by a dead instance):
 * names into @names (up to @max), count returned, or -errno.
 */
int rdt_find_stale(struct rdt *r, char (*names)[PLATFORM_NAME_LEN + RDT_PREFIX_LEN],
		   unsigned int max);

/*
 * Is one of @cpus in a group iocad did not create (outside the family)?
 * 1 with the group's name in @group and the CPU in *@cpu, 0 if none, or
 * -errno. Writing a CPU into iocad's group takes it out of that one.
 */
int rdt_foreign_cpus(struct rdt *r, const struct platform_cpuset *cpus, char *group, size_t glen,
		     unsigned int *cpu);

/* Remove the stale groups (their CPUs go back to the default group). */
int rdt_remove_stale(struct rdt *r, char *err, size_t errlen);

/*
 * Whether @ngroups groups (of every socket) fit: num_closids minus the
 * default group and the groups iocad did not create (outside the family).
 * 0, or -ENOSPC with the numbers in @err.
 */
int rdt_check_closids(struct rdt *r, unsigned int ngroups, char *err, size_t errlen);

/*
 * As rdt_check_closids() for a plan of @ngroups groups whose apply holds
 * @peak of iocad's groups at once (rdt_peak(): old groups are removed only
 * once the whole plan holds, so a renamed group needs two CLOSIDs).
 */
int rdt_check_closids_peak(struct rdt *r, unsigned int ngroups, unsigned int peak, char *err,
			   size_t errlen);

/*
 * Make resctrl hold exactly @groups (created, CPUs assigned, masks
 * written; groups of ours not in the list removed): rdt_stage() then
 * rdt_commit(). Returns 0 or -errno.
 */
int rdt_apply(struct rdt *r, const struct rdt_group *groups, unsigned int n, char *err,
	      size_t errlen);

/*
 * The undoable part of an apply: create the missing groups, write masks,
 * assign CPUs. Masks are checked against the kernel's rules first. A CPU
 * held by a group iocad did not create is never written into ours (it is
 * left where it is, said once). A runtime's class that is not there is
 * skipped (its tenant waits, said once), the rest is applied. The groups
 * the plan drops stay until rdt_commit(). On a failed write every mask and
 * CPU list is put back, groups created here are removed, and @err names
 * the group, the file and the kernel's info/last_cmd_status.
 * Returns 0 or -errno.
 */
int rdt_stage(struct rdt *r, const struct rdt_group *groups, unsigned int n, char *err,
	      size_t errlen);

/* After rdt_stage(): remove the groups the plan dropped (nothing to undo). */
void rdt_commit(struct rdt *r);

/*
 * After rdt_stage(): put back what it changed (masks, CPU lists, groups it
 * created), as a failed stage does. Nothing was removed, so nothing is
 * made again: the old groups keep their CLOSIDs, tasks and monitoring
 * groups.
 */
void rdt_unstage(struct rdt *r);

/*
 * Forget what was applied and read our groups back from resctrl (masks on
 * our domain, CPU lists; rdt_watch.c): after a failed write or rollback,
 * the next rdt_apply() compares with what is there, not with what was
 * meant. 0, or the first -errno (a group that could not be read is left
 * off the record, so the next apply writes it whole).
 */
int rdt_reread(struct rdt *r);

/*
 * Is @name a group iocad may share (rdt_class): a directory with a
 * schemata file under the root, outside the family? 0, or -errno with @err
 * saying what to do.
 */
int rdt_check_shared(struct rdt *r, const char *name, char *err, size_t errlen);

/*
 * Remove every group of ours; shared groups get back the mask found there.
 * 0 or the first -errno (the rest still tried).
 */
int rdt_remove_all(struct rdt *r);

/* The groups applied last (what resctrl holds). */
unsigned int rdt_groups(const struct rdt *r, const struct rdt_group **out);

#endif /* IOCAD_RDT_H */
