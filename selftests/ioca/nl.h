/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small libnl-genl-3 client for the ioca family, shared by the selftests
 * and the sampler benchmark: one request socket with NETLINK_EXT_ACK on, so
 * every test can assert the errno AND the kernel's extack message, and a
 * sample socket joined to the "samples" group.
 */
#ifndef IOCA_SELFTEST_NL_H
#define IOCA_SELFTEST_NL_H

#include <stdint.h>
#include <netlink/genl/genl.h>

/* Called for every data message of a reply; returns 0 or -errno. */
typedef int (*tnl_parse_fn)(struct nlmsghdr *nlh, void *arg);

struct tnl {
	struct nl_sock *sk;
	int family; /* genl family id, resolved once */
	int nle;    /* last libnl error code seen (for diagnostics), 0 if none */
};

/* What the kernel answered to one request. */
struct tnl_reply {
	int err;       /* 0 or -errno from the ack / error message; -EIO: local */
	int local_err; /* the local failure's -errno (a receive overrun: -ENOMEM) */
	char msg[256]; /* extack NLMSGERR_ATTR_MSG, "" when absent */
	int offs;      /* extack NLMSGERR_ATTR_OFFS, -1 when absent */
	int nmsgs;     /* data messages handed to parse */
	int parse_err; /* first non-zero return of parse */
	tnl_parse_fn parse;
	void *arg;
};

/* Opens a socket with extended acks on; resolves @family when non-NULL. */
int tnl_open(struct tnl *t, const char *family);
void tnl_close(struct tnl *t);

/* A request header for @cmd of the resolved family (NULL on ENOMEM). */
struct nl_msg *tnl_msg(const struct tnl *t, uint8_t cmd, int flags);

/*
 * Sends @msg (always freed) through libioca's exchange, then receives until
 * the ack, the error or the end of a dump. Returns r->err: the kernel's
 * answer, or -EIO when the exchange itself failed (send/recv: never one of
 * the kernel's answers), so callers see one number either way; @parse's
 * errors stay in r->parse_err.
 */
int tnl_do(struct tnl *t, struct nl_msg *msg, struct tnl_reply *r);

/*
 * An attribute-less @cmd whose answer must be exactly one message, handed
 * to @parse with @arg: tnl_do()'s result, -EBADMSG for another count, or
 * what @parse returned.
 */
int tnl_get_one(struct tnl *t, uint8_t cmd, tnl_parse_fn parse, void *arg, struct tnl_reply *r);

/*
 * Fills r->msg and r->offs from the extended-ack TLVs after @e, which must
 * sit right after its nlmsghdr (as in a received NLMSG_ERROR).
 */
void tnl_parse_extack(const struct nlmsgerr *e, struct tnl_reply *r);

/* Joins multicast group @grp of @family on t (a dedicated socket). */
int tnl_join(struct tnl *t, const char *family, const char *grp);

/*
 * Waits up to @timeout_ms for one multicast message and hands it to @parse.
 * Returns 1 when a message was parsed, 0 on timeout, -errno on failure.
 */
int tnl_recv_one(struct tnl *t, int timeout_ms, tnl_parse_fn parse, void *arg);

/* Drops every queued message; returns how many there were. */
int tnl_drain(struct tnl *t);

#endif
