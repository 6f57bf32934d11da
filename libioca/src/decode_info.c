// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Each nest is parsed with its policy first (lengths checked by libnl);
 * repeated attributes (sockets, CPUs, events) are then walked in order.
 */
#include "decode_info.h"

#include <errno.h>
#include <netlink/genl/genl.h>
#include "attrs.h"

static const struct nla_policy info_pol[IOCA_A_INFO_MAX + 1] = {
	[IOCA_A_INFO_BACKEND] = IOCA_POL_U32,
	[IOCA_A_INFO_BACKEND_NAME] = IOCA_POL_STRING(0),
	[IOCA_A_INFO_CPU_FAMILY] = IOCA_POL_U32,
	[IOCA_A_INFO_CPU_MODEL] = IOCA_POL_U32,
	[IOCA_A_INFO_CPU_MODEL_NAME] = IOCA_POL_STRING(0),
	[IOCA_A_INFO_DDIO_VERIFIED] = IOCA_POL_U8,
	[IOCA_A_INFO_LOCKED_DOWN] = IOCA_POL_U8,
	[IOCA_A_INFO_MIN_WAYS] = IOCA_POL_U32,
	[IOCA_A_INFO_SOCKET] = IOCA_POL_NESTED,
	[IOCA_A_INFO_DEVICE] = IOCA_POL_NESTED,
	[IOCA_A_INFO_SAMPLER] = IOCA_POL_NESTED,
	[IOCA_A_INFO_HW_COUNTERS] = IOCA_POL_U8,
	[IOCA_A_INFO_FALLBACK_KIND] = IOCA_POL_U32,
};

static const struct nla_policy socket_pol[IOCA_A_SOCKET_MAX + 1] = {
	[IOCA_A_SOCKET_ID] = IOCA_POL_U32,
	[IOCA_A_SOCKET_LLC_WAYS] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_MASK] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_WAYS] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_BOOT_MASK] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_VALID_MASK] = IOCA_POL_U32,
	[IOCA_A_SOCKET_CPU_COUNT] = IOCA_POL_U32,
	[IOCA_A_SOCKET_COUNTER] = IOCA_POL_NESTED,
	[IOCA_A_SOCKET_OWNER_PID] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_FIELD] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_AVAILABLE] = IOCA_POL_U8,
	[IOCA_A_SOCKET_DDIO_WRITABLE] = IOCA_POL_U8,
	[IOCA_A_SOCKET_DDIO_VERIFIED] = IOCA_POL_U8,
	[IOCA_A_SOCKET_DDIO_EPOCH] = IOCA_POL_U32,
};

static const struct nla_policy sampler_pol[IOCA_A_SAMPLER_MAX + 1] = {
	[IOCA_A_SAMPLER_STATE] = IOCA_POL_U32,
	[IOCA_A_SAMPLER_INTERVAL_US] = IOCA_POL_U32,
	[IOCA_A_SAMPLER_CPU] = IOCA_POL_U32,
	[IOCA_A_SAMPLER_EVENT] = IOCA_POL_NESTED,
	[IOCA_A_SAMPLER_UNCORE_EVENT] = IOCA_POL_NESTED,
	[IOCA_A_SAMPLER_SEQ] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_LAST_COLLECT_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_MEAN_COLLECT_NS] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_INTERVALS] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_NO_LISTENER] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_SEND_ERRORS] = IOCA_POL_U64,
	[IOCA_A_SAMPLER_OWNER] = IOCA_POL_FLAG,
	[IOCA_A_SAMPLER_OWNER_PID] = IOCA_POL_U32,
	[IOCA_A_SAMPLER_PARTS] = IOCA_POL_U32,
	[IOCA_A_SAMPLER_SUBSCRIBER] = IOCA_POL_NESTED,
	[IOCA_A_SAMPLER_EPOCH] = IOCA_POL_U32,
};

static const struct nla_policy subscriber_pol[IOCA_A_SUBSCRIBER_MAX + 1] = {
	[IOCA_A_SUBSCRIBER_PORTID] = IOCA_POL_U32,
	[IOCA_A_SUBSCRIBER_PID] = IOCA_POL_U32,
	[IOCA_A_SUBSCRIBER_SAMPLES] = IOCA_POL_U64,
	[IOCA_A_SUBSCRIBER_DROPPED] = IOCA_POL_U64,
};

static const struct nla_policy event_pol[IOCA_A_EVENT_MAX + 1] = {
	[IOCA_A_EVENT_KIND] = IOCA_POL_U32,   [IOCA_A_EVENT_TYPE] = IOCA_POL_U32,
	[IOCA_A_EVENT_CONFIG] = IOCA_POL_U64, [IOCA_A_EVENT_CONFIG1] = IOCA_POL_U64,
	[IOCA_A_EVENT_INDEX] = IOCA_POL_U32,  [IOCA_A_EVENT_EFFECTIVE_KIND] = IOCA_POL_U32,
};

