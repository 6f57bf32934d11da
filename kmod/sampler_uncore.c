// SPDX-License-Identifier: GPL-2.0
/*
 * Uncore events: one set per socket, opened on an online CPU of it. The
 * uncore PMU drivers move an event to another CPU of its socket when its
 * CPU goes offline, but when the socket's last CPU goes perf drops the
 * event for good. So a socket with no CPU online is reported without
 * counters, and its events are opened again when one of its CPUs returns.
 * Their counts carry on from the last reading before the socket went away
 * (kept as a base added to every later reading), so a client never sees a
 * socket's counter go backwards. The emulated DDIO kinds have no perf event
 * (their counts run on regardless) and follow the same presence.
 *
 * Everything here runs with s->lock held and the hotplug lock held (read
 * at start, write in the hotplug callbacks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/perf_event.h>
#include <linux/topology.h>
#include <net/netlink.h>
#include "compat.h"
#include "emul_counters.h"
#include "extack.h"
#include "pmu_type.h"
#include "sampler_events.h"
#include "sampler_uncore.h"

static void ioca_uncore_release_socket(struct ioca_sampler *s, unsigned int so,
				       bool keep_counts)
{
	unsigned int k, u = s->cfg->nr_uncore;

	for (k = 0; k < u; k++) {
		struct perf_event *ev = s->uncore[so * u + k];
		struct ioca_count *base = &s->uncore_base[so * u + k];
		u64 enabled, running, value;

		if (!ev)
			continue;
		if (keep_counts) {
			value = perf_event_read_value(ev, &enabled, &running);
			base->value += value;
			base->enabled += enabled;
			base->running += running;
		}
		perf_event_release_kernel(ev);
		s->uncore[so * u + k] = NULL;
	}
	s->sockets[so].present = false;
}

/* Opens socket @so's events on @cpu; on failure nothing stays open. */
static int ioca_uncore_open(struct ioca_sampler *s, unsigned int so, int cpu,
			    const char **why)
{
	unsigned int k, u = s->cfg->nr_uncore;

	for (k = 0; k < u; k++) {
		const struct ioca_event_spec *e = &s->cfg->uncore[k];
		struct perf_event *ev;

		/* Emulated DDIO counters have no perf event. */
		if (ioca_emul_kind(e->kind))
			continue;
		ev = ioca_event_create(e, IOCA_EVENT_KIND_RAW, cpu);
		if (IS_ERR(ev)) {
			*why = "uncore event could not be created (no such PMU?)";
			ioca_uncore_release_socket(s, so, false);
			return PTR_ERR(ev);
		}
		s->uncore[so * u + k] = ev;
		if (!ioca_uncore_pmu(ev)) {
			*why = "uncore event type is not an uncore PMU";
			ioca_uncore_release_socket(s, so, false);
			return -EINVAL;
		}
	}
	s->sockets[so].present = true;
	return 0;
}

/**
 * ioca_sampler_check_uncore() - are @cfg's uncore types uncore PMUs'?
 * @cfg: configuration about to be started
 * @extack: error report
 *
 * Nothing is made of a type until its PMU is known to be uncore. The
 * check reads sysfs, so it runs before the sampler takes the CPU hotplug
 * lock: writing a CPU's "online" file takes the hotplug locks under
 * kernfs' own, and reading a kernfs file under them would close the cycle.
 *
 * Return: 0 or -errno with @extack set.
 */
int ioca_sampler_check_uncore(const struct ioca_sampler_config *cfg,
			      struct netlink_ext_ack *extack)
{
	const char *why = NULL;
	unsigned int k;
	int err;

	for (k = 0; k < cfg->nr_uncore; k++) {
		if (ioca_emul_kind(cfg->uncore[k].kind))
			continue;
		err = ioca_pmu_type_check_uncore(cfg->uncore[k].type, &why);
		if (err) {
			ioca_nl_set_err(extack, NULL, why);
			return err;
		}
	}
	return 0;
}

/**
 * ioca_sampler_create_uncore() - open every socket's uncore events at start
 * @s: sampler, allocated, its types checked (ioca_sampler_check_uncore())
 * @extack: error report
 *
 * Return: 0 or -errno with @extack set.
 */
int ioca_sampler_create_uncore(struct ioca_sampler *s,
			       struct netlink_ext_ack *extack)
{
	unsigned int so, u = s->cfg->nr_uncore;
	const char *why = NULL;
	int err;

	for (so = 0; so < s->nr_sockets; so++) {
		int cpu = ioca_socket_cpu(so);

		s->sockets[so].id = so;
		s->sockets[so].c = &s->counts[so * u];
		s->sockets[so].present = false;
		if (!u || cpu < 0)
			continue;
		err = ioca_uncore_open(s, so, cpu, &why);
		if (err) {
			ioca_nl_set_err(extack, NULL, why);
			return err;
		}
	}
	return 0;
}

/**
 * ioca_sampler_release_uncore() - close every socket's uncore events
 * @s: sampler
 */
void ioca_sampler_release_uncore(struct ioca_sampler *s)
{
	unsigned int so;

	for (so = 0; s->uncore && s->sockets && so < s->nr_sockets; so++)
		ioca_uncore_release_socket(s, so, false);
}

/* The other online CPUs of @cpu's package, @cpu itself left out. */
static bool ioca_package_has_other(unsigned int cpu)
{
	unsigned int pkg = topology_logical_package_id(cpu), other;

	for_each_online_cpu(other)
		if (other != cpu && topology_logical_package_id(other) == pkg)
			return true;
	return false;
}

/**
 * ioca_uncore_cpu_online() - a CPU came online: its socket's events return
 * @s: running sampler
 * @cpu: the CPU
 */
void ioca_uncore_cpu_online(struct ioca_sampler *s, unsigned int cpu)
{
	unsigned int so = topology_logical_package_id(cpu);
	const char *why = NULL;
	int err;

	if (!s->cfg->nr_uncore || so >= s->nr_sockets || s->sockets[so].present)
		return;
	err = ioca_uncore_open(s, so, cpu, &why);
	if (err)
		pr_warn("socket %u: uncore events not re-opened on CPU %u: %s (%d)\n",
			so, cpu, why, err);
}

/**
 * ioca_uncore_cpu_offline() - a CPU is going away: the last of its socket
 *                             closes the socket's events
 * @s: running sampler
 * @cpu: the CPU, still online
 */
void ioca_uncore_cpu_offline(struct ioca_sampler *s, unsigned int cpu)
{
	unsigned int so = topology_logical_package_id(cpu);

	if (!s->cfg->nr_uncore || so >= s->nr_sockets ||
	    !s->sockets[so].present || ioca_package_has_other(cpu))
		return;
	ioca_uncore_release_socket(s, so, true);
}
