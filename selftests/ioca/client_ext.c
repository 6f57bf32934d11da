// SPDX-License-Identifier: GPL-2.0
/*
 * Sample messages are decoded by ioca_client.c (libioca's decoders); the
 * part attributes come from libioca's checked head of the same message.
 */
#include "client_ext.h"

#include <errno.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "decode_sample.h"

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
	/* The set's reply (the epochs) is counted, not parsed. */
	r->parse = NULL;
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

/* libioca's default printer: its reasons for a refused message go to stderr. */
static const struct ioca_log log_stderr;

int iocx_parse_sample(struct nlmsghdr *nlh, void *arg)
{
	struct iocx_sample *x = arg;
	struct ioca_sample_head h;
	int err;

	memset(x, 0, sizeof(*x));
	err = ioca_parse_sample(nlh, &x->s);
	/* decoded once more for its head: the part attributes as sent */
	if (!err)
		err = ioca_decode_sample_head(nlh, &h, &log_stderr);
	if (err)
		return err;
	x->part = h.part;
	x->parts = h.parts;
	x->has_part = h.tb[IOCA_A_SAMPLE_PART] != NULL;
	return 0;
}

int iocx_sample_get(struct tnl *t, struct iocx_sample *s, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_SAMPLE_GET, iocx_parse_sample, s, r);
}

uint64_t iocx_counter(const struct ioca_socket_sample *so, uint32_t index)
{
	for (uint32_t i = 0; i < so->ncounters; i++)
		if (so->counters[i].index == index)
			return so->counters[i].value;
	return 0;
}