static uint32_t get_u32(struct nlattr *a)
{
	return a ? ioca_u32(a) : 0;
}

static uint64_t get_u64(struct nlattr *a)
{
	return a ? ioca_u64(a) : 0;
}

int ioca_decode_event(struct nlattr *nest, struct ioca_event_info *ev, const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_EVENT_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_EVENT_MAX, nest, event_pol, log, "info reply: event nest");
	if (err)
		return err;
	if (!tb[IOCA_A_EVENT_KIND]) {
		pr_warn(log, "info reply: event nest without IOCA_A_EVENT_KIND");
		return -EBADMSG;
	}
	ev->index = get_u32(tb[IOCA_A_EVENT_INDEX]);
	ev->kind = get_u32(tb[IOCA_A_EVENT_KIND]);
	ev->effective_kind = get_u32(tb[IOCA_A_EVENT_EFFECTIVE_KIND]);
	ev->type = get_u32(tb[IOCA_A_EVENT_TYPE]);
	ev->config = get_u64(tb[IOCA_A_EVENT_CONFIG]);
	ev->config1 = get_u64(tb[IOCA_A_EVENT_CONFIG1]);
	return 0;
}

static bool get_flag(const struct nlattr *a)
{
	return a && ioca_u8(a);
}

/* Absent in an older module's reply: reported stays false. */
static void decode_ddio_control(struct nlattr **tb, struct ioca_ddio_control *dc)
{
	dc->reported = tb[IOCA_A_SOCKET_DDIO_AVAILABLE] != NULL;
	dc->available = get_flag(tb[IOCA_A_SOCKET_DDIO_AVAILABLE]);
	dc->writable = get_flag(tb[IOCA_A_SOCKET_DDIO_WRITABLE]);
	dc->verified = get_flag(tb[IOCA_A_SOCKET_DDIO_VERIFIED]);
	dc->field = get_u32(tb[IOCA_A_SOCKET_DDIO_FIELD]);
}

static const struct nla_policy device_pol[IOCA_A_DEVICE_MAX + 1] = {
	[IOCA_A_DEVICE_ADDR] = IOCA_POL_STRING(IOCA_PCI_ADDR_LEN),
	[IOCA_A_DEVICE_MODE] = IOCA_POL_U32,
	[IOCA_A_DEVICE_ROOT_PORT] = IOCA_POL_STRING(IOCA_PCI_ADDR_LEN),
	[IOCA_A_DEVICE_PERFCTRLSTS0] = IOCA_POL_U32,
	[IOCA_A_DEVICE_PERFCTRLSTS1] = IOCA_POL_U32,
	[IOCA_A_DEVICE_OWNER_PID] = IOCA_POL_U32,
	[IOCA_A_DEVICE_EMULATED] = IOCA_POL_U8,
};

static int decode_device(struct nlattr *nest, struct ioca_device_info *dv,
			 const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_DEVICE_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_DEVICE_MAX, nest, device_pol, log,
			      "info reply: device nest");
	if (err)
		return err;
	if (!tb[IOCA_A_DEVICE_ROOT_PORT]) {
		pr_warn(log, "info reply: device nest without IOCA_A_DEVICE_ROOT_PORT");
		return -EBADMSG;
	}
	if (tb[IOCA_A_DEVICE_ADDR])
		ioca_attr_string(dv->addr, sizeof(dv->addr), tb[IOCA_A_DEVICE_ADDR]);
	ioca_attr_string(dv->root_port, sizeof(dv->root_port), tb[IOCA_A_DEVICE_ROOT_PORT]);
	dv->mode = get_u32(tb[IOCA_A_DEVICE_MODE]);
	dv->perfctrlsts0 = get_u32(tb[IOCA_A_DEVICE_PERFCTRLSTS0]);
	dv->perfctrlsts1 = get_u32(tb[IOCA_A_DEVICE_PERFCTRLSTS1]);
	dv->owner_pid = get_u32(tb[IOCA_A_DEVICE_OWNER_PID]);
	dv->emulated = get_flag(tb[IOCA_A_DEVICE_EMULATED]);
	return 0;
}

