// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "subscription.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>

#define IOCA_RCVBUF_DEFAULT (4u << 20)
#define IOCA_RECV_BUF_MIN (64u * 1024)

/*
 * SO_RCVBUF is capped at net.core.rmem_max (some 200 KiB by default, two
 * or three samples of 256 CPUs); SO_RCVBUFFORCE is not, and needs
 * CAP_NET_ADMIN (a CAP_PERFMON-only reader gets rmem_max).
 */
static void set_rcvbuf(struct ioca_subscription *sub, size_t rcvbuf)
{
	int fd = nl_socket_get_fd(sub->t.sk);
	int want = rcvbuf > INT_MAX / 2 ? INT_MAX / 2 : (int)rcvbuf;
	int got = 0;
	socklen_t len = sizeof(got);

	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &want, sizeof(want)) &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &want, sizeof(want)))
		pr_warn(&sub->log, "receive buffer of %d bytes: %s", want, strerror(errno));
	if (!getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &got, &len) && got < want)
		pr_info(&sub->log, "receive buffer: %d bytes of the %d asked (net.core.rmem_max)",
			got, want);
}

/* A module without IOCA_CMD_SAMPLES_SUBSCRIBE: its multicast group. */
static int join_group(struct ioca_subscription *sub)
{
	int grp, err;

	grp = genl_ctrl_resolve_grp(sub->t.sk, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES);
	if (grp < 0) {
		pr_warn(&sub->log, "multicast group \"%s\" of \"%s\" not found", IOCA_MCGRP_SAMPLES,
			IOCA_FAMILY_NAME);
		return -ENOENT;
	}
	err = nl_socket_add_membership(sub->t.sk, grp);
	if (err < 0) {
		err = ioca_nl_errno(err);
		pr_warn(&sub->log, "joining \"%s\": %s%s", IOCA_MCGRP_SAMPLES, strerror(-err),
			err == -EPERM ? " (needs CAP_NET_ADMIN and CAP_SYS_ADMIN)" : "");
	}
	return err;
}

/*
 * Registers this socket for unicast samples. Samples may arrive before the
 * ack; the exchange skips them (another sequence number), which costs at
 * most the first sample.
 */
static int subscribe(struct ioca_subscription *sub)
{
	struct nl_msg *msg = ioca_transport_msg(&sub->t, IOCA_CMD_SAMPLES_SUBSCRIBE, 64);
	int err;

	if (!msg)
		return -ENOMEM;
	err = ioca_transport_request(&sub->t, msg, NULL, NULL);
	if (err == -EOPNOTSUPP) {
		pr_info(&sub->log, "the module has no samples-subscribe: joining \"%s\"",
			IOCA_MCGRP_SAMPLES);
		return join_group(sub);
	}
	if (err && !sub->t.extack[0] && err == -EPERM)
		pr_warn(&sub->log, "samples-subscribe: %s (needs %s)", strerror(-err),
			libioca_cmd_caps(IOCA_CMD_SAMPLES_SUBSCRIBE));
	else if (err)
		pr_warn(&sub->log, "samples-subscribe: %s%s%s", strerror(-err),
			sub->t.extack[0] ? ": " : "", sub->t.extack);
	return err;
}

static int join(struct ioca_subscription *sub, size_t rcvbuf)
{
	int grp, err;

	set_rcvbuf(sub, rcvbuf);
	err = subscribe(sub);
	if (err)
		return err;
	/* nlctrl's notifications say when the family is unregistered. */
	grp = genl_ctrl_resolve_grp(sub->t.sk, "nlctrl", "notify");
	if (grp < 0 || nl_socket_add_membership(sub->t.sk, grp) < 0)
		pr_warn(&sub->log, "nlctrl notify group: an unload of ioca.ko will not be noticed");
	err = nl_socket_set_nonblocking(sub->t.sk);
	return err < 0 ? ioca_nl_errno(err) : 0;
}

LIBIOCA_API struct ioca_subscription *
ioca_subscription__open(const struct ioca_subscription_opts *opts)
{
	struct ioca_log log = {
		.fn = IOCA_OPTS_GET(opts, print, NULL),
		.ctx = IOCA_OPTS_GET(opts, print_ctx, NULL),
	};
	size_t rcvbuf = IOCA_OPTS_GET(opts, rcvbuf, 0);
	struct ioca_subscription *sub;
	int err;

	err = IOCA_OPTS_VALID(&log, opts, ioca_subscription_opts);
	if (err)
		return ioca_err_ptr(err);
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return ioca_err_ptr(-ENOMEM);
	sub->log = log;
	sub->buf_size = IOCA_RECV_BUF_MIN;
	sub->buf = malloc(sub->buf_size);
	err = sub->buf ? ioca_asm_init(&sub->a, true, &sub->log) : -ENOMEM;
	if (err)
		goto out_free;
	err = ioca_transport_open(&sub->t, &sub->log);
	if (err)
		goto out_asm;
	err = join(sub, rcvbuf ? rcvbuf : IOCA_RCVBUF_DEFAULT);
	if (err)
		goto out_transport;
	return sub;

out_transport:
	ioca_transport_close(&sub->t);
out_asm:
	ioca_asm_free(&sub->a);
out_free:
	free(sub->buf);
	free(sub);
	return ioca_err_ptr(err);
}

