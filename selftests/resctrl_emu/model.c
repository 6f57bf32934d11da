// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: groups, CLOSIDs, info/last_cmd_status and the mode file.
 * Every function here expects rctl_lock held unless it says otherwise.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "io_alloc.h"
#include "model.h"

/* Serialises every change and read of the model (groups, status, knob). */
DEFINE_MUTEX(rctl_lock);
struct rctl_config rctl_cfg;
struct rctl_group rctl_default = {
	.name = "/",
	.ref = KREF_INIT(1),	/* never dropped: the default group is static */
	.list = LIST_HEAD_INIT(rctl_default.list),
};

static DECLARE_BITMAP(closid_used, RCTL_MAX_CLOSIDS);
static char status_buf[512];
static size_t status_len;
static char fail_next[RCTL_NAME_LEN];

/* The parameters must describe hardware resctrl could report. */
int rctl_config_check(void)
{
	struct rctl_config *c = &rctl_cfg;
	unsigned int i, j;

	if (!c->cbm_mask || (c->cbm_mask & (c->cbm_mask + 1))) {
		pr_err("cbm_mask=0x%x: must be non-zero and contiguous from bit 0\n",
		       c->cbm_mask);
		return -EINVAL;
	}
	c->cbm_len = fls(c->cbm_mask);
	if (!c->min_cbm_bits || c->min_cbm_bits > c->cbm_len) {
		pr_err("min_cbm_bits=%u: must be 1..%u (the bits of cbm_mask)\n",
		       c->min_cbm_bits, c->cbm_len);
		return -EINVAL;
	}
	if (!c->num_closids || c->num_closids > RCTL_MAX_CLOSIDS) {
		pr_err("num_closids=%u: must be 1..%d\n", c->num_closids,
		       RCTL_MAX_CLOSIDS);
		return -EINVAL;
	}
	if (c->shareable_bits & ~c->cbm_mask) {
		pr_err("shareable_bits=0x%x: not within cbm_mask=0x%x\n",
		       c->shareable_bits, c->cbm_mask);
		return -EINVAL;
	}
	if (!c->num_domains) {
		pr_err("cache_ids: at least one cache id is needed\n");
		return -EINVAL;
	}
	if (c->io_alloc < RCTL_IO_ALLOC_UNSUPPORTED ||
	    c->io_alloc > RCTL_IO_ALLOC_SUPPORTED) {
		pr_err("io_alloc=%d: must be -1 (\"not supported\"), 0 (no files) or 1 (supported)\n",
		       c->io_alloc);
		return -EINVAL;
	}
	for (i = 0; i < c->num_domains; i++)
		for (j = 0; j < i; j++)
			if (c->cache_ids[i] == c->cache_ids[j]) {
				pr_err("cache_ids: %u listed twice\n",
				       c->cache_ids[i]);
				return -EINVAL;
			}
	return 0;
}

/* A fresh mount: only the default group, with every CPU and the full mask. */
void rctl_reset(void)
{
	unsigned int d;

	WARN_ON(!list_empty(&rctl_default.list));
	bitmap_zero(closid_used, RCTL_MAX_CLOSIDS);
	set_bit(0, closid_used);
	rctl_default.closid = 0;
	rctl_default.dead = false;
	for (d = 0; d < rctl_cfg.num_domains; d++)
		rctl_default.cbm[d] = rctl_cfg.cbm_mask;
	cpumask_copy(&rctl_default.cpus, cpu_online_mask);
	rctl_status_clear();
	fail_next[0] = '\0';
	rctl_io_alloc_reset();
}

bool rctl_group_exists(const char *name)
{
	struct rctl_group *g;

	list_for_each_entry(g, &rctl_default.list, list)
		if (!strcmp(g->name, name))
			return true;
	return false;
}

/*
 * Who holds @closid: a group's name, "default", "io_alloc" for the CLOSID
 * io_alloc reserved, or NULL when it is free.
 */
const char *rctl_closid_owner(unsigned int closid)
{
	struct rctl_group *g;

	if (!test_bit(closid, closid_used))
		return NULL;
	if (closid == rctl_default.closid)
		return "default";
	list_for_each_entry(g, &rctl_default.list, list)
		if (g->closid == closid)
			return g->name;
	return "io_alloc";
}

