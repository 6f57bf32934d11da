// SPDX-License-Identifier: GPL-2.0
/*
 * The sample message: header attributes, one nest per CPU and one per socket,
 * each holding cumulative counters. The size is computed exactly up front so
 * the hot path allocates one skb of the right size and never retries. A
 * sample larger than one message's budget goes out in parts, each a
 * disjoint run of CPUs and sockets under the same header.
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

static size_t ioca_header_size(const struct ioca_sample *s)
{
	return 4 * nla_total_size_64bit(sizeof(u64)) +	/* SEQ, times */
	       2 * nla_total_size(sizeof(u32)) +	/* INTERVAL_US, EPOCH */
	       nla_total_size(0) +			/* ON_DEMAND */
	       (s->parts > 1 ? 2 * nla_total_size(sizeof(u32)) : 0);
}

static size_t ioca_cpu_size(const struct ioca_sample *s, unsigned int i)
{
	return nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) +
	       nla_total_size(sizeof(u8)) +
	       (s->cpus[i].online ? s->nr_events * ioca_counter_size() : 0);
}

static size_t ioca_socket_size(const struct ioca_sample *s, unsigned int i)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) +
	       (s->sockets[i].ddio_mask ? 2 * nla_total_size(sizeof(u32)) : 0) +
	       (s->sockets[i].present ?
		s->nr_uncore * ioca_counter_size() : 0);
}

/**
 * ioca_sample_msg_size() - payload bytes ioca_sample_fill() needs
 * @s: the sample
 *
 * Return: the size, excluding netlink and genetlink headers.
 */
size_t ioca_sample_msg_size(const struct ioca_sample *s)
{
	size_t size = ioca_header_size(s);
	unsigned int i;

	for (i = 0; i < s->nr_cpus; i++)
		size += ioca_cpu_size(s, i);
	for (i = 0; i < s->nr_sockets; i++)
		size += ioca_socket_size(s, i);
	return size;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sample_msg_size);

/**
 * ioca_sample_plan() - split a sample into messages of at most @budget bytes
 * @s: the whole sample
 * @budget: payload bytes per message; one CPU or socket must fit
 * @parts: filled with each message's CPUs and sockets
 * @max_parts: entries in @parts (nr_cpus + nr_sockets + 1 always suffices)
 *
 * CPUs fill messages in order, then sockets, so a part never mixes a CPU
 * run's middle with sockets out of order and reassembly is concatenation.
 * A part is never empty, so there are at most nr_cpus + nr_sockets of them
 * (IOCA_MAX_SAMPLE_PARTS at the ABI's limits), whatever @budget is.
 *
 * Return: the number of parts, at least 1 (0 when @max_parts is too small).
 */
unsigned int ioca_sample_plan(const struct ioca_sample *s, size_t budget,
			      struct ioca_sample_part *parts,
			      unsigned int max_parts)
{
	/* Sized as if split: PART and PARTS count against every message. */
	struct ioca_sample hs = { .parts = 2 };
	size_t head = ioca_header_size(&hs), used = head;
	unsigned int n = 0, i;

	if (!max_parts)
		return 0;
	memset(&parts[0], 0, sizeof(parts[0]));
	parts[0].size = used;
	for (i = 0; i < s->nr_cpus; i++) {
		size_t sz = ioca_cpu_size(s, i);

		if (used + sz > budget && used > head) {
			if (++n >= max_parts)
				return 0;
			memset(&parts[n], 0, sizeof(parts[n]));
			parts[n].cpu_first = i;
			used = head;
			parts[n].size = used;
		}
		parts[n].nr_cpus++;
		used += sz;
		parts[n].size = used;
	}
	for (i = 0; i < s->nr_sockets; i++) {
		size_t sz = ioca_socket_size(s, i);

		if (used + sz > budget && used > head) {
			if (++n >= max_parts)
				return 0;
			memset(&parts[n], 0, sizeof(parts[n]));
			parts[n].cpu_first = s->nr_cpus;
			used = head;
			parts[n].size = used;
		}
		if (!parts[n].nr_sockets)
			parts[n].sock_first = i;
		parts[n].nr_sockets++;
		used += sz;
		parts[n].size = used;
	}
	return n + 1;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sample_plan);

/**
 * ioca_sample_select() - the sample one part carries
 * @s: the whole sample
 * @p: the part, from ioca_sample_plan()
 * @part: its index
 * @parts: number of parts
 * @out: @s restricted to @p's CPUs and sockets
 */
void ioca_sample_select(const struct ioca_sample *s,
			const struct ioca_sample_part *p, u32 part, u32 parts,
			struct ioca_sample *out)
{
	*out = *s;
	out->cpus = s->cpus + p->cpu_first;
	out->nr_cpus = p->nr_cpus;
	out->sockets = s->sockets + p->sock_first;
	out->nr_sockets = p->nr_sockets;
	out->part = part;
	out->parts = parts;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_sample_select);

