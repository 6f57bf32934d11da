// SPDX-License-Identifier: GPL-2.0
/*
 * Parsers walk every attribute instead of using nla_parse tables because
 * sockets, CPUs, events and counters are multi-attr nests.
 */
#include "ioca_client.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

static void parse_socket(struct nlattr *nest, struct ioca_socket_info *s)
{
	struct nlattr *a;
	int rem;

	memset(s, 0, sizeof(*s));
	nla_for_each_nested(a, nest, rem)
	{
		uint32_t v = nla_len(a) >= 4 ? nla_get_u32(a) : 0;

		switch (nla_type(a)) {
		case IOCA_A_SOCKET_ID:
			s->id = v;
			break;
		case IOCA_A_SOCKET_LLC_WAYS:
			s->llc_ways = v;
			break;
		case IOCA_A_SOCKET_DDIO_MASK:
			s->mask = v;
			break;
		case IOCA_A_SOCKET_DDIO_WAYS:
			s->ways = v;
			break;
		case IOCA_A_SOCKET_DDIO_BOOT_MASK:
			s->boot_mask = v;
			break;
		case IOCA_A_SOCKET_DDIO_VALID_MASK:
			s->valid_mask = v;
			break;
		case IOCA_A_SOCKET_CPU_COUNT:
			s->cpu_count = v;
			break;
		}
	}
}

static void parse_event(struct nlattr *nest, struct ioca_sampler_info *si)
{
	struct nlattr *a;
	int rem, i = si->nevents;

	if (i >= T_MAX_EVENTS)
		return;
	si->kind[i] = 0;
	si->effective_kind[i] = 0;
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_EVENT_KIND)
			si->kind[i] = nla_get_u32(a);
		else if (nla_type(a) == IOCA_A_EVENT_EFFECTIVE_KIND)
			si->effective_kind[i] = nla_get_u32(a);
	}
	si->nevents++;
}

static void parse_sampler(struct nlattr *nest, struct ioca_sampler_info *si)
{
	struct nlattr *a;
	int rem;

	memset(si, 0, sizeof(*si));
	si->present = true;
	nla_for_each_nested(a, nest, rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_SAMPLER_STATE:
			si->state = nla_get_u32(a);
			break;
		case IOCA_A_SAMPLER_INTERVAL_US:
			si->interval_us = nla_get_u32(a);
			break;
		case IOCA_A_SAMPLER_CPU:
			si->ncpus++;
			break;
		case IOCA_A_SAMPLER_EVENT:
			parse_event(a, si);
			break;
		case IOCA_A_SAMPLER_SEQ:
			si->seq = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLER_LAST_COLLECT_NS:
			si->last_collect_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLER_MEAN_COLLECT_NS:
			si->mean_collect_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLER_INTERVALS:
			si->intervals = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLER_NO_LISTENER:
			si->no_listener = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLER_SEND_ERRORS:
			si->send_errors = nla_get_u64(a);
			break;
		}
	}
}

static int parse_info(struct nlmsghdr *nlh, void *arg)
{
	struct ioca_info *info = arg;
	struct nlattr *a;
	int rem;

	memset(info, 0, sizeof(*info));
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_INFO_BACKEND:
			info->backend = nla_get_u32(a);
			info->has_backend = true;
			break;
		case IOCA_A_INFO_BACKEND_NAME:
			nla_strlcpy(info->backend_name, a, sizeof(info->backend_name));
			break;
		case IOCA_A_INFO_CPU_FAMILY:
			info->family = nla_get_u32(a);
			break;
		case IOCA_A_INFO_CPU_MODEL:
			info->model = nla_get_u32(a);
			info->has_model = true;
			break;
		case IOCA_A_INFO_CPU_MODEL_NAME:
			nla_strlcpy(info->model_name, a, sizeof(info->model_name));
			break;
		case IOCA_A_INFO_LOCKED_DOWN:
			info->locked_down = nla_get_u8(a);
			break;
		case IOCA_A_INFO_MIN_WAYS:
			info->min_ways = nla_get_u32(a);
			info->has_min_ways = true;
			break;
		case IOCA_A_INFO_SOCKET:
			if (info->nsockets >= T_MAX_SOCKETS)
				return -E2BIG;
			parse_socket(a, &info->sock[info->nsockets++]);
			break;
		case IOCA_A_INFO_SAMPLER:
			parse_sampler(a, &info->sampler);
			break;
		case IOCA_A_INFO_HW_COUNTERS:
			info->hw_counters = nla_get_u8(a);
			break;
		case IOCA_A_INFO_FALLBACK_KIND:
			info->fallback_kind = nla_get_u32(a);
			break;
		}
	}
	return 0;
}

