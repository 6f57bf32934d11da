// SPDX-License-Identifier: GPL-2.0
/*
 * One sampling interval: read every sampled CPU's counters on that CPU from
 * one IPI per CPU (all CPUs at once), then build the sample's message(s) for
 * all CPUs and sockets.
 *
 * Nothing here waits for a sampled CPU to schedule anything: a SCHED_FIFO
 * busy-poller owning the CPU (RT throttling off) still takes interrupts, so
 * the collector finishes in bounded time while it holds cpus_read_lock()
 * and the sampler's lock, and stop, hotplug and unload are never held up.
 *
 * The IPI reads each event the way perf's own cross-CPU read does, on the
 * event's CPU with interrupts off: the PMU's read() callback, then the
 * count. perf_event_read_local(), which wraps this with perf's time
 * bookkeeping, is not exported to modules; the per-CPU events are pinned
 * (never multiplexed), so their enabled and running times are both the time
 * since they were created.
 */
#include <linux/cpu.h>
#include <linux/ktime.h>
#include <linux/perf_event.h>
#include <linux/smp.h>
#include <net/genetlink.h>
#include "compat.h"
#include "collect.h"
#include "ddio.h"
#include "emul_counters.h"
#include "ioca_nl_gen.h"

static void ioca_read_event(struct perf_event *ev, struct ioca_count *c)
{
	c->value = perf_event_read_value(ev, &c->enabled, &c->running);
}

/* In the IPI on each CPU of s->read_mask, interrupts off. */
static void ioca_collect_ipi(void *info)
{
	struct ioca_sampler *s = info;
	unsigned int cpu = smp_processor_id(), k;
	int i = ioca_slot_index(s, cpu);
	struct ioca_sampler_slot *slot;
	/* The collection's start stands for every CPU: one clock read, not N. */
	u64 now = s->read_ns;

	if (i < 0)
		return;
	slot = &s->slots[i];
	for (k = 0; k < s->cfg->nr_events && slot->ev[k]; k++) {
		struct perf_event *ev = slot->ev[k];
		struct ioca_count *c = &s->cpus[i].c[k];

		c->enabled = now > slot->created_ns ? now - slot->created_ns : 0;
		/* Pinned: inactive only in error state, then not counting. */
		if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ACTIVE &&
		    READ_ONCE(ev->oncpu) == cpu) {
			ev->pmu->read(ev);
			c->running = c->enabled;
		} else {
			c->running = 0;
		}
		c->value = local64_read(&ev->count) +
			   atomic64_read(&ev->child_count);
	}
}

static void ioca_collect_uncore(struct ioca_sampler *s)
{
	unsigned int so, k, u = s->cfg->nr_uncore;
	u64 now = s->read_ns;

	for (so = 0; so < s->nr_sockets; so++) {
		for (k = 0; s->sockets[so].present && k < u; k++) {
			struct ioca_count *c = &s->counts[so * u + k];
			u32 kind = s->cfg->uncore[k].kind;

			if (ioca_emul_kind(kind) && s->emul) {
				/* this run's counts (ioca_sampler_emul_start) */
				c->value = ioca_emul_read(s->emul, so, kind, now) -
					   s->uncore_base[so * u + k].value;
				c->enabled = now - s->start_ns;
				c->running = c->enabled;
			} else if (s->uncore[so * u + k]) {
				const struct ioca_count *b =
					&s->uncore_base[so * u + k];

				/*
				 * Few events, read from here: perf sends the
				 * IPI to the PMU's CPU, which the uncore
				 * driver moves within the socket on hotplug.
				 */
				ioca_read_event(s->uncore[so * u + k], c);
				c->value += b->value;
				c->enabled += b->enabled;
				c->running += b->running;
			}
		}
	}
}

/*
 * Each socket's DDIO mask as last written, so a reader needs no request of
 * its own per interval. The masks are read without the DDIO lock: a set
 * racing with the collection shows either mask, both of which were valid,
 * each with its own epoch (one word holds both), so that the writer can
 * tell a mask collected before its write. A socket whose register was
 * never read (no CPU online since load) has no mask to report (0).
 */
