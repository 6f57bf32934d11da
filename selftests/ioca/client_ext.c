// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers walk every attribute (multi-attr nests), as in ioca_client.c.
 */
#include "client_ext.h"

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

int iocx_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, bool own,
		     struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_SAMPLER_SET, 0);

	if (!msg)
		return -ENOMEM;
	if (ioca_put_sampler(msg, cfg->interval_us, cfg->cpus, cfg->ncpus, cfg->ev, cfg->nevents,
			     cfg->unc, cfg->nuncore))
		goto nla_put_failure;
	if (own)
		NLA_PUT_FLAG(msg, IOCA_A_SAMPLER_OWNER);
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int iocx_ddio_set(struct tnl *t, uint32_t sock, uint32_t mask, bool own, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_DDIO_SET, 0);
	struct nlattr *nest;

	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, IOCA_A_DDIO_SOCKET | NLA_F_NESTED);
	if (!nest)
		goto nla_put_failure;
	NLA_PUT_U32(msg, IOCA_A_SOCKET_ID, sock);
	NLA_PUT_U32(msg, IOCA_A_SOCKET_DDIO_MASK, mask);
	nla_nest_end(msg, nest);
	if (own)
		NLA_PUT_FLAG(msg, IOCA_A_DDIO_OWNER);
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static void owners_socket(struct nlattr *nest, struct iocx_owners *o)
{
	struct nlattr *a;
	int rem;

	if (o->nsockets >= T_MAX_SOCKETS)
		return;
	o->socket_pid[o->nsockets] = 0;
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_SOCKET_OWNER_PID)
			o->socket_pid[o->nsockets] = nla_get_u32(a);
	}
	o->nsockets++;
}

static void owners_sampler(struct nlattr *nest, struct iocx_owners *o)
{
	struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_SAMPLER_OWNER_PID) {
			o->sampler_pid = nla_get_u32(a);
			o->has_sampler_pid = true;
		} else if (nla_type(a) == IOCA_A_SAMPLER_PARTS) {
			o->parts = nla_get_u32(a);
			o->has_parts = true;
		}
	}
}

static int parse_owners(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct iocx_owners *o = arg;
	struct nlattr *a;
	int rem;

	memset(o, 0, sizeof(*o));
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem)
	{
		if (nla_type(a) == IOCA_A_INFO_SOCKET)
			owners_socket(a, o);
		else if (nla_type(a) == IOCA_A_INFO_SAMPLER)
			owners_sampler(a, o);
	}
	return 0;
}

int iocx_owners_get(struct tnl *t, struct iocx_owners *o, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_INFO_GET, parse_owners, o, r);
}

static void sample_cpu(struct nlattr *nest, struct iocx_sample *s)
{
	int i = s->ncpus, rem;
	struct nlattr *a;

	if (i >= T_MAX_CPUS)
		return;
	s->cpu_has_generation[i] = false;
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_CPU_ID) {
			s->cpu_id[i] = nla_get_u32(a);
		} else if (nla_type(a) == IOCA_A_CPU_GENERATION) {
			s->cpu_generation[i] = nla_get_u32(a);
			s->cpu_has_generation[i] = true;
		}
	}
	s->ncpus++;
}

static void sample_socket(struct nlattr *nest, struct iocx_sample *s)
{
	int i = s->nsockets, rem, rem2;
	struct nlattr *a, *c;

	if (i >= T_MAX_SOCKETS)
		return;
	s->socket_ncounters[i] = 0;
	nla_for_each_nested(a, nest, rem)
	{
		uint32_t idx = UINT32_MAX;
		uint64_t v = 0;

		if (nla_type(a) == IOCA_A_SOCKET_ID)
			s->socket_id[i] = nla_get_u32(a);
		if (nla_type(a) != IOCA_A_SOCKET_COUNTER)
			continue;
		nla_for_each_nested(c, a, rem2)
		{
			if (nla_type(c) == IOCA_A_COUNTER_INDEX)
				idx = nla_get_u32(c);
			else if (nla_type(c) == IOCA_A_COUNTER_VALUE)
				v = nla_get_u64(c);
		}
		if (idx < T_MAX_UNCORE)
			s->socket_value[i][idx] = v;
		s->socket_ncounters[i]++;
	}
	s->nsockets++;
}

int iocx_parse_sample(struct nlmsghdr *nlh, void *arg)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct iocx_sample *s = arg;
	struct nlattr *a;
	int rem;

	if (g->cmd != IOCA_CMD_SAMPLE_NTF && g->cmd != IOCA_CMD_SAMPLE_GET)
		return -EPROTO;
	memset(s, 0, sizeof(*s));
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_SAMPLE_SEQ:
			s->seq = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLE_TIME_NS:
			s->time_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLE_PART:
			s->part = nla_get_u32(a);
			s->has_part = true;
			break;
		case IOCA_A_SAMPLE_PARTS:
			s->parts = nla_get_u32(a);
			break;
		case IOCA_A_SAMPLE_CPU:
			sample_cpu(a, s);
			break;
		case IOCA_A_SAMPLE_SOCKET:
			sample_socket(a, s);
			break;
		}
	}
	return 0;
}

int iocx_sample_get(struct tnl *t, struct iocx_sample *s, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_SAMPLE_GET, iocx_parse_sample, s, r);
}
