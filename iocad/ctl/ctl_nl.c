// SPDX-License-Identifier: GPL-2.0
/*
 * iocactl's requests. The attributes come from the selftests' client
 * (ioca_client.c), so the tool and the ABI tests build them one way.
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

int ctl_nl_sampler_set(struct tnl *t, const struct ctl_sampler_cfg *cfg, struct tnl_reply *r)
{
	/* The ABI's maxima (256 CPUs, 128 uncore events) outgrow a page. */
	struct nl_msg *msg = nlmsg_alloc_size(65536);

	if (!msg)
		return -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, 0, IOCA_CMD_SAMPLER_SET,
			 IOCA_FAMILY_VERSION) ||
	    ioca_put_sampler(msg, cfg->interval_us, cfg->cpus, (int)cfg->ncpus, cfg->ev,
			     (int)cfg->nevents, cfg->unc, (int)cfg->nuncore)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return send_req(t, msg, NULL, NULL, r);
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