static void ioca_collect_ddio(struct ioca_sampler *s)
{
	const struct ioca_ddio *d = s->ddio;
	/* Pairs with the release when a package appears (ddio_apply.c). */
	unsigned int so, nr = d ? smp_load_acquire(&d->nr_sockets) : 0;

	for (so = 0; so < s->nr_sockets; so++) {
		struct ioca_sample_socket *ss = &s->sockets[so];

		ss->ddio_mask = 0;
		ss->ddio_epoch = 0;
		if (so < nr && !READ_ONCE(d->sock[so].unread))
			ss->ddio_epoch = ioca_ddio_snapshot(&d->sock[so],
							    &ss->ddio_mask);
		if (!ss->ddio_epoch)
			ss->ddio_mask = 0;
	}
}

/* Caller holds cpus_read_lock() and s->lock: no CPU comes or goes. */
static void ioca_collect_read_all(struct ioca_sampler *s)
{
	unsigned int i;

	cpumask_clear(s->read_mask);
	for (i = 0; i < s->cfg->nr_cpus; i++) {
		struct ioca_sample_cpu *c = &s->cpus[i];

		c->online = s->cfg->nr_events && s->slots[i].ev[0];
		c->generation = s->generation[c->cpu];
		if (c->online)
			cpumask_set_cpu(c->cpu, s->read_mask);
	}
	/* The local CPU is read inline; waits only for the IPIs to finish. */
	on_each_cpu_mask(s->read_mask, ioca_collect_ipi, s, true);
	ioca_collect_uncore(s);
	ioca_collect_ddio(s);
}

static struct sk_buff *ioca_collect_build(struct ioca_sampler *s,
					  const struct ioca_sample *smp,
					  size_t size, u32 portid, u32 nlseq,
					  u8 cmd, u64 *dt_out)
{
	struct nlattr *collect;
	struct sk_buff *skb;
	void *hdr;
	u64 dt;

	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, portid, nlseq, &ioca_nl_family, 0, cmd);
	if (!hdr || ioca_sample_fill(skb, smp, &collect)) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	dt = ktime_get_ns() - smp->time_ns;
	memcpy(nla_data(collect), &dt, sizeof(dt));
	*dt_out = dt;
	return skb;
}

/*
 * One periodic part to every subscriber, then to the (legacy) multicast
 * group. A reader whose buffer is full misses only its own copy: nothing
 * here stops sending the sample's other parts to anyone.
 */
static void ioca_collect_publish(struct ioca_sampler *s, struct sk_buff *skb,
				 bool last, bool mcast)
{
	ioca_subs_deliver(&s->subs, skb, last);
	if (!mcast) {
		consume_skb(skb);
		return;
	}
	/* -ESRCH: the last listener left meanwhile; not an error. */
	if (genlmsg_multicast(&ioca_nl_family, skb, 0, IOCA_NLGRP_SAMPLES,
			      GFP_KERNEL) == -ENOBUFS)
		s->mcast_overruns++;
}

/*
 * Reads every counter, then sends the sample in as many parts as it takes:
 * to the subscribers and the multicast group when @info is NULL, else as
 * replies to @info. Returns 0 or the first -errno (-ENOMEM for a message
 * that could not be built).
 */