LIBIOCA_API void ioca_subscription__close(struct ioca_subscription *sub)
{
	int saved = errno;

	if (!sub)
		return;
	ioca_transport_close(&sub->t);
	ioca_asm_free(&sub->a);
	free(sub->buf);
	free(sub);
	errno = saved;
}

LIBIOCA_API int ioca_subscription__fd(const struct ioca_subscription *sub)
{
	return nl_socket_get_fd(sub->t.sk);
}

LIBIOCA_API uint32_t ioca_subscription__portid(const struct ioca_subscription *sub)
{
	return nl_socket_get_local_port(sub->t.sk);
}

LIBIOCA_API void ioca_subscription__stats(const struct ioca_subscription *sub,
					  struct ioca_subscription_stats *st)
{
	*st = sub->a.stats;
}

/*
 * Receives one datagram into sub->buf: its length, 0 when nothing is
 * queued, or -errno (-ENOBUFS: the kernel dropped messages). One recvfrom
 * and no MSG_PEEK first: the buffer holds twice the module's largest part,
 * and a longer datagram (MSG_TRUNC reports its real length) is dropped as
 * an overrun -- its sample shows as lost -- after the buffer grows to fit
 * the next one.
 */
static ssize_t recv_one(struct ioca_subscription *sub)
{
	int fd = nl_socket_get_fd(sub->t.sk);
	struct sockaddr_nl from;
	socklen_t fromlen = sizeof(from);
	unsigned char *nb;
	ssize_t n;

	n = recvfrom(fd, sub->buf, sub->buf_size, MSG_DONTWAIT | MSG_TRUNC,
		     (struct sockaddr *)&from, &fromlen);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	/* Only the kernel sends samples to this socket. */
	if (fromlen != sizeof(from) || from.nl_family != AF_NETLINK || from.nl_pid != 0)
		return -EAGAIN;
	if ((size_t)n > sub->buf_size) {
		pr_warn(&sub->log, "a %zd-byte datagram did not fit the %zu-byte buffer: dropped",
			n, sub->buf_size);
		nb = realloc(sub->buf, (size_t)n);
		if (!nb)
			return -ENOMEM;
		sub->buf = nb;
		sub->buf_size = (size_t)n;
		return -ENOBUFS;
	}
	return n;
}

/* Feeds every message of the datagram in sub->buf; 1 when one completed. */
/* Whether @nlh is nlctrl announcing that the ioca family went away. */
static bool family_removed(const struct ioca_subscription *sub, const struct nlmsghdr *nlh)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct genlmsghdr *g;

	if (nlh->nlmsg_type != GENL_ID_CTRL || nlh->nlmsg_len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	g = nlmsg_data(nlh);
	if (g->cmd != CTRL_CMD_DELFAMILY ||
	    nla_parse(tb, CTRL_ATTR_MAX, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), NULL))
		return false;
	return tb[CTRL_ATTR_FAMILY_ID] && nla_len(tb[CTRL_ATTR_FAMILY_ID]) >= 2 &&
	       nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]) == sub->t.family;
}

/*
 * Feeds every message of the datagram in sub->buf: 1 when a sample was
 * completed, 0 when not, -ENODEV when the module was unloaded.
 */
static int feed(struct ioca_subscription *sub, size_t len, struct ioca_sample *s)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)sub->buf;
	int rem = (int)len, got = 0;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (family_removed(sub, nlh)) {
			sub->gone = true;
			pr_warn(&sub->log,
				"the \"%s\" family was unregistered: ioca.ko was unloaded",
				IOCA_FAMILY_NAME);
			return -ENODEV;
		}
		if (nlh->nlmsg_type != sub->t.family)
			continue;
		/* A later part of the same datagram would overwrite @s. */
		if (got) {
			pr_warn(&sub->log, "two samples in one datagram: the second dropped");
			sub->a.stats.malformed++;
			break;
		}
		got = ioca_asm_feed(&sub->a, nlh, s);
	}
	return got;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int wait_readable(int fd, int64_t deadline)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	int64_t left = deadline < 0 ? -1 : deadline - now_ms();
	int ret;

	if (deadline >= 0 && left <= 0)
		return 0;
	ret = poll(&pfd, 1, (int)left);
	if (ret < 0)
		return -errno;
	return ret;
}

LIBIOCA_API int ioca_subscription__recv(struct ioca_subscription *sub, struct ioca_sample *s,
					int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : now_ms() + timeout_ms;
	ssize_t n;
	int ret;

	if (sub->gone)
		return ioca_err(-ENODEV);
	for (;;) {
		n = recv_one(sub);
		if (n == -ENOBUFS) {
			/* Whole messages were dropped: the seq gap says how many. */
			sub->a.stats.overruns++;
			pr_info(&sub->log, "samples socket overrun: samples were lost");
			continue;
		}
		if (n == -EAGAIN)
			continue;
		if (n < 0)
			return ioca_err((int)n);
		if (n > 0) {
			ret = feed(sub, (size_t)n, s);
			if (ret)
				return ioca_err(ret);
			continue;
		}
		ret = wait_readable(ioca_subscription__fd(sub), deadline);
		if (ret <= 0)
			return ioca_err(ret);
	}
}