/* io_alloc takes @closid out of (or puts it back into) the free ones. */
void rctl_closid_reserve(unsigned int closid, bool reserve)
{
	if (reserve)
		set_bit(closid, closid_used);
	else
		clear_bit(closid, closid_used);
}

/*
 * As the kernel's mkdir: the lowest free CLOSID, or ENOSPC with "Out of
 * CLOSIDs". Every group here is shareable, so the kernel's initial mask
 * (shareable bits, the other shareable groups' bits and the unused bits)
 * is always the whole cbm_mask.
 */
struct rctl_group *rctl_group_create(const char *name)
{
	struct rctl_group *grp;
	unsigned int closid, d;

	closid = find_first_zero_bit(closid_used, rctl_cfg.num_closids);
	if (closid >= rctl_cfg.num_closids) {
		rctl_status("Out of CLOSIDs\n");
		return ERR_PTR(-ENOSPC);
	}
	grp = kzalloc(sizeof(*grp), GFP_KERNEL);
	if (!grp) {
		rctl_status("Kernel out of memory\n");
		return ERR_PTR(-ENOSPC);
	}
	kref_init(&grp->ref);
	strscpy(grp->name, name, sizeof(grp->name));
	grp->closid = closid;
	for (d = 0; d < rctl_cfg.num_domains; d++)
		grp->cbm[d] = rctl_cfg.cbm_mask;
	set_bit(closid, closid_used);
	list_add_tail(&grp->list, &rctl_default.list);
	return grp;
}

/* rmdir: CPUs back to the default group, tasks too (by leaving the list). */
void rctl_group_remove(struct rctl_group *grp)
{
	grp->dead = true;
	list_del_init(&grp->list);
	cpumask_or(&rctl_default.cpus, &rctl_default.cpus, &grp->cpus);
	cpumask_clear(&grp->cpus);
	clear_bit(grp->closid, closid_used);
	kfree(grp->pids);
	grp->pids = NULL;
	grp->npids = 0;
	rctl_group_put(grp);
}

static void rctl_group_release(struct kref *ref)
{
	struct rctl_group *grp = container_of(ref, struct rctl_group, ref);

	if (WARN_ON(grp == &rctl_default))
		return;
	kfree(grp->pids);
	kfree(grp);
}

/* Drops one reference; needs no lock (inode eviction calls it). */
void rctl_group_put(struct rctl_group *grp)
{
	kref_put(&grp->ref, rctl_group_release);
}

void rctl_status_clear(void)
{
	status_len = 0;
	status_buf[0] = '\0';
}

void rctl_status(const char *fmt, ...)
{
	va_list ap;

	if (status_len >= sizeof(status_buf) - 1)
		return;
	va_start(ap, fmt);
	status_len += vscnprintf(status_buf + status_len,
				 sizeof(status_buf) - status_len, fmt, ap);
	va_end(ap);
}

int rctl_status_show(struct seq_file *m)
{
	seq_puts(m, status_len ? status_buf : "ok\n");
	return 0;
}

int rctl_mode_show(struct rctl_group *grp, struct seq_file *m)
{
	seq_puts(m, "shareable\n");
	return 0;
}

/* Only "shareable" exists here; the kernel's text for anything else. */
int rctl_mode_write(struct rctl_group *grp, char *buf, size_t len)
{
	if (!len || buf[len - 1] != '\n')
		return -EINVAL;
	buf[len - 1] = '\0';
	rctl_status_clear();
	if (strcmp(buf, "shareable")) {
		rctl_status("Unknown or unsupported mode\n");
		return -EINVAL;
	}
	return 0;
}

int rctl_fail_next_set(const char *name)
{
	size_t n = strcspn(name, "\n");

	if (n >= sizeof(fail_next))
		return -EINVAL;
	mutex_lock(&rctl_lock);
	memcpy(fail_next, name, n);
	fail_next[n] = '\0';
	mutex_unlock(&rctl_lock);
	return 0;
}

int rctl_fail_next_get(char *buf, size_t size)
{
	int n;

	mutex_lock(&rctl_lock);
	n = scnprintf(buf, size, "%s\n", fail_next);
	mutex_unlock(&rctl_lock);
	return n;
}

/* True once for the armed group, which disarms the knob. */
bool rctl_fail_next_take(const struct rctl_group *grp)
{
	if (!fail_next[0] || strcmp(fail_next, grp->name))
		return false;
	fail_next[0] = '\0';
	return true;
}
