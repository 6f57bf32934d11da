// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "decode_sample.h"

#include <errno.h>
#include <inttypes.h>
#include <netlink/genl/genl.h>
#include "attrs.h"

static const struct nla_policy sample_pol[IOCA_A_SAMPLE_MAX + 1] = {
	[IOCA_A_SAMPLE_SEQ] = IOCA_POL_U64,	    [IOCA_A_SAMPLE_TIME_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLE_REALTIME_NS] = IOCA_POL_U64, [IOCA_A_SAMPLE_COLLECT_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLE_INTERVAL_US] = IOCA_POL_U32, [IOCA_A_SAMPLE_ON_DEMAND] = IOCA_POL_FLAG,
	[IOCA_A_SAMPLE_CPU] = IOCA_POL_NESTED,	    [IOCA_A_SAMPLE_SOCKET] = IOCA_POL_NESTED,
	[IOCA_A_SAMPLE_PART] = IOCA_POL_U32,	    [IOCA_A_SAMPLE_PARTS] = IOCA_POL_U32,
};

static const struct nla_policy cpu_pol[IOCA_A_CPU_MAX + 1] = {
	[IOCA_A_CPU_ID] = IOCA_POL_U32,		[IOCA_A_CPU_SOCKET] = IOCA_POL_U32,
	[IOCA_A_CPU_ONLINE] = IOCA_POL_U8,	[IOCA_A_CPU_COUNTER] = IOCA_POL_NESTED,
	[IOCA_A_CPU_GENERATION] = IOCA_POL_U32,
};

static const struct nla_policy sock_pol[IOCA_A_SOCKET_MAX + 1] = {
	[IOCA_A_SOCKET_ID] = IOCA_POL_U32,
	[IOCA_A_SOCKET_COUNTER] = IOCA_POL_NESTED,
};

static const struct nla_policy counter_pol[IOCA_A_COUNTER_MAX + 1] = {
	[IOCA_A_COUNTER_INDEX] = IOCA_POL_U32,
	[IOCA_A_COUNTER_VALUE] = IOCA_POL_U64,
	[IOCA_A_COUNTER_ENABLED_NS] = IOCA_POL_U64,
	[IOCA_A_COUNTER_RUNNING_NS] = IOCA_POL_U64,
};

static int attrs_of(const struct nlmsghdr *nlh, struct nlattr **head, int *len,
		    const struct ioca_log *log)
{
	struct genlmsghdr *g;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		pr_warn(log, "sample: %u bytes, shorter than its headers", nlh->nlmsg_len);
		return -EBADMSG;
	}
	g = nlmsg_data(nlh);
	if (g->cmd != IOCA_CMD_SAMPLE_NTF && g->cmd != IOCA_CMD_SAMPLE_GET) {
		pr_warn(log, "sample: command %u is not a sample", g->cmd);
		return -EBADMSG;
	}
	*head = genlmsg_attrdata(g, 0);
	*len = genlmsg_attrlen(g, 0);
	return 0;
}

int ioca_decode_sample_head(const struct nlmsghdr *nlh, struct ioca_sample_head *h,
			    const struct ioca_log *log)
{
	struct nlattr **tb = h->tb;
	int err;

	err = attrs_of(nlh, &h->attrs, &h->len, log);
	if (!err)
		err = ioca_attrs_parse(tb, IOCA_A_SAMPLE_MAX, h->attrs, h->len, sample_pol, log,
				       "sample");
	if (err)
		return err;
	if (!tb[IOCA_A_SAMPLE_SEQ]) {
		pr_warn(log, "sample without IOCA_A_SAMPLE_SEQ");
		return -EBADMSG;
	}
	h->seq = ioca_u64(tb[IOCA_A_SAMPLE_SEQ]);
	h->on_demand = tb[IOCA_A_SAMPLE_ON_DEMAND] != NULL;
	if (!tb[IOCA_A_SAMPLE_PART] != !tb[IOCA_A_SAMPLE_PARTS]) {
		pr_warn(log, "sample %" PRIu64 ": IOCA_A_SAMPLE_PART and _PARTS come together",
			h->seq);
		return -EBADMSG;
	}
	h->part = tb[IOCA_A_SAMPLE_PART] ? ioca_u32(tb[IOCA_A_SAMPLE_PART]) : 0;
	h->parts = tb[IOCA_A_SAMPLE_PARTS] ? ioca_u32(tb[IOCA_A_SAMPLE_PARTS]) : 1;
	if (h->parts < 1 || h->parts > IOCA_MAX_SAMPLE_PARTS || h->part >= h->parts) {
		pr_warn(log, "sample %" PRIu64 ": part %u of %u is out of range (1..%u parts)",
			h->seq, h->part, h->parts, IOCA_MAX_SAMPLE_PARTS);
		return -EBADMSG;
	}
	return 0;
}

