// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: the filesystem. The root directory is the default group
 * (cpus, cpus_list, mode, schemata, tasks) plus info/; mkdir in the root
 * makes a control group with the same five files, rmdir removes it with
 * them. One mount at a time, as resctrl; unmounting removes every group.
 *
 * Lifetime: a group is freed when its last inode is evicted, so an open
 * file never points at freed memory; after rmdir it answers -ENOENT.
 * Locks, outer to inner: inode locks, the CPU hotplug lock, rctl_lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/fs_context.h>
#include <linux/magic.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fsops.h"
#include "info.h"
#include "io_alloc.h"
#include "members.h"
#include "schemata.h"

static bool mounted;

static const struct rctl_file_desc group_files[RCTL_GROUP_FILES] = {
	{ "cpus", 0644, rctl_cpus_show, rctl_cpus_write },
	{ "cpus_list", 0644, rctl_cpus_list_show, rctl_cpus_list_write },
	{ "mode", 0644, rctl_mode_show, rctl_mode_write },
	{ "schemata", 0644, rctl_schemata_show, rctl_schemata_write },
	{ "tasks", 0644, rctl_tasks_show, rctl_tasks_write },
};

static struct rctl_node info_nodes[1 + RCTL_L3_FILES + RCTL_IO_ALLOC_FILES];

static int rctl_show(struct seq_file *m, void *v)
{
	struct rctl_node *node = m->private;
	int ret;

	mutex_lock(&rctl_lock);
	ret = node->grp->dead ? -ENOENT : node->desc->show(node->grp, m);
	mutex_unlock(&rctl_lock);
	return ret;
}

static int rctl_open(struct inode *inode, struct file *file)
{
	struct rctl_node *node = inode->i_private;

	if ((file->f_mode & FMODE_WRITE) && !node->desc->write)
		return -EACCES;
	return single_open(file, rctl_show, node);
}

/* One write() is one command, as with kernfs; the model parses it whole. */
static ssize_t rctl_write(struct file *file, const char __user *ubuf,
			  size_t len, loff_t *ppos)
{
	struct rctl_node *node = ((struct seq_file *)file->private_data)->private;
	char *buf;
	int ret;

	if (len >= PAGE_SIZE)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, len);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	cpus_read_lock();
	mutex_lock(&rctl_lock);
	ret = node->grp->dead ? -ENOENT : node->desc->write(node->grp, buf, len);
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();
	kfree(buf);
	return ret ? ret : len;
}

static const struct file_operations rctl_file_ops = {
	.owner = THIS_MODULE,
	.open = rctl_open,
	.read = seq_read,
	.write = rctl_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static struct inode *rctl_inode(struct super_block *sb, umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode->i_mode = mode;
	inode->i_atime = current_time(inode);
	inode->i_mtime = inode->i_atime;
	inode->i_ctime = inode->i_atime;
	return inode;
}

/* The dentry keeps the reference d_alloc_name() gave it: that pins it. */
static struct dentry *add_file(struct dentry *dir, struct rctl_node *node)
{
	struct dentry *d = d_alloc_name(dir, node->desc->name);
	struct inode *inode;

	if (!d)
		return NULL;
	inode = rctl_inode(dir->d_sb, S_IFREG | node->desc->mode);
	if (!inode) {
		dput(d);
		return NULL;
	}
	inode->i_fop = &rctl_file_ops;
	inode->i_private = node;
	kref_get(&node->grp->ref);
	d_add(d, inode);
	return d;
}

static struct inode *dir_inode(struct super_block *sb, struct inode *parent,
			       struct rctl_group *grp)
{
	struct inode *inode = rctl_inode(sb, S_IFDIR | 0755);

	if (!inode)
		return NULL;
	inode->i_op = &simple_dir_inode_operations;
	inode->i_fop = &simple_dir_operations;
	set_nlink(inode, 2);
	if (parent)
		inc_nlink(parent);
	if (grp) {
		inode->i_private = grp;
		kref_get(&grp->ref);
	}
	return inode;
}

static struct dentry *add_dir(struct dentry *parent, const char *name)
{
	struct dentry *d = d_alloc_name(parent, name);
	struct inode *inode;

	if (!d)
		return NULL;
	inode = dir_inode(parent->d_sb, d_inode(parent), NULL);
	if (!inode) {
		dput(d);
		return NULL;
	}
	d_add(d, inode);
	return d;
}

static int add_group_files(struct dentry *dir, struct rctl_group *grp)
{
	unsigned int i;

	for (i = 0; i < RCTL_GROUP_FILES; i++) {
		grp->nodes[i].desc = &group_files[i];
		grp->nodes[i].grp = grp;
		grp->dentries[i] = add_file(dir, &grp->nodes[i]);
		if (!grp->dentries[i])
			return -ENOMEM;
	}
	return 0;
}

/* With the group's directory locked: unhash and unpin its files. */
static void remove_group_files(struct rctl_group *grp)
{
	struct dentry *d;
	unsigned int i;

	for (i = 0; i < RCTL_GROUP_FILES; i++) {
		d = grp->dentries[i];
		if (!d)
			continue;
		grp->dentries[i] = NULL;
		clear_nlink(d_inode(d));
		d_invalidate(d);
		dput(d);
	}
}

static int rctl_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct rctl_group *grp = d_inode(dentry)->i_private;

	if (!grp)
		return -EPERM;
	cpus_read_lock();
	mutex_lock(&rctl_lock);
	rctl_status_clear();
	rctl_group_remove(grp);
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();
	remove_group_files(grp);
	return simple_rmdir(dir, dentry);
}