/*
 * Counters are most of a sample and most of its build time, so where a u64
 * attribute never needs a pad attribute (efficient unaligned access: every
 * x86 this module runs on) a counter's nest and its four attributes are
 * written into one reservation instead of five nla_put*() calls, each with
 * its own tailroom check and padding. The bytes are the same.
 */
#define IOCA_COUNTER_BLOCK (NLA_HDRLEN + nla_total_size(sizeof(u32)) + \
			    3 * nla_total_size(sizeof(u64)))

static void *ioca_w_attr(void *p, int type, const void *v, int len)
{
	struct nlattr *a = p;

	a->nla_type = type;
	a->nla_len = nla_attr_size(len);
	memcpy(nla_data(a), v, len);
	memset(nla_data(a) + len, 0, nla_padlen(len));
	return p + nla_total_size(len);
}

static int ioca_put_counter_block(struct sk_buff *skb, int type, u32 index,
				  const struct ioca_count *c)
{
	struct nlattr *nest;
	void *p;

	if (skb_tailroom(skb) < (int)IOCA_COUNTER_BLOCK)
		return -EMSGSIZE;
	nest = skb_put(skb, IOCA_COUNTER_BLOCK);
	nest->nla_type = type | NLA_F_NESTED;
	nest->nla_len = IOCA_COUNTER_BLOCK;
	p = ioca_w_attr(nla_data(nest), IOCA_A_COUNTER_INDEX, &index,
			sizeof(index));
	p = ioca_w_attr(p, IOCA_A_COUNTER_VALUE, &c->value, sizeof(u64));
	p = ioca_w_attr(p, IOCA_A_COUNTER_ENABLED_NS, &c->enabled, sizeof(u64));
	ioca_w_attr(p, IOCA_A_COUNTER_RUNNING_NS, &c->running, sizeof(u64));
	return 0;
}

static int ioca_put_counter(struct sk_buff *skb, int type, u32 index,
			    const struct ioca_count *c)
{
	struct nlattr *nest;

	if (IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS))
		return ioca_put_counter_block(skb, type, index, c);
	nest = nla_nest_start(skb, type);
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

/* A CPU's nest and its four attributes, in one reservation as above. */
#define IOCA_CPU_BLOCK (NLA_HDRLEN + 3 * nla_total_size(sizeof(u32)) + \
			nla_total_size(sizeof(u8)))

static struct nlattr *ioca_put_cpu_block(struct sk_buff *skb,
					 const struct ioca_sample_cpu *c)
{
	struct nlattr *nest;
	u8 online = c->online;
	void *p;

	if (skb_tailroom(skb) < (int)IOCA_CPU_BLOCK)
		return NULL;
	nest = skb_put(skb, IOCA_CPU_BLOCK);
	nest->nla_type = IOCA_A_SAMPLE_CPU | NLA_F_NESTED;
	p = ioca_w_attr(nla_data(nest), IOCA_A_CPU_ID, &c->cpu, sizeof(u32));
	p = ioca_w_attr(p, IOCA_A_CPU_SOCKET, &c->socket, sizeof(u32));
	p = ioca_w_attr(p, IOCA_A_CPU_ONLINE, &online, sizeof(online));
	ioca_w_attr(p, IOCA_A_CPU_GENERATION, &c->generation, sizeof(u32));
	return nest;
}

static int ioca_put_cpu(struct sk_buff *skb, const struct ioca_sample_cpu *c,
			unsigned int nr_events)
{
	struct nlattr *nest;
	unsigned int i;

	if (IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS)) {
		nest = ioca_put_cpu_block(skb, c);
		if (!nest)
			return -EMSGSIZE;
	} else {
		nest = nla_nest_start(skb, IOCA_A_SAMPLE_CPU);
		if (!nest ||
		    nla_put_u32(skb, IOCA_A_CPU_ID, c->cpu) ||
		    nla_put_u32(skb, IOCA_A_CPU_SOCKET, c->socket) ||
		    nla_put_u8(skb, IOCA_A_CPU_ONLINE, c->online) ||
		    nla_put_u32(skb, IOCA_A_CPU_GENERATION, c->generation))
			return -EMSGSIZE;
	}
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
	if (so->ddio_mask &&
	    (nla_put_u32(skb, IOCA_A_SOCKET_DDIO_MASK, so->ddio_mask) ||
	     nla_put_u32(skb, IOCA_A_SOCKET_DDIO_EPOCH, so->ddio_epoch)))
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
	    nla_put_u32(skb, IOCA_A_SAMPLE_INTERVAL_US, s->interval_us) ||
	    nla_put_u32(skb, IOCA_A_SAMPLE_EPOCH, s->epoch))
		return -EMSGSIZE;
	if (s->on_demand && nla_put_flag(skb, IOCA_A_SAMPLE_ON_DEMAND))
		return -EMSGSIZE;
	if (s->parts > 1 &&
	    (nla_put_u32(skb, IOCA_A_SAMPLE_PART, s->part) ||
	     nla_put_u32(skb, IOCA_A_SAMPLE_PARTS, s->parts)))
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
