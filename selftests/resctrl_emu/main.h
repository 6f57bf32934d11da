/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl_emu: a test-only emulation of the kernel's resctrl filesystem
 * (L3 cache allocation) for guests without RDT. main.c holds the module
 * parameters and registers the filesystem; README.md says what it enforces.
 */
#ifndef RESCTRL_EMU_MAIN_H
#define RESCTRL_EMU_MAIN_H

#define RCTL_DEFAULT_CBM_MASK 0x7ff
#define RCTL_DEFAULT_NUM_CLOSIDS 16

#endif /* RESCTRL_EMU_MAIN_H */
