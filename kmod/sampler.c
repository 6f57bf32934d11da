// SPDX-License-Identifier: GPL-2.0
/*
 * Sampler lifecycle: configuration, creating and releasing the in-kernel perf
 * counters, CPU hotplug and the interval timer. The collection itself is in
 * collect.c.
 *
 * Lock order: ctl_lock, then cpus_read_lock(), then lock. Hotplug callbacks
 * run with the hotplug lock held for writing and take only lock. Files
 * (sysfs) are read under ctl_lock alone: kernfs takes the hotplug locks
 * under its own when a CPU's "online" file is written.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <net/netlink.h>
#include "compat.h"
#include "collect.h"
#include "ddio.h"
#include "emul_counters.h"
#include "epoch.h"
#include "sampler.h"
#include "sampler_events.h"
#include "sampler_uncore.h"

static void ioca_sampler_release(struct ioca_sampler *s)
{
	unsigned int i;

	for (i = 0; s->slots && i < s->cfg->nr_cpus; i++)
		ioca_slot_release(&s->slots[i]);
	ioca_sampler_release_uncore(s);
	kfree(s->slots);
	kfree(s->cpus);
	kfree(s->sockets);
	kfree(s->uncore);
	kfree(s->counts);
	kfree(s->uncore_base);
	kfree(s->parts);
	s->parts = NULL;
	s->slots = NULL;
	s->cpus = NULL;
	s->sockets = NULL;
	s->uncore = NULL;
	s->counts = NULL;
	s->uncore_base = NULL;
}

/* Caller holds cpus_read_lock() and s->lock. */
static int ioca_sampler_alloc(struct ioca_sampler *s)
{
	unsigned int n = s->cfg->nr_cpus, u = s->cfg->nr_uncore;
	/* Pairs with the release when a package appears (ddio_apply.c). */
	unsigned int dn = s->ddio ? smp_load_acquire(&s->ddio->nr_sockets) : 0;

	/* Every DDIO socket too: emulated ones beyond the packages. */
	s->nr_sockets = min_t(unsigned int, max(ioca_nr_sockets_locked(), dn),
			      IOCA_MAX_SOCKETS);
	s->slots = kcalloc(n, sizeof(*s->slots), GFP_KERNEL);
	s->cpus = kcalloc(n, sizeof(*s->cpus), GFP_KERNEL);
	s->sockets = kcalloc(s->nr_sockets, sizeof(*s->sockets), GFP_KERNEL);
	s->uncore = kcalloc(s->nr_sockets * u + 1, sizeof(*s->uncore),
			    GFP_KERNEL);
	s->counts = kcalloc(s->nr_sockets * u + 1, sizeof(*s->counts),
			    GFP_KERNEL);
	s->uncore_base = kcalloc(s->nr_sockets * u + 1,
				 sizeof(*s->uncore_base), GFP_KERNEL);
	s->max_parts = n + s->nr_sockets + 1;
	s->parts = kcalloc(s->max_parts, sizeof(*s->parts), GFP_KERNEL);
	if (!s->slots || !s->cpus || !s->sockets || !s->uncore || !s->counts ||
	    !s->uncore_base || !s->parts)
		return -ENOMEM;
	return 0;
}

/* Caller holds cpus_read_lock() and s->lock. */
static int ioca_sampler_create(struct ioca_sampler *s,
			       struct netlink_ext_ack *extack)
{
	unsigned int i;
	int err, first = -1;

