/* SPDX-License-Identifier: GPL-2.0 */
/* resctrl_emu: registers the emulation under the name "resctrl". */
#ifndef RESCTRL_EMU_FSOPS_H
#define RESCTRL_EMU_FSOPS_H

#include <linux/fs.h>

extern struct file_system_type rctl_fs_type;

#endif /* RESCTRL_EMU_FSOPS_H */