static int decode_counter(struct nlattr *nest, struct ioca_counter *c, const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_COUNTER_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_COUNTER_MAX, nest, counter_pol, log, "sample: counter");
	if (err)
		return err;
	if (!tb[IOCA_A_COUNTER_INDEX] || !tb[IOCA_A_COUNTER_VALUE]) {
		pr_warn(log, "sample: counter without IOCA_A_COUNTER_INDEX or _VALUE");
		return -EBADMSG;
	}
	c->index = ioca_u32(tb[IOCA_A_COUNTER_INDEX]);
	c->value = ioca_u64(tb[IOCA_A_COUNTER_VALUE]);
	c->enabled_ns = tb[IOCA_A_COUNTER_ENABLED_NS] ? ioca_u64(tb[IOCA_A_COUNTER_ENABLED_NS]) : 0;
	c->running_ns = tb[IOCA_A_COUNTER_RUNNING_NS] ? ioca_u64(tb[IOCA_A_COUNTER_RUNNING_NS]) : 0;
	return 0;
}

/* The COUNTER nests of @nest (of type @type) into @c, at most @max. */
static int decode_counters(struct nlattr *nest, int type, struct ioca_counter *c, uint32_t *n,
			   uint32_t max, const struct ioca_log *log)
{
	struct nlattr *a;
	int rem, err;

	*n = 0;
	ioca_for_each_nested(a, nest, rem)
	{
		if (ioca_nla_type(a) != type)
			continue;
		if (*n >= max) {
			pr_warn(log, "sample: more than %u counters in a nest", max);
			return -EBADMSG;
		}
		err = decode_counter(a, &c[(*n)++], log);
		if (err)
			return err;
	}
	return 0;
}

static int decode_cpu(struct nlattr *nest, struct ioca_cpu_sample *cs, const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_CPU_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_CPU_MAX, nest, cpu_pol, log, "sample: CPU nest");
	if (err)
		return err;
	if (!tb[IOCA_A_CPU_ID]) {
		pr_warn(log, "sample: CPU nest without IOCA_A_CPU_ID");
		return -EBADMSG;
	}
	cs->id = ioca_u32(tb[IOCA_A_CPU_ID]);
	cs->socket = tb[IOCA_A_CPU_SOCKET] ? ioca_u32(tb[IOCA_A_CPU_SOCKET]) : 0;
	cs->online = tb[IOCA_A_CPU_ONLINE] && ioca_u8(tb[IOCA_A_CPU_ONLINE]);
	cs->generation = tb[IOCA_A_CPU_GENERATION] ? ioca_u32(tb[IOCA_A_CPU_GENERATION]) : 0;
	return decode_counters(nest, IOCA_A_CPU_COUNTER, cs->counters, &cs->ncounters,
			       IOCA_MAX_CPU_EVENTS, log);
}

static int decode_socket(struct nlattr *nest, struct ioca_socket_sample *ss,
			 const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_SOCKET_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_SOCKET_MAX, nest, sock_pol, log, "sample: socket nest");
	if (err)
		return err;
	if (!tb[IOCA_A_SOCKET_ID]) {
		pr_warn(log, "sample: socket nest without IOCA_A_SOCKET_ID");
		return -EBADMSG;
	}
	ss->id = ioca_u32(tb[IOCA_A_SOCKET_ID]);
	return decode_counters(nest, IOCA_A_SOCKET_COUNTER, ss->counters, &ss->ncounters,
			       IOCA_MAX_UNCORE_EVENTS, log);
}

static void decode_times(struct nlattr **tb, struct ioca_sample *s)
{
	s->seq = ioca_u64(tb[IOCA_A_SAMPLE_SEQ]);
	if (tb[IOCA_A_SAMPLE_TIME_NS])
		s->time_ns = ioca_u64(tb[IOCA_A_SAMPLE_TIME_NS]);
	if (tb[IOCA_A_SAMPLE_REALTIME_NS])
		s->realtime_ns = ioca_u64(tb[IOCA_A_SAMPLE_REALTIME_NS]);
	if (tb[IOCA_A_SAMPLE_COLLECT_NS])
		s->collect_ns = ioca_u64(tb[IOCA_A_SAMPLE_COLLECT_NS]);
	if (tb[IOCA_A_SAMPLE_INTERVAL_US])
		s->interval_us = ioca_u32(tb[IOCA_A_SAMPLE_INTERVAL_US]);
	s->on_demand = tb[IOCA_A_SAMPLE_ON_DEMAND] != NULL;
}

int ioca_decode_sample_body(const struct ioca_sample_head *h, struct ioca_sample *s,
			    const struct ioca_log *log)
{
	struct nlattr *a;
	int rem, err = 0;

	decode_times((struct nlattr **)h->tb, s);
	ioca_for_each_attr(a, h->attrs, h->len, rem)
	{
		if (ioca_nla_type(a) == IOCA_A_SAMPLE_CPU) {
			if (s->ncpus >= IOCA_MAX_CPUS) {
				pr_warn(log, "sample: more than IOCA_MAX_CPUS CPU nests");
				return -EBADMSG;
			}
			err = decode_cpu(a, &s->cpus[s->ncpus++], log);
		} else if (ioca_nla_type(a) == IOCA_A_SAMPLE_SOCKET) {
			if (s->nsockets >= IOCA_MAX_SOCKETS) {
				pr_warn(log, "sample: more than IOCA_MAX_SOCKETS socket nests");
				return -EBADMSG;
			}
			err = decode_socket(a, &s->sockets[s->nsockets++], log);
		}
		if (err)
			return err;
	}
	return 0;
}
