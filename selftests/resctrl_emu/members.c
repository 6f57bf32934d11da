// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: the cpus, cpus_list and tasks files, and CPU hotplug. As in
 * the kernel's resctrl: giving CPUs to a group takes them from whichever
 * group had them; CPUs dropped from a group go to the default group, which
 * cannot drop any; only online CPUs can be assigned; an offline CPU leaves
 * its group and comes back online in the default group.
 */
#include <linux/cpumask.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "fork.h"
#include "members.h"

int rctl_cpus_show(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%*pb\n", cpumask_pr_args(&grp->cpus));
	return 0;
}

int rctl_cpus_list_show(struct rctl_group *grp, struct seq_file *m)
{
	seq_printf(m, "%*pbl\n", cpumask_pr_args(&grp->cpus));
	return 0;
}

/* Masks are off the stack: Debian's NR_CPUS makes each one 1 KiB. */
static int cpus_set(struct rctl_group *grp, const struct cpumask *want,
		    struct cpumask *dropped, struct cpumask *added)
{
	struct rctl_group *g;

	if (!cpumask_subset(want, cpu_online_mask)) {
		rctl_status("Can only assign online CPUs\n");
		return -EINVAL;
	}
	cpumask_andnot(dropped, &grp->cpus, want);
	if (!cpumask_empty(dropped)) {
		if (grp == &rctl_default) {
			rctl_status("Can't drop CPUs from default group\n");
			return -EINVAL;
		}
		cpumask_or(&rctl_default.cpus, &rctl_default.cpus, dropped);
	}
	cpumask_andnot(added, want, &grp->cpus);
	if (grp != &rctl_default)
		cpumask_andnot(&rctl_default.cpus, &rctl_default.cpus, added);
	list_for_each_entry(g, &rctl_default.list, list)
		if (g != grp)
			cpumask_andnot(&g->cpus, &g->cpus, added);
	cpumask_copy(&grp->cpus, want);
	return 0;
}

static int cpus_write(struct rctl_group *grp, char *buf, bool list)
{
	cpumask_var_t want, dropped, added;
	int ret = -ENOMEM;

	if (!zalloc_cpumask_var(&want, GFP_KERNEL))
		return -ENOMEM;
	if (!zalloc_cpumask_var(&dropped, GFP_KERNEL))
		goto out_want;
	if (!zalloc_cpumask_var(&added, GFP_KERNEL))
		goto out_dropped;
	rctl_status_clear();
	buf = strim(buf);
	ret = list ? cpulist_parse(buf, want) : cpumask_parse(buf, want);
	if (ret)
		rctl_status("Bad CPU list/mask\n");
	else
		ret = cpus_set(grp, want, dropped, added);
	free_cpumask_var(added);
out_dropped:
	free_cpumask_var(dropped);
out_want:
	free_cpumask_var(want);
	return ret;
}

int rctl_cpus_write(struct rctl_group *grp, char *buf, size_t len)
{
	return cpus_write(grp, buf, false);
}

int rctl_cpus_list_write(struct rctl_group *grp, char *buf, size_t len)
{
	return cpus_write(grp, buf, true);
}

int rctl_cpu_online(unsigned int cpu)
{
	mutex_lock(&rctl_lock);
	cpumask_set_cpu(cpu, &rctl_default.cpus);
	mutex_unlock(&rctl_lock);
	return 0;
}

int rctl_cpu_offline(unsigned int cpu)
{
	struct rctl_group *g;

	mutex_lock(&rctl_lock);
	cpumask_clear_cpu(cpu, &rctl_default.cpus);
	list_for_each_entry(g, &rctl_default.list, list)
		cpumask_clear_cpu(cpu, &g->cpus);
	mutex_unlock(&rctl_lock);
	return 0;
}

static int pid_index(const struct rctl_group *grp, pid_t pid)
{
	unsigned int i;

	for (i = 0; i < grp->npids; i++)
		if (grp->pids[i] == pid)
			return i;
	return -1;
}

static struct rctl_group *group_of_pid(pid_t pid)
{
	struct rctl_group *g;

	list_for_each_entry(g, &rctl_default.list, list)
		if (pid_index(g, pid) >= 0)
			return g;
	return &rctl_default;
}

/* Called under rcu_read_lock(): a pid that names no task is stale. */
static bool vpid_has_task(pid_t pid)
{
	return pid_task(find_vpid(pid), PIDTYPE_PID);
}

int rctl_tasks_show(struct rctl_group *grp, struct seq_file *m)
{
	struct task_struct *p, *t;
	unsigned int i;
	pid_t pid;

	rctl_fork_drain();
	rcu_read_lock();
	if (grp != &rctl_default) {
		for (i = 0; i < grp->npids; i++)
			if (vpid_has_task(grp->pids[i]))
				seq_printf(m, "%d\n", grp->pids[i]);
	} else {
		for_each_process_thread(p, t) {
			pid = task_pid_vnr(t);
			if (pid && group_of_pid(pid) == &rctl_default)
				seq_printf(m, "%d\n", pid);
		}
	}
	rcu_read_unlock();
	return 0;
}

void rctl_tasks_inherit(pid_t parent, pid_t child)
{
	struct rctl_group *grp = group_of_pid(parent), *old = group_of_pid(child);
	pid_t *pids;
	int i;

	if (grp == old)
		return;
	if (old != &rctl_default) {
		/* a stale entry: the pid was reused by this new task */
		i = pid_index(old, child);
		old->pids[i] = old->pids[--old->npids];
	}
	if (grp == &rctl_default)
		return;
	pids = krealloc_array(grp->pids, grp->npids + 1, sizeof(*pids), GFP_KERNEL);
	if (!pids)
		return;
	grp->pids = pids;
	grp->pids[grp->npids++] = child;
}

/* One task id per write, 0 for the writer itself, as the kernel takes it. */
int rctl_tasks_write(struct rctl_group *grp, char *buf, size_t len)
{
	struct rctl_group *old;
	pid_t pid, *pids;
	bool alive;
	int i;

	if (kstrtoint(strstrip(buf), 0, &pid) || pid < 0)
		return -EINVAL;
	rctl_status_clear();
	rctl_fork_drain();
	if (!pid)
		pid = task_pid_vnr(current);
	rcu_read_lock();
	alive = vpid_has_task(pid);
	rcu_read_unlock();
	if (!alive) {
		rctl_status("No task %d\n", pid);
		return -ESRCH;
	}
	old = group_of_pid(pid);
	if (old == grp)
		return 0;
	if (grp != &rctl_default) {
		pids = krealloc_array(grp->pids, grp->npids + 1, sizeof(*pids),
				      GFP_KERNEL);
		if (!pids)
			return -ENOMEM;
		grp->pids = pids;
		grp->pids[grp->npids++] = pid;
	}
	if (old != &rctl_default) {
		i = pid_index(old, pid);
		old->pids[i] = old->pids[--old->npids];
	}
	return 0;
}