	err = ioca_sampler_alloc(s);
	if (err)
		return err;
	for (i = 0; i < s->cfg->nr_cpus; i++) {
		u32 cpu = s->cfg->cpus[i];

		s->slots[i].s = s;
		s->slots[i].index = i;
		s->cpus[i].cpu = cpu;
		s->cpus[i].socket = topology_logical_package_id(cpu);
		if (first < 0 && cpu_online(cpu))
			first = cpu;
	}
	if (s->cfg->nr_events && first < 0) {
		NL_SET_ERR_MSG(extack, "no configured CPU is online");
		return -ENODEV;
	}
	if (s->cfg->nr_events) {
		err = ioca_pick_kinds(s, first);
		if (err) {
			NL_SET_ERR_MSG(extack, "per-CPU event could not be created");
			return err;
		}
	}
	for (i = 0; s->cfg->nr_events && i < s->cfg->nr_cpus; i++) {
		if (!cpu_online(s->cfg->cpus[i]))
			continue;
		err = ioca_slot_create(s, &s->slots[i], s->cfg->cpus[i]);
		if (err == -ENOSPC) {
			NL_SET_ERR_MSG(extack,
				       "the PMU cannot count all per-CPU events at once: configure fewer");
			return err;
		}
		if (err) {
			NL_SET_ERR_MSG(extack, "per-CPU event could not be created");
			return err;
		}
		s->generation[s->cfg->cpus[i]]++;
	}
	return ioca_sampler_create_uncore(s, extack);
}

/*
 * A start the test knob fails, as a busy PMU fails it: nothing created,
 * the sampler stays configured. Only emulate=1 creates the knob.
 */
static int ioca_sampler_fail_injected(struct ioca_sampler *s,
				      struct netlink_ext_ack *extack)
{
	if (atomic_dec_if_positive(&s->fail_starts) < 0)
		return 0;
	NL_SET_ERR_MSG(extack,
		       "per-CPU event could not be created (failure injected: debugfs ioca/sampler_fail_starts)");
	return -EBUSY;
}

static enum hrtimer_restart ioca_sampler_tick(struct hrtimer *t)
{
	struct ioca_sampler *s = container_of(t, struct ioca_sampler, timer);

