// SPDX-License-Identifier: GPL-2.0
/*
 * Replies are decoded by libioca's decoders (one per reply, policy-checked)
 * straight into libioca's public structs. Requests are put attribute by
 * attribute where tests send ill-formed ones on purpose (a DDIO socket
 * without its id, both or neither of mask and ways), which libioca's
 * builders would refuse before the kernel saw them; a sampler-set goes
 * through libioca's attribute putter without its ABI-limit check, so lists
 * past the limits reach the kernel.
 */
#include "ioca_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

#include "decode_info.h"
#include "decode_sample.h"
#include "request.h"

/* libioca's default printer: its reasons for a refused reply go to stderr. */
static const struct ioca_log log_stderr;

static int parse_info(struct nlmsghdr *nlh, void *arg)
{
	return ioca_decode_info(nlh, arg, &log_stderr);
}

int ioca_info_get(struct tnl *t, struct ioca_info *info, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_INFO_GET, parse_info, info, r);
}

struct has_attr {
	int attr;
	int found;
};

/* Which attributes the module sent: the tests assert presence too. */
static int parse_has(struct nlmsghdr *nlh, void *arg)
{
	struct nlattr *tb[IOCA_A_INFO_MAX + 1];
	struct has_attr *h = arg;

	if (h->attr < 1 || h->attr > IOCA_A_INFO_MAX)
		return -EINVAL;
	if (genlmsg_parse(nlh, 0, tb, IOCA_A_INFO_MAX, NULL))
		return -EBADMSG;
	h->found = tb[h->attr] != NULL;
	return 0;
}

int ioca_info_has(struct tnl *t, int attr, struct tnl_reply *r)
{
	struct has_attr h = {.attr = attr};
	int err = tnl_get_one(t, IOCA_CMD_INFO_GET, parse_has, &h, r);

	return err ? err : h.found;
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
	/* The set's reply (the epochs) is counted, not parsed. */
	r->parse = NULL;
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
	r->parse = NULL;
	return tnl_do(t, msg, r);

nla_put_failure:
	nlmsg_free(msg);
	return -EMSGSIZE;
}

int ioca_put_sampler(struct nl_msg *msg, uint32_t interval_us, const uint32_t *cpus, int ncpus,
		     const struct ioca_event *ev, int nevents, const struct ioca_event *unc,
		     int nuncore)
{
	const struct ioca_sampler_config cfg = {
		.interval_us = interval_us,
		.cpus = cpus,
		.ncpus = (size_t)ncpus,
		.events = ev,
		.nevents = (size_t)nevents,
		.uncore = unc,
		.nuncore = (size_t)nuncore,
	};

	if (ncpus < 0 || nevents < 0 || nuncore < 0)
		return -EINVAL;
	return ioca_req_sampler_put(msg, &cfg, false);
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

/* One message, whole or one part of a sample: what it holds, decoded. */
int ioca_parse_sample(struct nlmsghdr *nlh, void *arg)
{
	struct ioca_sample *s = arg;
	struct ioca_sample_head h;
	int err;

	memset(s, 0, sizeof(*s));
	if (genlmsg_hdr(nlh)->cmd != IOCA_CMD_SAMPLE_NTF &&
	    genlmsg_hdr(nlh)->cmd != IOCA_CMD_SAMPLE_GET)
		return -EPROTO;
	err = ioca_decode_sample_head(nlh, &h, &log_stderr);
	if (err)
		return err;
	s->seq = h.seq;
	s->on_demand = h.on_demand;
	s->parts = h.parts;
	return ioca_decode_sample_body(&h, s, &log_stderr);
}

int ioca_sample_get(struct tnl *t, struct ioca_sample *s, struct tnl_reply *r)
{
	return tnl_get_one(t, IOCA_CMD_SAMPLE_GET, ioca_parse_sample, s, r);
}
