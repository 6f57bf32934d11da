/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl_emu: the state of the emulated resctrl filesystem (one L3
 * resource, its cache domains, the control groups) and the rules the
 * kernel's resctrl applies to it. No VFS here: fsops.c calls these with
 * rctl_lock held and turns the results into files.
 */
#ifndef RESCTRL_EMU_MODEL_H
#define RESCTRL_EMU_MODEL_H

#include <linux/cpumask.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/types.h>

#define RCTL_MAX_DOMAINS 8
#define RCTL_MAX_CLOSIDS 64
#define RCTL_NAME_LEN 64

/* What the module parameters describe; checked once by rctl_config_check(). */
struct rctl_config {
	u32 cbm_mask;
	unsigned int cbm_len;
	unsigned int min_cbm_bits;
	unsigned int num_closids;
	u32 shareable_bits;
	unsigned int cache_ids[RCTL_MAX_DOMAINS];
	unsigned int num_domains;
	int io_alloc;		/* RCTL_IO_ALLOC_*, io_alloc.h */
};

/* One file of a group directory: i_private of its inode points here. */
struct rctl_node {
	const struct rctl_file_desc *desc;
	struct rctl_group *grp;
};

#define RCTL_GROUP_FILES 5

struct rctl_group {
	struct kref ref;	/* the fs's own, plus one per inode */
	struct list_head list;	/* rctl_groups, default group first */
	char name[RCTL_NAME_LEN];
	unsigned int closid;
	bool dead;		/* removed: its open files answer -ENOENT */
	u32 cbm[RCTL_MAX_DOMAINS];
	struct cpumask cpus;
	pid_t *pids;		/* tasks moved here (not for the default group) */
	unsigned int npids;
	struct rctl_node nodes[RCTL_GROUP_FILES];
	struct dentry *dentries[RCTL_GROUP_FILES];	/* pinned by fsops.c */
};

/* A file: show prints it, write (NULL: read-only) parses a whole write. */
struct rctl_file_desc {
	const char *name;
	umode_t mode;
	int (*show)(struct rctl_group *grp, struct seq_file *m);
	int (*write)(struct rctl_group *grp, char *buf, size_t len);
};

extern struct mutex rctl_lock;
extern struct rctl_config rctl_cfg;
extern struct rctl_group rctl_default;

int rctl_config_check(void);
void rctl_reset(void);
struct rctl_group *rctl_group_create(const char *name);
void rctl_group_remove(struct rctl_group *grp);
void rctl_group_put(struct rctl_group *grp);
bool rctl_group_exists(const char *name);
const char *rctl_closid_owner(unsigned int closid);
void rctl_closid_reserve(unsigned int closid, bool reserve);

void rctl_status_clear(void);
__printf(1, 2) void rctl_status(const char *fmt, ...);
int rctl_status_show(struct seq_file *m);

int rctl_mode_show(struct rctl_group *grp, struct seq_file *m);
int rctl_mode_write(struct rctl_group *grp, char *buf, size_t len);

/*
 * Fault injection: the next schemata write of the group named @name ("/" is
 * the default group) is refused after it parsed; "" disarms.
 */
int rctl_fail_next_set(const char *name);
int rctl_fail_next_get(char *buf, size_t size);
bool rctl_fail_next_take(const struct rctl_group *grp);

#endif /* RESCTRL_EMU_MODEL_H */
