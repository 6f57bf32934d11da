/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl_emu: info/L3/io_alloc and info/L3/io_alloc_cbm, as Linux 6.19's
 * resctrl offers them for AMD's SDCIAE (fs/resctrl/ctrlmondata.c there).
 */
#ifndef RESCTRL_EMU_IO_ALLOC_H
#define RESCTRL_EMU_IO_ALLOC_H

#include "model.h"

/* The io_alloc module parameter: which kernel and CPU is emulated. */
#define RCTL_IO_ALLOC_UNSUPPORTED (-1)	/* 6.19, no SDCIAE: "not supported" */
#define RCTL_IO_ALLOC_ABSENT 0		/* before 6.19: no files */
#define RCTL_IO_ALLOC_SUPPORTED 1	/* 6.19 with SDCIAE */

#define RCTL_IO_ALLOC_FILES 2

extern const struct rctl_file_desc rctl_io_alloc_files[RCTL_IO_ALLOC_FILES];

void rctl_io_alloc_reset(void);

#endif /* RESCTRL_EMU_IO_ALLOC_H */