	/* Still collecting the previous interval: this one merges into it. */
	queue_work(s->wq, &s->collect_work);
	hrtimer_forward_now(t, ns_to_ktime((u64)s->cfg->interval_us *
					   NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/*
 * An emulated count starts at 0 with its run, as the uncore event a run
 * creates on a PMU does: a new run's first sample holds that run's counts
 * only, never the module's since load (a reader rebasing at the new epoch
 * would take those as one interval's).
 */
static void ioca_sampler_emul_start(struct ioca_sampler *s)
{
	unsigned int so, k, u = s->cfg->nr_uncore;

	if (!s->emul)
		return;
	for (so = 0; so < s->nr_sockets; so++)
		for (k = 0; k < u; k++)
			if (ioca_emul_kind(s->cfg->uncore[k].kind))
				s->uncore_base[so * u + k].value =
					ioca_emul_read(s->emul, so,
						       s->cfg->uncore[k].kind,
						       s->start_ns);
}

/**
 * ioca_sampler_start() - create the counters and start the timer
 * @s: sampler
 * @extack: error report
 *
 * Return: 0, -EINVAL unconfigured, -EBUSY running, -ENODEV shutting down or
 * no configured CPU online, -ENOMEM, or perf's -errno for an event.
 */
int ioca_sampler_start(struct ioca_sampler *s, struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&s->ctl_lock);
	/* cfg changes only under ctl_lock; sysfs is read outside the others */
	if (s->cfg) {
		err = ioca_sampler_check_uncore(s->cfg, extack);
		if (err) {
			mutex_unlock(&s->ctl_lock);
			return err;
		}
	}
	cpus_read_lock();
	mutex_lock(&s->lock);
	if (s->shutdown) {
		err = -ENODEV;
	} else if (s->state == IOCA_SAMPLER_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "sampler is already running");
		err = -EBUSY;
	} else if (!s->cfg) {
		NL_SET_ERR_MSG(extack, "sampler is not configured");
		err = -EINVAL;
	} else {
		err = ioca_sampler_fail_injected(s, extack);
		if (!err)
			err = ioca_sampler_create(s, extack);
		if (err) {
			ioca_sampler_release(s);
		} else {
			/* Figures describe this run; seq keeps growing. */
			s->state = IOCA_SAMPLER_STATE_RUNNING;
			s->epoch = ioca_epoch_next(s->epoch);
			s->intervals = 0;
			s->no_listener = 0;
			s->send_errors = 0;
			s->sum_collect_ns = 0;
			s->nr_collect = 0;
			s->start_ns = ktime_get_ns();
			ioca_sampler_emul_start(s);
			hrtimer_start(&s->timer,
				      ns_to_ktime((u64)s->cfg->interval_us *
						  NSEC_PER_USEC),
				      HRTIMER_MODE_REL);
		}
	}
	mutex_unlock(&s->lock);
	cpus_read_unlock();
	mutex_unlock(&s->ctl_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_start);

/* Caller holds ctl_lock. */
static void __ioca_sampler_stop(struct ioca_sampler *s)
{
	mutex_lock(&s->lock);
	s->state = IOCA_SAMPLER_STATE_CONFIGURED;
	mutex_unlock(&s->lock);
	hrtimer_cancel(&s->timer);
	cancel_work_sync(&s->collect_work);
	cpus_read_lock();
	mutex_lock(&s->lock);
	ioca_sampler_release(s);
	mutex_unlock(&s->lock);
	cpus_read_unlock();
}

/**
 * ioca_sampler_stop() - stop the timer and release the counters
 * @s: sampler
 * @extack: error report
 *
 * Return: 0 or -EINVAL when not running.
 */
int ioca_sampler_stop(struct ioca_sampler *s, struct netlink_ext_ack *extack)
{
	int err = 0;

	mutex_lock(&s->ctl_lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING) {
		__ioca_sampler_stop(s);
	} else {
		NL_SET_ERR_MSG(extack, "sampler is not running");
		err = -EINVAL;
	}
	mutex_unlock(&s->ctl_lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_stop);

/**
 * ioca_sampler_configure() - replace the configuration of a stopped sampler
 * @s: sampler
 * @cfg: parsed configuration; owned by @s on success
 * @extack: error report
 *
 * Return: 0 or -EBUSY while running.
 */
int ioca_sampler_configure(struct ioca_sampler *s,
			   struct ioca_sampler_config *cfg,
			   struct netlink_ext_ack *extack)
{
	struct ioca_sampler_config *old = NULL;
	int err = 0;

	mutex_lock(&s->ctl_lock);
	mutex_lock(&s->lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING) {
		NL_SET_ERR_MSG(extack, "sampler is running: stop it first");
		err = -EBUSY;
	} else {
		old = s->cfg;
		s->cfg = cfg;
		s->state = IOCA_SAMPLER_STATE_CONFIGURED;
		s->epoch = ioca_epoch_next(s->epoch);
		memset(s->eff_kind, 0, sizeof(s->eff_kind));
	}
	mutex_unlock(&s->lock);
	mutex_unlock(&s->ctl_lock);
	kfree(old);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_configure);

/**
 * ioca_sampler_unconfigure() - stop if running and drop the configuration
 * @s: sampler
 */
void ioca_sampler_unconfigure(struct ioca_sampler *s)
{
	struct ioca_sampler_config *old;

	mutex_lock(&s->ctl_lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING)
		__ioca_sampler_stop(s);
	mutex_lock(&s->lock);
	old = s->cfg;
	s->cfg = NULL;
	s->state = IOCA_SAMPLER_STATE_UNCONFIGURED;
	memset(s->eff_kind, 0, sizeof(s->eff_kind));
	mutex_unlock(&s->lock);
	mutex_unlock(&s->ctl_lock);
	kfree(old);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_unconfigure);

/**
 * ioca_slot_index() - position of @cpu in the configured CPU list
 * @s: sampler (configured)
 * @cpu: CPU id
 *
 * Return: the index, or -1 when @cpu is not sampled.
 */
int ioca_slot_index(const struct ioca_sampler *s, unsigned int cpu)
{
	unsigned int lo = 0, hi = s->cfg->nr_cpus;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (s->cfg->cpus[mid] == cpu)
			return mid;
		if (s->cfg->cpus[mid] < cpu)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * A CPU came back: a sampled one gets fresh counters (from zero, a new
 * generation), the first of a socket its uncore events.
 */
static int ioca_sampler_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct ioca_sampler *s = hlist_entry(node, struct ioca_sampler, node);
	int i, err;

	mutex_lock(&s->lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING)
		ioca_uncore_cpu_online(s, cpu);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING && s->cfg->nr_events) {
		i = ioca_slot_index(s, cpu);
		if (i >= 0 && !s->slots[i].ev[0]) {
			err = ioca_slot_create(s, &s->slots[i], cpu);
			if (err)
				pr_warn("counters of CPU %u not re-created: %d\n",
					cpu, err);
			else
				s->generation[cpu]++;
		}
	}
	mutex_unlock(&s->lock);
	return 0;
}

/*
 * A CPU is going away: a sampled one is reported offline without counters,
 * the last of a socket takes its uncore events along.
 */
static int ioca_sampler_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct ioca_sampler *s = hlist_entry(node, struct ioca_sampler, node);
	int i;

	mutex_lock(&s->lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING) {
		i = ioca_slot_index(s, cpu);
		if (i >= 0)
			ioca_slot_release(&s->slots[i]);
		ioca_uncore_cpu_offline(s, cpu);
	}
	mutex_unlock(&s->lock);
	return 0;
}

/**
 * ioca_sampler_init() - set up an unconfigured sampler
 * @s: sampler
 *
 * Return: 0 or -errno.
 */
int ioca_sampler_init(struct ioca_sampler *s)
{
	int ret;

	memset(s, 0, sizeof(*s));
	mutex_init(&s->ctl_lock);
	mutex_init(&s->lock);
	ioca_hrtimer_setup(&s->timer, ioca_sampler_tick, CLOCK_MONOTONIC,
			   HRTIMER_MODE_REL);
	INIT_WORK(&s->collect_work, ioca_collect_interval_work);
	s->part_budget = IOCA_PART_BUDGET;
	s->hw_counters = ioca_probe_hw_counters();
	s->generation = kcalloc(nr_cpu_ids, sizeof(*s->generation), GFP_KERNEL);
	if (!s->generation)
		return -ENOMEM;
	if (!zalloc_cpumask_var(&s->read_mask, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_free_gen;
	}
	s->wq = alloc_workqueue("ioca_sampler", WQ_UNBOUND | WQ_HIGHPRI, 1);
	if (!s->wq) {
		ret = -ENOMEM;
		goto err_free_mask;
	}
	/* ORDER: the state, then our instance; nothing runs for existing CPUs. */
	ret = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "ioca/sampler:online",
				      ioca_sampler_cpu_online,
				      ioca_sampler_cpu_offline);
	if (ret < 0)
		goto err_destroy_wq;
	s->cpuhp_state = ret;
	ret = cpuhp_state_add_instance_nocalls(s->cpuhp_state, &s->node);
	if (ret)
		goto err_remove_state;
	return 0;

err_remove_state:
	cpuhp_remove_multi_state(s->cpuhp_state);
err_destroy_wq:
	destroy_workqueue(s->wq);
err_free_mask:
	free_cpumask_var(s->read_mask);
err_free_gen:
	kfree(s->generation);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_init);

/**
 * ioca_sampler_shutdown() - stop for good; start is refused from now on
 * @s: sampler
 */
void ioca_sampler_shutdown(struct ioca_sampler *s)
{
	mutex_lock(&s->ctl_lock);
	s->shutdown = true;
	if (s->state == IOCA_SAMPLER_STATE_RUNNING)
		__ioca_sampler_stop(s);
	mutex_unlock(&s->ctl_lock);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_shutdown);

/**
 * ioca_sampler_exit() - undo ioca_sampler_init(), after shutdown
 * @s: sampler
 */
void ioca_sampler_exit(struct ioca_sampler *s)
{
	cpuhp_state_remove_instance_nocalls(s->cpuhp_state, &s->node);
	cpuhp_remove_multi_state(s->cpuhp_state);
	destroy_workqueue(s->wq);
	free_cpumask_var(s->read_mask);
	kfree(s->generation);
	kfree(s->cfg);
	s->cfg = NULL;
	mutex_destroy(&s->lock);
	mutex_destroy(&s->ctl_lock);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sampler_exit);
