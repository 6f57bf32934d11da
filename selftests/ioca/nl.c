// SPDX-License-Identifier: GPL-2.0
/*
 * libnl 3.7 has no extack helper, so the error callback steps back from the
 * nlmsgerr to its nlmsghdr and hands it to libioca's extack parser, the one
 * the product reads the kernel's reasons with.
 */
#include "nl.h"
#include "transport.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/msg.h>

/*
 * libioca says a failed send or receive through its log, and only then:
 * the exchange marks it (*ctx) and prints it, so tnl_do() can tell a local
 * failure (-EIO, never an answer of the kernel's) from the kernel's errno.
 */
static void on_local_failure(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	*(bool *)ctx = true;
	fprintf(stderr, "tnl: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tnl_parse_extack(const struct nlmsgerr *e, struct tnl_reply *r)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);

	ioca_parse_extack(nlh, r->msg, sizeof(r->msg), &r->offs);
}

/* Counts the reply's data messages and keeps @parse's first error apart. */
static int on_data(const struct nlmsghdr *nlh, void *arg)
{
	struct tnl_reply *r = arg;
	int err;

	r->nmsgs++;
	if (r->parse) {
		/* libnl's parsers take a non-const header; nothing here writes it */
		err = r->parse((struct nlmsghdr *)nlh, r->arg);
		if (err && !r->parse_err)
			r->parse_err = err;
	}
	return 0;
}

int tnl_open(struct tnl *t, const char *family)
{
	const char *what;
	int err;

	t->family = -1;
	t->nle = 0;
	t->sk = NULL;
	/* libioca's socket: the product's extended-ack setup, tested as it is. */
	err = ioca_transport_socket(&t->sk, &what);
	if (err)
		return err;
	nl_socket_enable_msg_peek(t->sk);
	if (!family)
		return 0;
	t->family = genl_ctrl_resolve(t->sk, family);
	if (t->family < 0) {
		nl_socket_free(t->sk);
		t->sk = NULL;
		return -ENOENT;
	}
	return 0;
}

void tnl_close(struct tnl *t)
{
	if (t->sk)
		nl_socket_free(t->sk);
	t->sk = NULL;
}

struct nl_msg *tnl_msg(const struct tnl *t, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, t->family, 0, flags, cmd, 1)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

int tnl_do(struct tnl *t, struct nl_msg *msg, struct tnl_reply *r)
{
	bool local = false;
	const struct ioca_log log = {.fn = on_local_failure, .ctx = &local};
	/* libioca's exchange, on the test's own socket: the product's. */
	struct ioca_transport x = {.sk = t->sk, .family = t->family, .log = &log};

	r->nmsgs = 0;
	r->parse_err = 0;
	r->err = ioca_transport_request(&x, msg, on_data, r);
	r->local_err = local ? r->err : 0;
	if (local)
		r->err = -EIO;
	snprintf(r->msg, sizeof(r->msg), "%s", x.extack);
	r->offs = x.extack_offs;
	return r->err;
}

int tnl_get_one(struct tnl *t, uint8_t cmd, tnl_parse_fn parse, void *arg, struct tnl_reply *r)
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

int tnl_join(struct tnl *t, const char *family, const char *grp)
{
	int id = genl_ctrl_resolve_grp(t->sk, family, grp);
	int err;

	if (id < 0)
		return -ENOENT;
	nl_socket_set_buffer_size(t->sk, 4 << 20, 0);
	err = nl_socket_add_membership(t->sk, id);
	if (err < 0)
		/* libnl maps EPERM from setsockopt to NLE_PERM; keep the errno. */
		return err == -NLE_PERM ? -EPERM : -EIO;
	return 0;
}

struct recv_one {
	tnl_parse_fn parse;
	void *arg;
	int got;
	int err;
};

static int on_mcast(struct nl_msg *msg, void *arg)
{
	struct recv_one *ro = arg;

	ro->got = 1;
	if (ro->parse)
		ro->err = ro->parse(nlmsg_hdr(msg), ro->arg);
	return NL_STOP;
}

/* Multicast messages carry no request's sequence number. */
static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int tnl_recv_one(struct tnl *t, int timeout_ms, tnl_parse_fn parse, void *arg)
{
	struct recv_one ro = {.parse = parse, .arg = arg};
	struct pollfd pfd = {.fd = nl_socket_get_fd(t->sk), .events = POLLIN};
	struct nl_cb *cb;
	int ret;

	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return 0;
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_mcast, &ro);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	ret = nl_recvmsgs(t->sk, cb);
	nl_cb_put(cb);
	if (ret < 0)
		t->nle = ret;
	if (ret < 0 && !ro.got)
		return ret == -NLE_NOMEM ? -ENOBUFS : -EIO;
	if (ro.err)
		return ro.err;
	return ro.got;
}

int tnl_drain(struct tnl *t)
{
	int n = 0;

	while (tnl_recv_one(t, 0, NULL, NULL) > 0)
		n++;
	return n;
}