/* @i: the socket's index in @info */
static int decode_socket(struct nlattr *nest, struct ioca_info *info, uint32_t i,
			 const struct ioca_log *log)
{
	struct ioca_socket_info *s = &info->sockets[i];
	struct nlattr *tb[IOCA_A_SOCKET_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_SOCKET_MAX, nest, socket_pol, log,
			      "info reply: socket nest");
	if (err)
		return err;
	if (!tb[IOCA_A_SOCKET_ID]) {
		pr_warn(log, "info reply: socket nest without IOCA_A_SOCKET_ID");
		return -EBADMSG;
	}
	s->id = get_u32(tb[IOCA_A_SOCKET_ID]);
	s->llc_ways = get_u32(tb[IOCA_A_SOCKET_LLC_WAYS]);
	s->ddio_mask = get_u32(tb[IOCA_A_SOCKET_DDIO_MASK]);
	s->ddio_ways = get_u32(tb[IOCA_A_SOCKET_DDIO_WAYS]);
	s->boot_mask = get_u32(tb[IOCA_A_SOCKET_DDIO_BOOT_MASK]);
	s->valid_mask = get_u32(tb[IOCA_A_SOCKET_DDIO_VALID_MASK]);
	s->cpu_count = get_u32(tb[IOCA_A_SOCKET_CPU_COUNT]);
	s->owner_pid = get_u32(tb[IOCA_A_SOCKET_OWNER_PID]);
	info->ddio_epoch[i] = get_u32(tb[IOCA_A_SOCKET_DDIO_EPOCH]);
	decode_ddio_control(tb, &info->ddio[i]);
	return 0;
}

static int decode_subscriber(struct nlattr *nest, struct ioca_subscriber_info *sub,
			     const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_SUBSCRIBER_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_SUBSCRIBER_MAX, nest, subscriber_pol, log,
			      "info reply: subscriber nest");
	if (err)
		return err;
	if (!tb[IOCA_A_SUBSCRIBER_PORTID]) {
		pr_warn(log, "info reply: subscriber nest without IOCA_A_SUBSCRIBER_PORTID");
		return -EBADMSG;
	}
	sub->portid = get_u32(tb[IOCA_A_SUBSCRIBER_PORTID]);
	sub->pid = get_u32(tb[IOCA_A_SUBSCRIBER_PID]);
	sub->samples = get_u64(tb[IOCA_A_SUBSCRIBER_SAMPLES]);
	sub->dropped = get_u64(tb[IOCA_A_SUBSCRIBER_DROPPED]);
	return 0;
}

/* The repeated attributes of the sampler nest, in order. */
static int decode_sampler_lists(struct nlattr *nest, struct ioca_sampler_info *si,
				const struct ioca_log *log)
{
	struct nlattr *a;
	int rem, err = 0;

	ioca_for_each_nested(a, nest, rem)
	{
		switch (ioca_nla_type(a)) {
		case IOCA_A_SAMPLER_CPU:
			if (si->ncpus >= IOCA_MAX_CPUS) {
				pr_warn(log, "info reply: more than IOCA_MAX_CPUS sampler CPUs");
				return -EBADMSG;
			}
			si->cpus[si->ncpus++] = ioca_u32(a);
			break;
		case IOCA_A_SAMPLER_EVENT:
			if (si->nevents >= IOCA_MAX_CPU_EVENTS) {
				pr_warn(log, "info reply: more than IOCA_MAX_CPU_EVENTS events");
				return -EBADMSG;
			}
			err = ioca_decode_event(a, &si->events[si->nevents++], log);
			break;
		case IOCA_A_SAMPLER_UNCORE_EVENT:
			if (si->nuncore >= IOCA_MAX_UNCORE_EVENTS) {
				pr_warn(log, "info reply: more than IOCA_MAX_UNCORE_EVENTS uncore "
					     "events");
				return -EBADMSG;
			}
			err = ioca_decode_event(a, &si->uncore[si->nuncore++], log);
			break;
		case IOCA_A_SAMPLER_SUBSCRIBER:
			if (si->nsubscribers >= IOCA_MAX_SUBSCRIBERS) {
				pr_warn(log,
					"info reply: more than IOCA_MAX_SUBSCRIBERS subscribers");
				return -EBADMSG;
			}
			err = decode_subscriber(a, &si->subscribers[si->nsubscribers++], log);
			break;
		}
		if (err)
			return err;
	}
	return 0;
}

