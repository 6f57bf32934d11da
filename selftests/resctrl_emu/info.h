/* SPDX-License-Identifier: GPL-2.0 */
/* resctrl_emu: descriptors of the files under info/. */
#ifndef RESCTRL_EMU_INFO_H
#define RESCTRL_EMU_INFO_H

#include "model.h"

#define RCTL_L3_FILES 4

extern const struct rctl_file_desc rctl_status_file;
extern const struct rctl_file_desc rctl_l3_files[RCTL_L3_FILES];

#endif /* RESCTRL_EMU_INFO_H */