/* A request without attributes whose answer is exactly one parsed message. */
static int get_one(struct tnl *t, uint8_t cmd, int (*parse)(struct nlmsghdr *, void *), void *arg,
		   struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, cmd, 0);
	int err;

	if (!msg)
		return -ENOMEM;
	r->parse = parse;
	r->arg = arg;
	err = tnl_do(t, msg, r);
	r->parse = NULL;
	if (err)
		return err;
	if (r->nmsgs != 1)
		return -EBADMSG;
	return r->parse_err;
}

int ioca_info_get(struct tnl *t, struct ioca_info *info, struct tnl_reply *r)
{
	return get_one(t, IOCA_CMD_INFO_GET, parse_info, info, r);
}

int ioca_ddio_set(struct tnl *t, int64_t sock, int64_t mask, int64_t ways, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_DDIO_SET, 0);
	struct nlattr *nest;

	if (!msg)
		return -ENOMEM;
	nest = nla_nest_start(msg, IOCA_A_DDIO_SOCKET | NLA_F_NESTED);
	if (!nest)
		goto nla_put_failure;
	if (sock >= 0)
		NLA_PUT_U32(msg, IOCA_A_SOCKET_ID, (uint32_t)sock);
	if (mask >= 0)
		NLA_PUT_U32(msg, IOCA_A_SOCKET_DDIO_MASK, (uint32_t)mask);
	if (ways >= 0)
		NLA_PUT_U32(msg, IOCA_A_SOCKET_DDIO_WAYS, (uint32_t)ways);
	nla_nest_end(msg, nest);
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int ioca_ddio_restore(struct tnl *t, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_DDIO_SET, 0);

	if (!msg)
		return -ENOMEM;
	NLA_PUT_FLAG(msg, IOCA_A_DDIO_RESTORE);
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

static int put_event(struct nl_msg *msg, int attr, const struct ioca_event_cfg *ev)
{
	struct nlattr *nest = nla_nest_start(msg, attr | NLA_F_NESTED);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, IOCA_A_EVENT_KIND, ev->kind))
		return -EMSGSIZE;
	if ((ev->type || ev->has_type) && nla_put_u32(msg, IOCA_A_EVENT_TYPE, ev->type))
		return -EMSGSIZE;
	if (ev->config && nla_put_u64(msg, IOCA_A_EVENT_CONFIG, ev->config))
		return -EMSGSIZE;
	if (ev->config1 && nla_put_u64(msg, IOCA_A_EVENT_CONFIG1, ev->config1))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

int ioca_put_sampler(struct nl_msg *msg, uint32_t interval_us, const uint32_t *cpus, int ncpus,
		     const struct ioca_event_cfg *ev, int nevents, const struct ioca_event_cfg *unc,
		     int nuncore)
{
	int i;

	if (interval_us && nla_put_u32(msg, IOCA_A_SAMPLER_INTERVAL_US, interval_us))
		return -EMSGSIZE;
	for (i = 0; i < ncpus; i++)
		if (nla_put_u32(msg, IOCA_A_SAMPLER_CPU, cpus[i]))
			return -EMSGSIZE;
	for (i = 0; i < nevents; i++)
		if (put_event(msg, IOCA_A_SAMPLER_EVENT, &ev[i]))
			return -EMSGSIZE;
	for (i = 0; i < nuncore; i++)
		if (put_event(msg, IOCA_A_SAMPLER_UNCORE_EVENT, &unc[i]))
			return -EMSGSIZE;
	return 0;
}

int ioca_sampler_set(struct tnl *t, const struct ioca_sampler_cfg *cfg, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_SAMPLER_SET, 0);

	if (!msg)
		return -ENOMEM;
	if (ioca_put_sampler(msg, cfg->interval_us, cfg->cpus, cfg->ncpus, cfg->ev, cfg->nevents,
			     cfg->unc, cfg->nuncore)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return tnl_do(t, msg, r);
}