static int rctl_mkdir(struct user_namespace *ns, struct inode *dir,
		      struct dentry *dentry, umode_t mode)
{
	const char *name = dentry->d_name.name;
	struct rctl_group *grp;
	struct inode *inode;
	int ret;

	if (strchr(name, '\n'))
		return -EINVAL;
	if (dentry->d_name.len >= RCTL_NAME_LEN)
		return -ENAMETOOLONG;
	cpus_read_lock();
	mutex_lock(&rctl_lock);
	rctl_status_clear();
	grp = rctl_group_create(name);
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();
	if (IS_ERR(grp))
		return PTR_ERR(grp);
	inode = dir_inode(dir->i_sb, dir, grp);
	if (!inode) {
		ret = -ENOMEM;
		goto err_group;
	}
	d_instantiate(dentry, inode);
	dget(dentry);
	inode_lock(inode);
	ret = add_group_files(dentry, grp);
	if (ret) {
		remove_group_files(grp);
		inode_unlock(inode);
		simple_rmdir(dir, dentry);
		goto err_group;
	}
	inode_unlock(inode);
	return 0;
err_group:
	cpus_read_lock();
	mutex_lock(&rctl_lock);
	rctl_group_remove(grp);
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();
	return ret;
}

static const struct inode_operations rctl_root_iops = {
	.lookup = simple_lookup,
	.mkdir = rctl_mkdir,
	.rmdir = rctl_rmdir,
};

static void rctl_evict_inode(struct inode *inode)
{
	void *priv = inode->i_private;

	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (!priv)
		return;
	if (S_ISDIR(inode->i_mode))
		rctl_group_put(priv);
	else
		rctl_group_put(((struct rctl_node *)priv)->grp);
}

static const struct super_operations rctl_sops = {
	.statfs = simple_statfs,
	.drop_inode = generic_delete_inode,
	.evict_inode = rctl_evict_inode,
};

static int fill_info(struct dentry *root)
{
	struct dentry *info, *l3;
	struct rctl_node *node;
	unsigned int i;

	info = add_dir(root, "info");
	if (!info)
		return -ENOMEM;
	info_nodes[0].desc = &rctl_status_file;
	if (!add_file(info, &info_nodes[0]))
		return -ENOMEM;
	l3 = add_dir(info, "L3");
	if (!l3)
		return -ENOMEM;
	for (i = 0; i < RCTL_L3_FILES; i++) {
		info_nodes[1 + i].desc = &rctl_l3_files[i];
		if (!add_file(l3, &info_nodes[1 + i]))
			return -ENOMEM;
	}
	if (rctl_cfg.io_alloc == RCTL_IO_ALLOC_ABSENT)
		return 0;
	for (i = 0; i < RCTL_IO_ALLOC_FILES; i++) {
		node = &info_nodes[1 + RCTL_L3_FILES + i];
		node->desc = &rctl_io_alloc_files[i];
		if (!add_file(l3, node))
			return -ENOMEM;
	}
	return 0;
}

static int rctl_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;
	unsigned int i;

	cpus_read_lock();
	mutex_lock(&rctl_lock);
	if (mounted) {
		mutex_unlock(&rctl_lock);
		cpus_read_unlock();
		return -EBUSY;
	}
	mounted = true;
	sb->s_fs_info = &mounted;	/* this superblock owns the state */
	rctl_reset();
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();

	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = RDTGROUP_SUPER_MAGIC;
	sb->s_op = &rctl_sops;
	sb->s_time_gran = 1;
	root = dir_inode(sb, NULL, NULL);
	if (!root)
		return -ENOMEM;
	root->i_op = &rctl_root_iops;
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(info_nodes); i++)
		info_nodes[i].grp = &rctl_default;
	if (fill_info(sb->s_root))
		return -ENOMEM;
	return add_group_files(sb->s_root, &rctl_default);
}

static int rctl_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, rctl_fill_super);
}

/* resctrl's cdp, cdpl2 and mba_MBps are not emulated: refused by name. */
static int rctl_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	if (!strcmp(param->key, "source"))
		return -ENOPARAM;
	return invalfc(fc, "mount option '%s' is not emulated", param->key);
}

static const struct fs_context_operations rctl_context_ops = {
	.get_tree = rctl_get_tree,
	.parse_param = rctl_parse_param,
};

static int rctl_init_fs_context(struct fs_context *fc)
{
	fc->ops = &rctl_context_ops;
	return 0;
}

/* Unmount removes every group, as resctrl's rmdir_all_sub() does. */
static void rctl_kill_sb(struct super_block *sb)
{
	struct rctl_group *grp, *tmp;
	bool owner = sb->s_fs_info;

	kill_litter_super(sb);
	if (!owner)
		return;
	cpus_read_lock();
	mutex_lock(&rctl_lock);
	list_for_each_entry_safe(grp, tmp, &rctl_default.list, list)
		rctl_group_remove(grp);
	mounted = false;
	mutex_unlock(&rctl_lock);
	cpus_read_unlock();
}

struct file_system_type rctl_fs_type = {
	.owner = THIS_MODULE,
	.name = "resctrl",
	.init_fs_context = rctl_init_fs_context,
	.kill_sb = rctl_kill_sb,
};