static int ioca_collect_send(struct ioca_sampler *s, struct genl_info *info,
			     bool mcast)
{
	u64 now = ktime_get_ns();
	struct ioca_sample smp = {
		.seq = s->seq,
		.epoch = s->epoch,
		.time_ns = now,
		/* From the same clock read: the offset, not a second read. */
		.realtime_ns = ktime_to_ns(ktime_mono_to_real(ns_to_ktime(now))),
		.interval_us = s->cfg->interval_us,
		.on_demand = !!info,
		.nr_events = s->cfg->nr_events,
		/* Uncore-only configurations carry no CPU entries. */
		.nr_cpus = s->cfg->nr_events ? s->cfg->nr_cpus : 0,
		.cpus = s->cpus,
		.nr_uncore = s->cfg->nr_uncore,
		/* Always every socket: each carries its DDIO mask. */
		.nr_sockets = s->nr_sockets,
		.sockets = s->sockets,
	};
	unsigned int n, i;
	u64 dt = 0;
	int err = 0;

	s->read_ns = smp.time_ns;
	ioca_collect_read_all(s);
	n = ioca_sample_plan(&smp, s->part_budget, s->parts, s->max_parts);
	if (!n || n > IOCA_MAX_SAMPLE_PARTS)
		return -EMSGSIZE;
	s->last_parts = n;
	if (!info)
		ioca_subs_begin(&s->subs);
	for (i = 0; i < n && !err; i++) {
		struct ioca_sample part;
		struct sk_buff *skb;

		ioca_sample_select(&smp, &s->parts[i], i, n, &part);
		skb = ioca_collect_build(s, &part, s->parts[i].size,
					 info ? info->snd_portid : 0,
					 info ? info->snd_seq : 0,
					 info ? IOCA_CMD_SAMPLE_GET :
						IOCA_CMD_SAMPLE_NTF, &dt);
		if (!skb) {
			err = -ENOMEM;
			break;
		}
		if (info)
			err = genlmsg_unicast(genl_info_net(info), skb,
					      info->snd_portid);
		else
			ioca_collect_publish(s, skb, i == n - 1, mcast);
	}
	/* The last part's build time: every read and every part before it. */
	s->last_collect_ns = dt;
	s->sum_collect_ns += dt;
	s->nr_collect++;
	return err;
}

/* One interval, queued by the timer on s->wq. */
void ioca_collect_interval_work(struct work_struct *work)
{
	struct ioca_sampler *s =
		container_of(work, struct ioca_sampler, collect_work);
	bool mcast;

	cpus_read_lock();
	mutex_lock(&s->lock);
	if (s->state != IOCA_SAMPLER_STATE_RUNNING)
		goto out_unlock;
	s->intervals++;
	mcast = genl_has_listeners(&ioca_nl_family, &init_net,
				   IOCA_NLGRP_SAMPLES);
	if (!mcast && !s->subs.nr) {
		s->no_listener++;
		goto out_unlock;
	}
	s->seq++;
	if (ioca_collect_send(s, NULL, mcast))
		s->send_errors++;
out_unlock:
	mutex_unlock(&s->lock);
	cpus_read_unlock();
}

/**
 * ioca_collect_on_demand() - read every counter now and reply to @info
 * @s: sampler
 * @info: the sample-get request
 *
 * Return: 0, -ENODATA when the sampler is not running, -ENOMEM, or the
 * unicast's -errno.
 */
int ioca_collect_on_demand(struct ioca_sampler *s, struct genl_info *info)
{
	int err = -ENODATA;

	cpus_read_lock();
	mutex_lock(&s->lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING)
		err = ioca_collect_send(s, info, false);
	mutex_unlock(&s->lock);
	cpus_read_unlock();
	if (err == -ENODATA)
		GENL_SET_ERR_MSG(info, "sampler is not running");
	return err;
}

/**
 * ioca_collect_subscribe() - deliver the periodic samples to @portid
 * @s: sampler
 * @portid: the requesting netlink socket
 * @pid: its process
 * @owner: @pid owns the sampler or a DDIO mask (see ioca_subs_add())
 * @why: set to the extack text on refusal
 *
 * Return: 0 or -ENOSPC (no slot for @pid).
 */
int ioca_collect_subscribe(struct ioca_sampler *s, u32 portid, u32 pid,
			   bool owner, const char **why)
{
	int err;

	mutex_lock(&s->lock);
	err = ioca_subs_add(&s->subs, portid, pid, owner, why);
	mutex_unlock(&s->lock);
	return err;
}

/**
 * ioca_collect_unsubscribe() - stop delivering samples to @portid
 * @s: sampler
 * @portid: the netlink socket
 *
 * Return: whether it was subscribed.
 */
bool ioca_collect_unsubscribe(struct ioca_sampler *s, u32 portid)
{
	bool was;

	mutex_lock(&s->lock);
	was = ioca_subs_remove(&s->subs, portid);
	mutex_unlock(&s->lock);
	return was;
}
