// SPDX-License-Identifier: GPL-2.0
/* The sampler part of info: configuration, fallbacks and running figures. */
#include <linux/math64.h>
#include <net/netlink.h>
#include "compat.h"
#include "sampler_info.h"

static int ioca_put_event(struct sk_buff *skb, int type, u32 index,
			  const struct ioca_event_spec *e, u32 eff_kind)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest ||
	    nla_put_u32(skb, IOCA_A_EVENT_INDEX, index) ||
	    nla_put_u32(skb, IOCA_A_EVENT_KIND, e->kind))
		return -EMSGSIZE;
	if (eff_kind && nla_put_u32(skb, IOCA_A_EVENT_EFFECTIVE_KIND, eff_kind))
		return -EMSGSIZE;
	if (e->kind == IOCA_EVENT_KIND_RAW &&
	    (nla_put_u32(skb, IOCA_A_EVENT_TYPE, e->type) ||
	     nla_put_u64_64bit(skb, IOCA_A_EVENT_CONFIG, e->config,
			       IOCA_A_EVENT_PAD) ||
	     nla_put_u64_64bit(skb, IOCA_A_EVENT_CONFIG1, e->config1,
			       IOCA_A_EVENT_PAD)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ioca_put_config(struct sk_buff *skb, const struct ioca_sampler *s)
{
	const struct ioca_sampler_config *c = s->cfg;
	unsigned int i;

	if (nla_put_u32(skb, IOCA_A_SAMPLER_INTERVAL_US, c->interval_us))
		return -EMSGSIZE;
	for (i = 0; i < c->nr_cpus; i++)
		if (nla_put_u32(skb, IOCA_A_SAMPLER_CPU, c->cpus[i]))
			return -EMSGSIZE;
	for (i = 0; i < c->nr_events; i++)
		if (ioca_put_event(skb, IOCA_A_SAMPLER_EVENT, i, &c->events[i],
				   s->eff_kind[i]))
			return -EMSGSIZE;
	for (i = 0; i < c->nr_uncore; i++)
		if (ioca_put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT, i,
				   &c->uncore[i], IOCA_EVENT_KIND_RAW))
			return -EMSGSIZE;
	return 0;
}

static int ioca_put_figures(struct sk_buff *skb, const struct ioca_sampler *s)
{
	u64 mean = s->nr_collect ? div64_u64(s->sum_collect_ns,
					     s->nr_collect) : 0;

	if (nla_put_u64_64bit(skb, IOCA_A_SAMPLER_SEQ, s->seq,
			      IOCA_A_SAMPLER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLER_LAST_COLLECT_NS,
			      s->last_collect_ns, IOCA_A_SAMPLER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLER_MEAN_COLLECT_NS, mean,
			      IOCA_A_SAMPLER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLER_INTERVALS, s->intervals,
			      IOCA_A_SAMPLER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLER_NO_LISTENER, s->no_listener,
			      IOCA_A_SAMPLER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLER_SEND_ERRORS, s->send_errors,
			      IOCA_A_SAMPLER_PAD) ||
	    nla_put_u32(skb, IOCA_A_SAMPLER_OWNER_PID, s->owner_pid) ||
	    nla_put_u32(skb, IOCA_A_SAMPLER_PARTS, s->last_parts) ||
	    nla_put_u32(skb, IOCA_A_SAMPLER_EPOCH, s->epoch))
		return -EMSGSIZE;
	return 0;
}

static int ioca_put_subscribers(struct sk_buff *skb,
				const struct ioca_subscribers *subs)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_SUBSCRIBERS; i++) {
		const struct ioca_subscriber *sub = &subs->sub[i];
		struct nlattr *nest;

		if (!sub->portid)
			continue;
		nest = nla_nest_start(skb, IOCA_A_SAMPLER_SUBSCRIBER);
		if (!nest ||
		    nla_put_u32(skb, IOCA_A_SUBSCRIBER_PORTID, sub->portid) ||
		    nla_put_u32(skb, IOCA_A_SUBSCRIBER_PID, sub->pid) ||
		    nla_put_u64_64bit(skb, IOCA_A_SUBSCRIBER_SAMPLES,
				      sub->samples, IOCA_A_SUBSCRIBER_PAD) ||
		    nla_put_u64_64bit(skb, IOCA_A_SUBSCRIBER_DROPPED,
				      sub->dropped, IOCA_A_SUBSCRIBER_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/**
 * ioca_sampler_fill_info() - add the IOCA_A_INFO_SAMPLER nest
 * @s: sampler
 * @skb: info reply
 *
 * Return: 0 or -EMSGSIZE.
 */
int ioca_sampler_fill_info(struct ioca_sampler *s, struct sk_buff *skb)
{
	struct nlattr *nest;
	int err = -EMSGSIZE;

	mutex_lock(&s->lock);
	nest = nla_nest_start(skb, IOCA_A_INFO_SAMPLER);
	if (!nest || nla_put_u32(skb, IOCA_A_SAMPLER_STATE, s->state))
		goto out_unlock;
	if (s->cfg && ioca_put_config(skb, s))
		goto out_unlock;
	if (ioca_put_figures(skb, s) || ioca_put_subscribers(skb, &s->subs))
		goto out_unlock;
	nla_nest_end(skb, nest);
	err = 0;
out_unlock:
	mutex_unlock(&s->lock);
	return err;
}
