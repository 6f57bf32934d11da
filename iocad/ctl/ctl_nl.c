// SPDX-License-Identifier: GPL-2.0
/*
 * Requests are built iw-style: NLA_PUT_* jumps to nla_put_failure, which
 * can only mean the message outgrew its buffer.
 */
#include "ctl_nl.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <netlink/attr.h>

int ctl_nl_open(struct tnl *t)
{
	return tnl_open(t, IOCA_FAMILY_NAME);
}

static int send_req(struct tnl *t, struct nl_msg *msg, tnl_parse_fn parse, void *arg,
		    struct tnl_reply *r)
{
	r->parse = parse;
	r->arg = arg;
	return tnl_do(t, msg, r);
}

static int put_event(struct nl_msg *msg, int type, const struct ctl_event *e)
{
	struct nlattr *nest = nla_nest_start(msg, type | NLA_F_NESTED);

	if (!nest)
		return -EMSGSIZE;
	NLA_PUT_U32(msg, IOCA_A_EVENT_KIND, e->kind);
	if (e->kind == IOCA_EVENT_KIND_RAW) {
		if (e->has_type)
			NLA_PUT_U32(msg, IOCA_A_EVENT_TYPE, e->type);
		NLA_PUT_U64(msg, IOCA_A_EVENT_CONFIG, e->config);
		NLA_PUT_U64(msg, IOCA_A_EVENT_CONFIG1, e->config1);
	}
	nla_nest_end(msg, nest);
	return 0;

nla_put_failure:
	return -EMSGSIZE;
}

int ctl_nl_sampler_set(struct tnl *t, const struct ctl_sampler_cfg *cfg, struct tnl_reply *r)
{
	struct nl_msg *msg = nlmsg_alloc_size(65536);
	unsigned int i;

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, 0, IOCA_CMD_SAMPLER_SET,
			 IOCA_FAMILY_VERSION))
		goto nla_put_failure;
	if (cfg->interval_us)
		NLA_PUT_U32(msg, IOCA_A_SAMPLER_INTERVAL_US, cfg->interval_us);
	for (i = 0; i < cfg->ncpus; i++)
		NLA_PUT_U32(msg, IOCA_A_SAMPLER_CPU, cfg->cpus[i]);
	for (i = 0; i < cfg->nevents; i++)
		if (put_event(msg, IOCA_A_SAMPLER_EVENT, &cfg->ev[i]))
			goto nla_put_failure;
	for (i = 0; i < cfg->nuncore; i++)
		if (put_event(msg, IOCA_A_SAMPLER_UNCORE_EVENT, &cfg->unc[i]))
			goto nla_put_failure;
	return send_req(t, msg, NULL, NULL, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int ctl_nl_simple(struct tnl *t, uint8_t cmd, tnl_parse_fn parse, void *arg, struct tnl_reply *r)
{
	struct nl_msg *msg = tnl_msg(t, cmd, 0);

	if (!msg)
		return -ENOMEM;
	return send_req(t, msg, parse, arg, r);
}

void ctl_nl_report(const char *op, int err, const struct tnl_reply *r)
{
	if (r && r->msg[0])
		fprintf(stderr, "iocactl: %s: %s: %s\n", op, strerror(-err), r->msg);
	else
		fprintf(stderr, "iocactl: %s: %s\n", op, strerror(-err));
}
