/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl_emu: a forked task starts in its parent's group, as in the
 * kernel's resctrl, where fork copies the parent's CLOSID and RMID. This
 * is what container runtimes rely on: runc writes its init's pid into a
 * group's tasks before that init forks the container's process.
 */
#ifndef RESCTRL_EMU_FORK_H
#define RESCTRL_EMU_FORK_H

int rctl_fork_init(void);
/* Under rctl_lock: place every child forked so far (before any tasks I/O). */
void rctl_fork_drain(void);
void rctl_fork_exit(void);

#endif /* RESCTRL_EMU_FORK_H */
