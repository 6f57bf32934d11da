// SPDX-License-Identifier: GPL-2.0
/*
 * The sample message: header attributes, one nest per CPU and one per socket,
 * each holding cumulative counters. The size is computed exactly up front so
 * the hot path allocates one skb of the right size and never retries.
 */
#include <linux/skbuff.h>
#include <net/netlink.h>
#include "compat.h"
#include "sample_msg.h"

static size_t ioca_counter_size(void)
{
	return nla_total_size(0) +			/* COUNTER nest */
	       nla_total_size(sizeof(u32)) +		/* INDEX */
	       3 * nla_total_size_64bit(sizeof(u64));	/* VALUE, times */
}

/**
 * ioca_sample_msg_size() - payload bytes ioca_sample_fill() needs
 * @s: the sample
 *
 * Return: the size, excluding netlink and genetlink headers.
 */
size_t ioca_sample_msg_size(const struct ioca_sample *s)
{
	size_t cpu, sock, size;
	unsigned int i;

	size = 4 * nla_total_size_64bit(sizeof(u64)) +	/* SEQ, times */
	       nla_total_size(sizeof(u32)) +		/* INTERVAL_US */
	       nla_total_size(0);			/* ON_DEMAND */
	cpu = nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
	      nla_total_size(sizeof(u8));
	sock = nla_total_size(0) + nla_total_size(sizeof(u32));
	for (i = 0; i < s->nr_cpus; i++)
		size += cpu + (s->cpus[i].online ?
			       s->nr_events * ioca_counter_size() : 0);
	for (i = 0; i < s->nr_sockets; i++)
		size += sock + (s->sockets[i].present ?
				s->nr_uncore * ioca_counter_size() : 0);
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sample_msg_size);

static int ioca_put_counter(struct sk_buff *skb, int type, u32 index,
			    const struct ioca_count *c)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (!nest ||
	    nla_put_u32(skb, IOCA_A_COUNTER_INDEX, index) ||
	    nla_put_u64_64bit(skb, IOCA_A_COUNTER_VALUE, c->value,
			      IOCA_A_COUNTER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_COUNTER_ENABLED_NS, c->enabled,
			      IOCA_A_COUNTER_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_COUNTER_RUNNING_NS, c->running,
			      IOCA_A_COUNTER_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ioca_put_cpu(struct sk_buff *skb, const struct ioca_sample_cpu *c,
			unsigned int nr_events)
{
	struct nlattr *nest = nla_nest_start(skb, IOCA_A_SAMPLE_CPU);
	unsigned int i;

	if (!nest ||
	    nla_put_u32(skb, IOCA_A_CPU_ID, c->cpu) ||
	    nla_put_u32(skb, IOCA_A_CPU_SOCKET, c->socket) ||
	    nla_put_u8(skb, IOCA_A_CPU_ONLINE, c->online))
		return -EMSGSIZE;
	for (i = 0; c->online && i < nr_events; i++)
		if (ioca_put_counter(skb, IOCA_A_CPU_COUNTER, i, &c->c[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int ioca_put_socket(struct sk_buff *skb,
			   const struct ioca_sample_socket *so,
			   unsigned int nr_uncore)
{
	struct nlattr *nest = nla_nest_start(skb, IOCA_A_SAMPLE_SOCKET);
	unsigned int i;

	if (!nest || nla_put_u32(skb, IOCA_A_SOCKET_ID, so->id))
		return -EMSGSIZE;
	for (i = 0; so->present && i < nr_uncore; i++)
		if (ioca_put_counter(skb, IOCA_A_SOCKET_COUNTER, i, &so->c[i]))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * ioca_sample_fill() - append a sample's attributes to a message
 * @skb: message, after its genetlink header
 * @s: the sample
 * @collect: set to the reserved IOCA_A_SAMPLE_COLLECT_NS attribute, which the
 *	caller fills last so that the figure covers building the message
 *
 * Return: 0 or -EMSGSIZE (the caller cancels the message).
 */
int ioca_sample_fill(struct sk_buff *skb, const struct ioca_sample *s,
		     struct nlattr **collect)
{
	unsigned int i;

	if (nla_put_u64_64bit(skb, IOCA_A_SAMPLE_SEQ, s->seq,
			      IOCA_A_SAMPLE_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLE_TIME_NS, s->time_ns,
			      IOCA_A_SAMPLE_PAD) ||
	    nla_put_u64_64bit(skb, IOCA_A_SAMPLE_REALTIME_NS, s->realtime_ns,
			      IOCA_A_SAMPLE_PAD) ||
	    nla_put_u32(skb, IOCA_A_SAMPLE_INTERVAL_US, s->interval_us))
		return -EMSGSIZE;
	if (s->on_demand && nla_put_flag(skb, IOCA_A_SAMPLE_ON_DEMAND))
		return -EMSGSIZE;
	*collect = nla_reserve_64bit(skb, IOCA_A_SAMPLE_COLLECT_NS,
				     sizeof(u64), IOCA_A_SAMPLE_PAD);
	if (!*collect)
		return -EMSGSIZE;
	memset(nla_data(*collect), 0, sizeof(u64));
	for (i = 0; i < s->nr_cpus; i++)
		if (ioca_put_cpu(skb, &s->cpus[i], s->nr_events))
			return -EMSGSIZE;
	for (i = 0; i < s->nr_sockets; i++)
		if (ioca_put_socket(skb, &s->sockets[i], s->nr_uncore))
			return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sample_fill);
