/* SPDX-License-Identifier: GPL-2.0 */
/*
 * resctrl_emu: which CPUs and tasks belong to which group. Each CPU and each
 * task is in exactly one group; the default group holds what no other has.
 */
#ifndef RESCTRL_EMU_MEMBERS_H
#define RESCTRL_EMU_MEMBERS_H

#include "model.h"

int rctl_cpus_show(struct rctl_group *grp, struct seq_file *m);
int rctl_cpus_list_show(struct rctl_group *grp, struct seq_file *m);
int rctl_cpus_write(struct rctl_group *grp, char *buf, size_t len);
int rctl_cpus_list_write(struct rctl_group *grp, char *buf, size_t len);
int rctl_tasks_show(struct rctl_group *grp, struct seq_file *m);
int rctl_tasks_write(struct rctl_group *grp, char *buf, size_t len);
/* Under rctl_lock: put @child where @parent is, as fork does (fork.c). */
void rctl_tasks_inherit(pid_t parent, pid_t child);

int rctl_cpu_online(unsigned int cpu);
int rctl_cpu_offline(unsigned int cpu);

#endif /* RESCTRL_EMU_MEMBERS_H */
