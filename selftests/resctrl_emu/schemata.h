/* SPDX-License-Identifier: GPL-2.0 */
/* resctrl_emu: the schemata file, validated as the kernel's resctrl does. */
#ifndef RESCTRL_EMU_SCHEMATA_H
#define RESCTRL_EMU_SCHEMATA_H

#include "model.h"

int rctl_schemata_show(struct rctl_group *grp, struct seq_file *m);
int rctl_schemata_write(struct rctl_group *grp, char *buf, size_t len);
int rctl_domains_parse(char *line, u32 *staged, bool *have);

#endif /* RESCTRL_EMU_SCHEMATA_H */
