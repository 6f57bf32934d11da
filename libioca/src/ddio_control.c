// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ioca_ddio_control__why_not(): the module's per-socket DDIO flags turned
 * into the one sentence a daemon logs when it runs without DDIO control.
 */
#include <errno.h>
#include <stddef.h>
#include <netlink/genl/genl.h>

#include "ddio_control.h"
#include "attrs.h"

static const struct nla_policy written_pol[IOCA_A_SOCKET_MAX + 1] = {
	[IOCA_A_SOCKET_ID] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_MASK] = IOCA_POL_U32,
	[IOCA_A_SOCKET_DDIO_EPOCH] = IOCA_POL_U32,
};

static int decode_written(struct nlattr *nest, const struct ioca_ddio_req *reqs, size_t n,
			  uint32_t *epochs, const struct ioca_log *log)
{
	struct nlattr *tb[IOCA_A_SOCKET_MAX + 1];
	uint32_t id;
	size_t i;
	int err;

	err = ioca_nest_parse(tb, IOCA_A_SOCKET_MAX, nest, written_pol, log,
			      "ddio set reply: written nest");
	if (err)
		return err;
	if (!tb[IOCA_A_SOCKET_ID] || !tb[IOCA_A_SOCKET_DDIO_EPOCH]) {
		pr_warn(log,
			"ddio set reply: written nest without IOCA_A_SOCKET_ID or _DDIO_EPOCH");
		return -EBADMSG;
	}
	id = ioca_u32(tb[IOCA_A_SOCKET_ID]);
	for (i = 0; i < n; i++) {
		if (reqs[i].socket == id) {
			epochs[i] = ioca_u32(tb[IOCA_A_SOCKET_DDIO_EPOCH]);
			return 0;
		}
	}
	pr_warn(log, "ddio set reply: socket %u was not in the request", id);
	return -EBADMSG;
}

int ioca_decode_ddio_written(const struct nlmsghdr *nlh, const struct ioca_ddio_req *reqs, size_t n,
			     uint32_t *epochs, const struct ioca_log *log)
{
	struct genlmsghdr *g;
	struct nlattr *a;
	int rem, err;

	if (nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN) {
		pr_warn(log, "ddio set reply: %u bytes, shorter than its headers", nlh->nlmsg_len);
		return -EBADMSG;
	}
	g = nlmsg_data(nlh);
	ioca_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem)
	{
		if (ioca_nla_type(a) != IOCA_A_DDIO_WRITTEN)
			continue;
		err = decode_written(a, reqs, n, epochs, log);
		if (err)
			return err;
	}
	return 0;
}

LIBIOCA_API const char *ioca_ddio_control__why_not(const struct ioca_ddio_control *dc)
{
	if (!dc || !dc->reported)
		return NULL;
	if (!dc->available)
		return "the module cannot reach the socket's DDIO register (no CPU of the "
		       "socket online since load, or the field is unknown)";
	if (!dc->writable)
		return "DDIO writes do not stick: the last write to IIO_LLC_WAYS read back "
		       "otherwise (a locked register), or kernel lockdown refuses them";
	return NULL;
}
