// SPDX-License-Identifier: GPL-2.0
/*
 * One sampling interval: read every CPU's counters on that CPU (a work item
 * bound to it, so perf reads locally instead of sending an IPI per event),
 * then build a single message for all CPUs and sockets.
 */
#include <linux/cpu.h>
#include <linux/ktime.h>
#include <linux/perf_event.h>
#include <net/genetlink.h>
#include "compat.h"
#include "collect.h"
#include "ioca_nl_gen.h"

static void ioca_read_event(struct perf_event *ev, struct ioca_count *c)
{
	c->value = perf_event_read_value(ev, &c->enabled, &c->running);
}

static void ioca_collect_put(struct ioca_sampler *s)
{
	if (atomic_dec_and_test(&s->pending))
		complete(&s->done);
}

static void ioca_collect_read_slot(struct ioca_sampler_slot *slot)
{
	struct ioca_sampler *s = slot->s;
	struct ioca_sample_cpu *c = &s->cpus[slot->index];
	unsigned int i;

	for (i = 0; i < s->cfg->nr_events; i++)
		ioca_read_event(slot->ev[i], &c->c[i]);
}

/* Runs on the slot's CPU. */
void ioca_collect_read_work(struct work_struct *work)
{
	struct ioca_sampler_slot *slot =
		container_of(work, struct ioca_sampler_slot, work);

	ioca_collect_read_slot(slot);
	ioca_collect_put(slot->s);
}

/* Caller holds cpus_read_lock() and s->lock: no CPU comes or goes. */
static void ioca_collect_read_all(struct ioca_sampler *s)
{
	unsigned int i, n = s->nr_sockets * s->cfg->nr_uncore;
	/*
	 * The collector's own CPU is read inline, saving a wakeup and two
	 * context switches. Should the collector migrate meanwhile, perf
	 * still reads correctly, through an IPI.
	 */
	unsigned int self = raw_smp_processor_id();
	int local = -1;

	reinit_completion(&s->done);
	atomic_set(&s->pending, 1);
	for (i = 0; i < s->cfg->nr_cpus; i++) {
		struct ioca_sampler_slot *slot = &s->slots[i];

		s->cpus[i].online = s->cfg->nr_events && slot->ev[0];
		if (!s->cpus[i].online)
			continue;
		if (s->cpus[i].cpu == self) {
			local = i;
			continue;
		}
		atomic_inc(&s->pending);
		queue_work_on(s->cpus[i].cpu, system_highpri_wq, &slot->work);
	}
	if (local >= 0)
		ioca_collect_read_slot(&s->slots[local]);
	/* Uncore PMUs read on their own CPU; few events, read from here. */
	for (i = 0; i < n; i++)
		if (s->uncore[i])
			ioca_read_event(s->uncore[i], &s->counts[i]);
	ioca_collect_put(s);
	wait_for_completion(&s->done);
}

static struct sk_buff *ioca_collect_msg(struct ioca_sampler *s, bool on_demand,
					u32 portid, u32 nlseq, u8 cmd)
{
	struct ioca_sample smp = {
		.seq = s->seq,
		.time_ns = ktime_get_ns(),
		.realtime_ns = ktime_get_real_ns(),
		.interval_us = s->cfg->interval_us,
		.on_demand = on_demand,
		.nr_events = s->cfg->nr_events,
		/* Uncore-only configurations carry no CPU entries. */
		.nr_cpus = s->cfg->nr_events ? s->cfg->nr_cpus : 0,
		.cpus = s->cpus,
		.nr_uncore = s->cfg->nr_uncore,
		.nr_sockets = s->cfg->nr_uncore ? s->nr_sockets : 0,
		.sockets = s->sockets,
	};
	struct nlattr *collect;
	struct sk_buff *skb;
	u64 dt;
	void *hdr;

	ioca_collect_read_all(s);
	skb = genlmsg_new(ioca_sample_msg_size(&smp), GFP_KERNEL);
	if (!skb)
		return NULL;
	hdr = genlmsg_put(skb, portid, nlseq, &ioca_nl_family, 0, cmd);
	if (!hdr || ioca_sample_fill(skb, &smp, &collect)) {
		nlmsg_free(skb);
		return NULL;
	}
	genlmsg_end(skb, hdr);
	dt = ktime_get_ns() - smp.time_ns;
	memcpy(nla_data(collect), &dt, sizeof(dt));
	s->last_collect_ns = dt;
	s->sum_collect_ns += dt;
	s->nr_collect++;
	return skb;
}

/* One interval, queued by the timer on s->wq. */
void ioca_collect_interval_work(struct work_struct *work)
{
	struct ioca_sampler *s =
		container_of(work, struct ioca_sampler, collect_work);
	struct sk_buff *skb;

	cpus_read_lock();
	mutex_lock(&s->lock);
	if (s->state != IOCA_SAMPLER_STATE_RUNNING)
		goto out_unlock;
	s->intervals++;
	if (!genl_has_listeners(&ioca_nl_family, &init_net,
				IOCA_NLGRP_SAMPLES)) {
		s->no_listener++;
		goto out_unlock;
	}
	s->seq++;
	skb = ioca_collect_msg(s, false, 0, 0, IOCA_CMD_SAMPLE_NTF);
	if (!skb) {
		s->send_errors++;
		goto out_unlock;
	}
	/* -ESRCH: the last listener left meanwhile; not an error. */
	if (genlmsg_multicast(&ioca_nl_family, skb, 0, IOCA_NLGRP_SAMPLES,
			      GFP_KERNEL) == -ENOBUFS)
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
 * Return: 0, -ENODATA when the sampler is not running, -ENOMEM.
 */
int ioca_collect_on_demand(struct ioca_sampler *s, struct genl_info *info)
{
	struct sk_buff *skb = NULL;
	int err = -ENODATA;

	cpus_read_lock();
	mutex_lock(&s->lock);
	if (s->state == IOCA_SAMPLER_STATE_RUNNING) {
		skb = ioca_collect_msg(s, true, info->snd_portid,
				       info->snd_seq, IOCA_CMD_SAMPLE_GET);
		err = skb ? 0 : -ENOMEM;
	}
	mutex_unlock(&s->lock);
	cpus_read_unlock();
	if (err == -ENODATA)
		GENL_SET_ERR_MSG(info, "sampler is not running");
	if (err)
		return err;
	return genlmsg_reply(skb, info);
}
