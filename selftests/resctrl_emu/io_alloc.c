// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: io_alloc, the portion of the L3 that I/O devices allocate
 * into. Enabling it reserves the highest CLOSID (num_closids - 1) for I/O:
 * it fails while a group holds that CLOSID, and while it is enabled no
 * group can get it. The CLOSID's masks start as the whole cbm_mask on
 * every domain (what a new shareable group gets) and are written through
 * io_alloc_cbm as "<id>=<mask>[;<id>=<mask>...]", each mask validated as
 * schemata validates it. Every function here runs with rctl_lock held.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "io_alloc.h"
#include "schemata.h"

static bool io_enabled;
static u32 io_cbm[RCTL_MAX_DOMAINS];

static unsigned int io_closid(void)
{
	return rctl_cfg.num_closids - 1;
}

/* A new mount starts with io_alloc disabled, as every control is reset. */
void rctl_io_alloc_reset(void)
{
	io_enabled = false;
}

static bool io_capable(void)
{
	if (rctl_cfg.io_alloc == RCTL_IO_ALLOC_SUPPORTED)
		return true;
	rctl_status("io_alloc is not supported on L3\n");
	return false;
}

static int show_io_alloc(struct rctl_group *grp, struct seq_file *m)
{
	if (rctl_cfg.io_alloc != RCTL_IO_ALLOC_SUPPORTED)
		seq_puts(m, "not supported\n");
	else
		seq_puts(m, io_enabled ? "enabled\n" : "disabled\n");
	return 0;
}

static int enable(void)
{
	const char *owner;
	unsigned int d;

	owner = rctl_closid_owner(io_closid());
	if (owner) {
		rctl_status("CLOSID (ctrl_hw_id) %u for io_alloc is used by %s group\n",
			    io_closid(), owner);
		return -ENOSPC;
	}
	rctl_closid_reserve(io_closid(), true);
	for (d = 0; d < rctl_cfg.num_domains; d++)
		io_cbm[d] = rctl_cfg.cbm_mask;
	io_enabled = true;
	return 0;
}

/* "1"/"0" (anything kstrtobool takes); the same state again is a no-op. */
static int write_io_alloc(struct rctl_group *grp, char *buf, size_t len)
{
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret)
		return ret;
	rctl_status_clear();
	if (!io_capable())
		return -ENODEV;
	if (on == io_enabled)
		return 0;
	if (on)
		return enable();
	rctl_closid_reserve(io_closid(), false);
	io_enabled = false;
	return 0;
}

/* io_alloc_cbm needs io_alloc supported (ENODEV) and enabled (EINVAL). */
static int usable(void)
{
	if (!io_capable())
		return -ENODEV;
	if (!io_enabled) {
		rctl_status("io_alloc is not enabled on L3\n");
		return -EINVAL;
	}
	return 0;
}

static int show_io_alloc_cbm(struct rctl_group *grp, struct seq_file *m)
{
	int width = DIV_ROUND_UP(rctl_cfg.cbm_len, 4);
	unsigned int d;

	int ret;

	rctl_status_clear();
	ret = usable();
	if (ret)
		return ret;
	for (d = 0; d < rctl_cfg.num_domains; d++)
		seq_printf(m, "%s%u=%0*x", d ? ";" : "", rctl_cfg.cache_ids[d],
			   width, io_cbm[d]);
	seq_putc(m, '\n');
	return 0;
}

/*
 * One line of domains; staged whole, applied only if every domain parsed.
 * An unknown cache id is EINVAL with the status left "ok", as in 6.19.
 */
static int write_io_alloc_cbm(struct rctl_group *grp, char *buf, size_t len)
{
	u32 staged[RCTL_MAX_DOMAINS];
	bool have[RCTL_MAX_DOMAINS] = { false };
	unsigned int d;
	int ret;

	if (!len || buf[len - 1] != '\n')
		return -EINVAL;
	buf[len - 1] = '\0';
	rctl_status_clear();
	ret = usable();
	if (ret)
		return ret;
	ret = rctl_domains_parse(buf, staged, have);
	if (ret)
		return ret;
	for (d = 0; d < rctl_cfg.num_domains; d++)
		if (have[d])
			io_cbm[d] = staged[d];
	return 0;
}

const struct rctl_file_desc rctl_io_alloc_files[RCTL_IO_ALLOC_FILES] = {
	{ "io_alloc", 0644, show_io_alloc, write_io_alloc },
	{ "io_alloc_cbm", 0644, show_io_alloc_cbm, write_io_alloc_cbm },
};
