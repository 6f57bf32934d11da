// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl_emu: forked tasks inherit their parent's group. The kernel does
 * this in fork itself (task->closid is copied); a module cannot, so a
 * kprobe on wake_up_new_task(), which the parent calls for its new child,
 * queues (parent, child). Pids are global ones, as the emulation's tasks
 * files take them from the initial pid namespace.
 *
 * The queue is applied in fork order under rctl_lock (a grandchild queued
 * after its parent finds it placed): by a work item, and first of all by
 * every read and write of a tasks file (rctl_fork_drain()). fork() returns
 * the child's pid only after the probe queued it, so a write naming it
 * comes after its fork, as in the kernel: applied late, the fork would
 * take back the move (a container runtime's init, written into its group
 * by the runtime, would fall back to its parent's group). A full queue
 * drops (and counts) forks. Without CONFIG_KPROBES, or if the probe cannot
 * be placed, children start in the default group and the load says so.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "fork.h"
#include "members.h"

/* Whether children are followed: tests skip what needs it when not. */
static bool fork_probed;
module_param_named(fork_follow, fork_probed, bool, 0444);
MODULE_PARM_DESC(fork_follow, "read-only: forked tasks start in their parent's group (needs kprobes)");

/* Tests of the order: forks wait for a tasks file's read or write. */
static bool fork_defer;
module_param(fork_defer, bool, 0600);
MODULE_PARM_DESC(fork_defer, "1: the work item leaves queued forks to the next read or write of a tasks file");

#if IS_ENABLED(CONFIG_KPROBES)

#define RCTL_FORK_QUEUE 1024

struct rctl_fork {
	pid_t parent;
	pid_t child;
};

static DEFINE_SPINLOCK(fork_lock);
static struct rctl_fork fork_queue[RCTL_FORK_QUEUE];
static unsigned int fork_head, fork_len, fork_dropped;

void rctl_fork_drain(void)
{
	struct rctl_fork f;
	unsigned long flags;

	lockdep_assert_held(&rctl_lock);
	for (;;) {
		spin_lock_irqsave(&fork_lock, flags);
		if (!fork_len) {
			spin_unlock_irqrestore(&fork_lock, flags);
			return;
		}
		f = fork_queue[fork_head];
		fork_head = (fork_head + 1) % RCTL_FORK_QUEUE;
		fork_len--;
		spin_unlock_irqrestore(&fork_lock, flags);
		rctl_tasks_inherit(f.parent, f.child);
	}
}

static void fork_work_fn(struct work_struct *w)
{
	if (READ_ONCE(fork_defer))
		return;
	mutex_lock(&rctl_lock);
	rctl_fork_drain();
	mutex_unlock(&rctl_lock);
}

static DECLARE_WORK(fork_work, fork_work_fn);

/* Atomic context: the parent (current) wakes its new child @p. */
static int fork_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct task_struct *p = (struct task_struct *)regs_get_kernel_argument(regs, 0);
	unsigned long flags;

	spin_lock_irqsave(&fork_lock, flags);
	if (fork_len < RCTL_FORK_QUEUE) {
		fork_queue[(fork_head + fork_len) % RCTL_FORK_QUEUE] = (struct rctl_fork){
			.parent = task_pid_nr(current),
			.child = task_pid_nr(p),
		};
		fork_len++;
	} else {
		fork_dropped++;
	}
	spin_unlock_irqrestore(&fork_lock, flags);
	schedule_work(&fork_work);
	return 0;
}

static struct kprobe fork_kp = {
	.symbol_name = "wake_up_new_task",
	.pre_handler = fork_pre,
};

int rctl_fork_init(void)
{
	int ret = register_kprobe(&fork_kp);

	if (ret) {
		pr_warn("no kprobe on wake_up_new_task (%d): forked tasks start in the default group\n",
			ret);
		return 0;
	}
	fork_probed = true;
	return 0;
}

void rctl_fork_exit(void)
{
	if (!fork_probed)
		return;
	unregister_kprobe(&fork_kp);
	cancel_work_sync(&fork_work);
	if (fork_dropped)
		pr_warn("%u forks not followed (queue full)\n", fork_dropped);
}

#else

void rctl_fork_drain(void)
{
}

int rctl_fork_init(void)
{
	pr_warn("no CONFIG_KPROBES: forked tasks start in the default group\n");
	return 0;
}

void rctl_fork_exit(void)
{
}

#endif
