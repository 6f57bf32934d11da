// SPDX-License-Identifier: GPL-2.0
/*
 * Replies are decoded by libioca's decoders (one per reply, policy-checked)
 * and copied into the tests' structs. Requests are put attribute by
 * attribute: tests send ill-formed ones on purpose, which libioca's
 * builders would refuse before the kernel saw them.
 *
 * The tests' structs keep the names the *_test.c files use (struct
 * ioca_info, struct ioca_sample, ...), which are also libioca's: libioca's
 * tags are renamed while its internal headers are included.
 */
#define ioca_socket_info lib_socket_info
#define ioca_sampler_info lib_sampler_info
#define ioca_info lib_info
#define ioca_counter lib_counter
#define ioca_cpu_sample lib_cpu_sample
#define ioca_sample lib_sample
#include "decode_info.h"
#include "decode_sample.h"
#undef ioca_socket_info
#undef ioca_sampler_info
#undef ioca_info
#undef ioca_counter
#undef ioca_cpu_sample
#undef ioca_sample

#include "ioca_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

/* libioca's default printer: its reasons for a refused reply go to stderr. */
static const struct ioca_log log_stderr;

static void copy_socket(const struct lib_socket_info *in, const struct ioca_ddio_control *dc,
			struct ioca_socket_info *s)
{
	s->id = in->id;
	s->llc_ways = in->llc_ways;
	s->mask = in->ddio_mask;
	s->ways = in->ddio_ways;
	s->boot_mask = in->boot_mask;
	s->valid_mask = in->valid_mask;
	s->cpu_count = in->cpu_count;
	s->field = dc->field;
	s->reported = dc->reported;
	s->available = dc->available;
	s->writable = dc->writable;
	s->verified = dc->verified;
}

static int copy_sampler(const struct lib_sampler_info *in, struct ioca_sampler_info *si)
{
	uint32_t i;

	si->present = true;
	si->state = in->state;
	si->interval_us = in->interval_us;
	si->seq = in->seq;
	si->last_collect_ns = in->last_collect_ns;
	si->mean_collect_ns = in->mean_collect_ns;
	si->intervals = in->intervals;
	si->no_listener = in->no_listener;
	si->send_errors = in->send_errors;
	si->ncpus = (int)in->ncpus;
	if (in->nevents > T_MAX_EVENTS)
		return -E2BIG;
	si->nevents = (int)in->nevents;
	for (i = 0; i < in->nevents; i++) {
		si->kind[i] = in->events[i].kind;
		si->effective_kind[i] = in->events[i].effective_kind;
	}
	return 0;
}

/* Which attributes the module sent: the tests assert presence too. */
static void mark_present(struct nlmsghdr *nlh, struct ioca_info *info)
{
	struct nlattr *tb[IOCA_A_INFO_MAX + 1];

	if (genlmsg_parse(nlh, 0, tb, IOCA_A_INFO_MAX, NULL))
		return;
	info->has_backend = tb[IOCA_A_INFO_BACKEND] != NULL;
	info->has_model = tb[IOCA_A_INFO_CPU_MODEL] != NULL;
	info->has_min_ways = tb[IOCA_A_INFO_MIN_WAYS] != NULL;
}

static int parse_info(struct nlmsghdr *nlh, void *arg)
{
	struct ioca_info *info = arg;
	struct lib_info *in = calloc(1, sizeof(*in));
	uint32_t i;
	int err;

	memset(info, 0, sizeof(*info));
	if (!in)
		return -ENOMEM;
	err = ioca_decode_info(nlh, in, &log_stderr);
	if (err)
		goto out;
	info->backend = in->backend;
	info->family = in->cpu_family;
	info->model = in->cpu_model;
	info->min_ways = in->min_ways;
	info->fallback_kind = in->fallback_kind;
	snprintf(info->backend_name, sizeof(info->backend_name), "%s", in->backend_name);
	snprintf(info->model_name, sizeof(info->model_name), "%s", in->cpu_model_name);
	info->hw_counters = in->hw_counters;
	info->locked_down = in->locked_down;
	mark_present(nlh, info);
	err = in->nsockets > T_MAX_SOCKETS ? -E2BIG : 0;
	for (i = 0; !err && i < in->nsockets; i++)
		copy_socket(&in->sockets[i], &in->ddio[i], &info->sock[info->nsockets++]);
	if (!err && in->has_sampler)
		err = copy_sampler(&in->sampler, &info->sampler);
out:
	free(in);
	return err;
}

