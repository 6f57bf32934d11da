// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libnl 3.7 has no extack helper: the error callback parses the TLVs after
 * the nlmsgerr itself. The reply is received with our own loop over
 * nl_recvmsgs so that a failing data callback does not cut the exchange
 * short and leave the ack in the socket for the next request.
 */
#include "transport.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>
#include <linux/ioca.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* Receive buffer of a request's replies: the module's fit twice over. */
#define IOCA_REPLY_BUF (64u * 1024)

int ioca_nl_errno(int nle)
{
	switch (nle < 0 ? -nle : nle) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ENOENT;
	case NLE_AGAIN:
		return -EAGAIN;
	case NLE_INTR:
		return -EINTR;
	case NLE_MSG_TRUNC:
	case NLE_MSG_OVERFLOW:
		return -EMSGSIZE;
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_INVAL:
	case NLE_RANGE:
	case NLE_ATTRSIZE:
		return -EINVAL;
	case NLE_BAD_SOCK:
		return -EBADF;
	case NLE_BUSY:
		return -EBUSY;
	default:
		return -EIO;
	}
}

void ioca_parse_extack(const struct nlmsghdr *nlh, char *msg, size_t msg_len, int *offs)
{
	const struct nlmsgerr *e = nlmsg_data(nlh);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t off = sizeof(*e);
	int len;

	msg[0] = '\0';
	*offs = -1;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || nlh->nlmsg_len < NLMSG_HDRLEN + sizeof(*e))
		return;
	/* Without NLM_F_CAPPED the request's payload is echoed first. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += NLMSG_ALIGN(e->msg.nlmsg_len - NLMSG_HDRLEN);
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)off;
	if (len <= 0)
		return;
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, (struct nlattr *)((const char *)e + off), len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0)
		snprintf(msg, msg_len, "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
			 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	/* The text may or may not carry its NUL: cut at the first one. */
	msg[strnlen(msg, msg_len)] = '\0';
	if (tb[NLMSGERR_ATTR_OFFS] && nla_len(tb[NLMSGERR_ATTR_OFFS]) >= 4)
		*offs = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

static int setopt(struct nl_sock *sk, int opt)
{
	int one = 1;

	if (setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, opt, &one, sizeof(one)))
		return -errno;
	return 0;
}

int ioca_transport_socket(struct nl_sock **out, const char **what)
{
	struct nl_sock *sk = nl_socket_alloc();
	int err;

	*what = "generic netlink socket";
	if (!sk)
		return -ENOMEM;
	err = genl_connect(sk);
	if (err) {
		err = ioca_nl_errno(err);
		goto out_free;
	}
	*what = "NETLINK_EXT_ACK/NETLINK_CAP_ACK";
	err = setopt(sk, NETLINK_EXT_ACK);
	if (!err)
		err = setopt(sk, NETLINK_CAP_ACK);
	if (err)
		goto out_free;
	*out = sk;
	return 0;

out_free:
	nl_socket_free(sk);
	return err;
}

int ioca_transport_open(struct ioca_transport *t, const struct ioca_log *log)
{
	const char *what;
	int err;

	memset(t, 0, sizeof(*t));
	t->log = log;
	t->extack_offs = -1;
	err = ioca_transport_socket(&t->sk, &what);
	if (err) {
		pr_warn(log, "%s: %s", what, strerror(-err));
		return err;
	}
	/*
	 * Replies of 256 CPUs exceed libnl's default buffer. One buffer that
	 * holds the largest reply the module sends (under 32 KiB) saves the
	 * MSG_PEEK read libnl would make before every message; a longer one
	 * still fails (NLE_MSG_TRUNC), it is never cut short silently.
	 */
	nl_socket_disable_msg_peek(t->sk);
	err = nl_socket_set_msg_buf_size(t->sk, IOCA_REPLY_BUF);
	if (err) {
		err = ioca_nl_errno(err);
		goto out_free;
	}
	t->family = genl_ctrl_resolve(t->sk, IOCA_FAMILY_NAME);
	if (t->family < 0) {
		err = -ENOENT;
		pr_warn(log,
			"generic netlink family \"%s\" not found: ioca.ko is not loaded "
			"(modprobe ioca, or insmod kmod/ioca.ko)",
			IOCA_FAMILY_NAME);
		goto out_free;
	}
	return 0;

out_free:
	nl_socket_free(t->sk);
	t->sk = NULL;
	return err;
}

void ioca_transport_close(struct ioca_transport *t)
{
	if (t->sk)
		nl_socket_free(t->sk);
	t->sk = NULL;
}

struct nl_msg *ioca_transport_msg(const struct ioca_transport *t, uint8_t cmd, size_t size)
{
	struct nl_msg *msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, 0, cmd,
			 IOCA_FAMILY_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct exchange {
	struct ioca_transport *t;
	ioca_msg_fn fn;
	void *arg;
	int err;    /* kernel's answer */
	int fn_err; /* first error of fn */
	int done;
	uint32_t seq; /* the request's: answers carry it */
	bool one;     /* the first data message ends the exchange (no ack asked) */
};

static int on_seq(struct nl_msg *msg, void *arg)
{
	const struct exchange *x = arg;

	return nlmsg_hdr(msg)->nlmsg_seq == x->seq ? NL_OK : NL_SKIP;
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct exchange *x = arg;
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);

	(void)nla;
	x->err = e->error;
	x->done = 1;
	ioca_parse_extack(nlh, x->t->extack, sizeof(x->t->extack), &x->t->extack_offs);
	return NL_STOP;
}

static int on_done(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;

	(void)msg;
	x->done = 1;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct exchange *x = arg;
	int err;

	if (x->fn) {
		err = x->fn(nlmsg_hdr(msg), x->arg);
		if (err && !x->fn_err)
			x->fn_err = err;
	}
	if (x->one) {
		x->done = 1;
		return NL_STOP;
	}
	return NL_OK;
}

static int exchange(struct ioca_transport *t, struct nl_msg *msg, ioca_msg_fn fn, void *arg,
		    bool one)
{
	struct exchange x = {.t = t, .fn = fn, .arg = arg, .one = one};
	struct nl_cb *cb;
	int err;

	t->extack[0] = '\0';
	t->extack_offs = -1;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_done, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_done, &x);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &x);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, on_seq, &x);

	nl_complete_msg(t->sk, msg);
	if (one)
		nlmsg_hdr(msg)->nlmsg_flags &= ~NLM_F_ACK;
	x.seq = nlmsg_hdr(msg)->nlmsg_seq;
	err = nl_send(t->sk, msg);
	nlmsg_free(msg);
	if (err < 0) {
		err = ioca_nl_errno(err);
		pr_warn(t->log, "sending a request: %s", strerror(-err));
		goto out_cb;
	}
	while (!x.done) {
		int ret = nl_recvmsgs(t->sk, cb);

		/* The error callback's NL_STOP also surfaces as ret < 0. */
		if (ret < 0 && !x.done) {
			err = ioca_nl_errno(ret);
			pr_warn(t->log, "receiving a reply: %s", nl_geterror(ret));
			goto out_cb;
		}
	}
	err = x.err ? x.err : x.fn_err;
out_cb:
	nl_cb_put(cb);
	return err;
}

int ioca_transport_request(struct ioca_transport *t, struct nl_msg *msg, ioca_msg_fn fn, void *arg)
{
	return exchange(t, msg, fn, arg, false);
}

int ioca_transport_get(struct ioca_transport *t, struct nl_msg *msg, ioca_msg_fn fn, void *arg)
{
	return exchange(t, msg, fn, arg, true);
}