static int decode_sampler(struct nlattr *nest, struct ioca_info *info, const struct ioca_log *log)
{
	struct ioca_sampler_info *si = &info->sampler;
	struct nlattr *tb[IOCA_A_SAMPLER_MAX + 1];
	int err;

	err = ioca_nest_parse(tb, IOCA_A_SAMPLER_MAX, nest, sampler_pol, log,
			      "info reply: sampler nest");
	if (err)
		return err;
	if (!tb[IOCA_A_SAMPLER_STATE]) {
		pr_warn(log, "info reply: sampler nest without IOCA_A_SAMPLER_STATE");
		return -EBADMSG;
	}
	si->state = get_u32(tb[IOCA_A_SAMPLER_STATE]);
	si->interval_us = get_u32(tb[IOCA_A_SAMPLER_INTERVAL_US]);
	si->seq = get_u64(tb[IOCA_A_SAMPLER_SEQ]);
	si->last_collect_ns = get_u64(tb[IOCA_A_SAMPLER_LAST_COLLECT_NS]);
	si->mean_collect_ns = get_u64(tb[IOCA_A_SAMPLER_MEAN_COLLECT_NS]);
	si->intervals = get_u64(tb[IOCA_A_SAMPLER_INTERVALS]);
	si->no_listener = get_u64(tb[IOCA_A_SAMPLER_NO_LISTENER]);
	si->send_errors = get_u64(tb[IOCA_A_SAMPLER_SEND_ERRORS]);
	si->owner_pid = get_u32(tb[IOCA_A_SAMPLER_OWNER_PID]);
	si->parts = get_u32(tb[IOCA_A_SAMPLER_PARTS]);
	info->sampler_epoch = get_u32(tb[IOCA_A_SAMPLER_EPOCH]);
	return decode_sampler_lists(nest, si, log);
}

static void decode_info_scalars(struct nlattr **tb, struct ioca_info *info)
{
	info->backend = get_u32(tb[IOCA_A_INFO_BACKEND]);
	if (tb[IOCA_A_INFO_BACKEND_NAME])
		ioca_attr_string(info->backend_name, sizeof(info->backend_name),
				 tb[IOCA_A_INFO_BACKEND_NAME]);
	info->cpu_family = get_u32(tb[IOCA_A_INFO_CPU_FAMILY]);
	info->cpu_model = get_u32(tb[IOCA_A_INFO_CPU_MODEL]);
	if (tb[IOCA_A_INFO_CPU_MODEL_NAME])
		ioca_attr_string(info->cpu_model_name, sizeof(info->cpu_model_name),
				 tb[IOCA_A_INFO_CPU_MODEL_NAME]);
	info->ddio_verified =
		tb[IOCA_A_INFO_DDIO_VERIFIED] && ioca_u8(tb[IOCA_A_INFO_DDIO_VERIFIED]);
	info->locked_down = tb[IOCA_A_INFO_LOCKED_DOWN] && ioca_u8(tb[IOCA_A_INFO_LOCKED_DOWN]);
	info->hw_counters = tb[IOCA_A_INFO_HW_COUNTERS] && ioca_u8(tb[IOCA_A_INFO_HW_COUNTERS]);
	info->min_ways = get_u32(tb[IOCA_A_INFO_MIN_WAYS]);
	info->fallback_kind = get_u32(tb[IOCA_A_INFO_FALLBACK_KIND]);
}

int ioca_decode_info(const struct nlmsghdr *nlh, struct ioca_info *info, const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_INFO_MAX + 1];
	struct genlmsghdr *g;
	struct nlattr *a, *head;
	int len, rem, err = 0;

	memset(info, 0, sizeof(*info));
	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		pr_warn(log, "info reply: %u bytes, shorter than its headers", nlh->nlmsg_len);
		return -EBADMSG;
	}
	g = nlmsg_data(nlh);
	head = genlmsg_attrdata(g, 0);
	len = genlmsg_attrlen(g, 0);
	err = ioca_attrs_parse(tb, IOCA_A_INFO_MAX, head, len, info_pol, log, "info reply");
	if (err)
		return err;
	if (!tb[IOCA_A_INFO_BACKEND]) {
		pr_warn(log, "info reply without IOCA_A_INFO_BACKEND");
		return -EBADMSG;
	}
	decode_info_scalars(tb, info);
	ioca_for_each_attr(a, head, len, rem)
	{
		if (ioca_nla_type(a) == IOCA_A_INFO_DEVICE) {
			if (info->ndevices >= IOCA_MAX_DDIO_DEVICES) {
				pr_warn(log,
					"info reply: more than IOCA_MAX_DDIO_DEVICES device nests");
				return -EBADMSG;
			}
			err = decode_device(a, &info->devices[info->ndevices++], log);
			if (err)
				return err;
			continue;
		}
		if (ioca_nla_type(a) != IOCA_A_INFO_SOCKET)
			continue;
		if (info->nsockets >= IOCA_MAX_SOCKETS) {
			pr_warn(log, "info reply: more than IOCA_MAX_SOCKETS socket nests");
			return -EBADMSG;
		}
		err = decode_socket(a, info, info->nsockets, log);
		info->nsockets++;
		if (err)
			return err;
	}
	if (tb[IOCA_A_INFO_SAMPLER]) {
		info->has_sampler = true;
		err = decode_sampler(tb[IOCA_A_INFO_SAMPLER], info, log);
	}
	return err;
}
