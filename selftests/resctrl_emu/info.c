// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: the info directory's files, read-only: last_cmd_status and
 * what the module parameters say about the L3 (info/L3/).
 */
#include "info.h"

static int show_status(struct rctl_group *grp, struct seq_file *m)
{
	return rctl_status_show(m);
}

static int show_cbm_mask(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%x\n", rctl_cfg.cbm_mask);
	return 0;
}

static int show_min_cbm_bits(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%u\n", rctl_cfg.min_cbm_bits);
	return 0;
}

static int show_num_closids(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%u\n", rctl_cfg.num_closids);
	return 0;
}

static int show_shareable_bits(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%x\n", rctl_cfg.shareable_bits);
	return 0;
}

const struct rctl_file_desc rctl_status_file = {
	"last_cmd_status", 0444, show_status, NULL
};

const struct rctl_file_desc rctl_l3_files[RCTL_L3_FILES] = {
	{ "cbm_mask", 0444, show_cbm_mask, NULL },
	{ "min_cbm_bits", 0444, show_min_cbm_bits, NULL },
	{ "num_closids", 0444, show_num_closids, NULL },
	{ "shareable_bits", 0444, show_shareable_bits, NULL },
};