int ioca_info_get(struct tnl *t, struct ioca_info *info, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_INFO_GET, parse_info, info, r);
}

int ioca_ddio_set(struct tnl *t, int64_t sock, int64_t mask, int64_t ways, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, IOCA_CMD_DDIO_SET, 0);
	struct nlattr *nest;

	if (!msg)
		return -ENOMEM;
	/* Exactly what it was given: no id, both or neither of mask and ways. */
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

/*
 * Not libioca's builder: that one refuses lists beyond the ABI's limits,
 * and the tests send such lists to see the kernel refuse them.
 */
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
	/* The ABI's maxima (256 CPUs, 128 uncore events) outgrow a page. */
	struct nl_msg *msg = nlmsg_alloc_size(65536);
	int err;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, 0, IOCA_CMD_SAMPLER_SET,
			 IOCA_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = ioca_put_sampler(msg, cfg->interval_us, cfg->cpus, cfg->ncpus, cfg->ev, cfg->nevents,
			       cfg->unc, cfg->nuncore);
	if (err) {
		nlmsg_free(msg);
		return err;
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

static int copy_cpu(const struct lib_cpu_sample *in, struct ioca_cpu_sample *cs)
{
	uint32_t i;

	memset(cs, 0, sizeof(*cs));
	cs->id = in->id;
	cs->socket = in->socket;
	cs->online = in->online;
	if (in->ncounters > T_MAX_EVENTS)
		return -E2BIG;
	cs->ncounters = (int)in->ncounters;
	for (i = 0; i < in->ncounters; i++) {
		cs->c[i].index = in->counters[i].index;
		cs->c[i].value = in->counters[i].value;
		cs->c[i].enabled_ns = in->counters[i].enabled_ns;
		cs->c[i].running_ns = in->counters[i].running_ns;
	}
	return 0;
}

static int copy_sample(const struct lib_sample *in, struct ioca_sample *s)
{
	uint32_t i;
	int err;

	s->seq = in->seq;
	s->has_seq = true;
	s->time_ns = in->time_ns;
	s->realtime_ns = in->realtime_ns;
	s->collect_ns = in->collect_ns;
	s->interval_us = in->interval_us;
	s->on_demand = in->on_demand;
	if (in->ncpus > T_MAX_CPUS || in->nsockets > T_MAX_SOCKETS)
		return -E2BIG;
	for (i = 0; i < in->ncpus; i++) {
		err = copy_cpu(&in->cpus[i], &s->cpu[s->ncpus++]);
		if (err)
			return err;
	}
	for (i = 0; i < in->nsockets; i++) {
		s->socket_id[i] = in->sockets[i].id;
		s->socket_ncounters[i] = (int)in->sockets[i].ncounters;
		s->nsockets++;
	}
	return 0;
}

/* One message, whole or one part of a sample: what it holds, decoded. */
int ioca_parse_sample(struct nlmsghdr *nlh, void *arg)
{
	struct ioca_sample *s = arg;
	struct ioca_sample_head h;
	struct lib_sample *in;
	int err;

	memset(s, 0, sizeof(*s));
	if (genlmsg_hdr(nlh)->cmd != IOCA_CMD_SAMPLE_NTF &&
	    genlmsg_hdr(nlh)->cmd != IOCA_CMD_SAMPLE_GET)
		return -EPROTO;
	err = ioca_decode_sample_head(nlh, &h, &log_stderr);
	if (err)
		return err;
	in = calloc(1, sizeof(*in));
	if (!in)
		return -ENOMEM;
	err = ioca_decode_sample_body(&h, in, &log_stderr);
	if (!err)
		err = copy_sample(in, s);
	free(in);
	return err;
}

int ioca_sample_get(struct tnl *t, struct ioca_sample *s, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_SAMPLE_GET, ioca_parse_sample, s, r);
}