int ioca_simple_cmd(struct tnl *t, uint8_t cmd, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, cmd, 0);

	if (!msg)
		return -ENOMEM;
	return tnl_do(t, msg, r);
}

static void parse_counter(struct nlattr *nest, struct ioca_counter *c)
{
	struct nlattr *a;
	int rem;

	memset(c, 0, sizeof(*c));
	nla_for_each_nested(a, nest, rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_COUNTER_INDEX:
			c->index = nla_get_u32(a);
			break;
		case IOCA_A_COUNTER_VALUE:
			c->value = nla_get_u64(a);
			break;
		case IOCA_A_COUNTER_ENABLED_NS:
			c->enabled_ns = nla_get_u64(a);
			break;
		case IOCA_A_COUNTER_RUNNING_NS:
			c->running_ns = nla_get_u64(a);
			break;
		}
	}
}

static int parse_cpu(struct nlattr *nest, struct ioca_cpu_sample *cs)
{
	struct nlattr *a;
	int rem;

	memset(cs, 0, sizeof(*cs));
	nla_for_each_nested(a, nest, rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_CPU_ID:
			cs->id = nla_get_u32(a);
			break;
		case IOCA_A_CPU_SOCKET:
			cs->socket = nla_get_u32(a);
			break;
		case IOCA_A_CPU_ONLINE:
			cs->online = nla_get_u8(a);
			break;
		case IOCA_A_CPU_COUNTER:
			if (cs->ncounters >= T_MAX_EVENTS)
				return -E2BIG;
			parse_counter(a, &cs->c[cs->ncounters++]);
			break;
		}
	}
	return 0;
}

static void parse_sample_socket(struct nlattr *nest, struct ioca_sample *s)
{
	struct nlattr *a;
	int rem, i = s->nsockets++;

	s->socket_id[i] = 0;
	s->socket_ncounters[i] = 0;
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_SOCKET_ID)
			s->socket_id[i] = nla_get_u32(a);
		else if (nla_type(a) == IOCA_A_SOCKET_COUNTER)
			s->socket_ncounters[i]++;
	}
}

int ioca_parse_sample(struct nlmsghdr *nlh, void *arg)
{
	struct ioca_sample *s = arg;
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *a;
	int rem, err;

	if (g->cmd != IOCA_CMD_SAMPLE_NTF && g->cmd != IOCA_CMD_SAMPLE_GET)
		return -EPROTO;
	memset(s, 0, sizeof(*s));
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_SAMPLE_SEQ:
			s->seq = nla_get_u64(a);
			s->has_seq = true;
			break;
		case IOCA_A_SAMPLE_TIME_NS:
			s->time_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLE_REALTIME_NS:
			s->realtime_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLE_COLLECT_NS:
			s->collect_ns = nla_get_u64(a);
			break;
		case IOCA_A_SAMPLE_INTERVAL_US:
			s->interval_us = nla_get_u32(a);
			break;
		case IOCA_A_SAMPLE_ON_DEMAND:
			s->on_demand = true;
			break;
		case IOCA_A_SAMPLE_CPU:
			if (s->ncpus >= T_MAX_CPUS)
				return -E2BIG;
			err = parse_cpu(a, &s->cpu[s->ncpus++]);
			if (err)
				return err;
			break;
		case IOCA_A_SAMPLE_SOCKET:
			if (s->nsockets >= T_MAX_SOCKETS)
				return -E2BIG;
			parse_sample_socket(a, s);
			break;
		}
	}
	return 0;
}

int ioca_sample_get(struct tnl *t, struct ioca_sample *s, struct tnl_reply *r)
{
	return get_one(t, IOCA_CMD_SAMPLE_GET, ioca_parse_sample, s, r);
}

bool ioca_mask_contiguous(uint32_t mask)
{
	uint32_t low;

	if (!mask)
		return false;
	low = mask & -mask;
	/* Adding the lowest set bit clears a contiguous run entirely. */
	return ((mask + low) & mask) == 0;
}

uint32_t ioca_top_ways(uint32_t llc_ways, uint32_t ways)
{
	uint32_t run = ways >= 32 ? 0xffffffffu : (1u << ways) - 1;

	return run << (llc_ways - ways);
}
