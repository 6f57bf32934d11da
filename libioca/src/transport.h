/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The netlink exchange: one libnl socket with NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK on, the family resolved once, and a request that collects
 * every data message of the reply, the error and the kernel's extack text.
 */
#ifndef LIBIOCA_TRANSPORT_H
#define LIBIOCA_TRANSPORT_H

#include <stdint.h>
#include <netlink/genl/genl.h>
#include "log.h"

#define IOCA_EXTACK_LEN 256

/* Called for every data message of a reply; returns 0 or -errno. */
typedef int (*ioca_msg_fn)(const struct nlmsghdr *nlh, void *arg);

struct ioca_transport {
	struct nl_sock *sk;
	int family; /* generic netlink family id of "ioca" */
	const struct ioca_log *log;
	char extack[IOCA_EXTACK_LEN]; /* last request's NLMSGERR_ATTR_MSG */
	int extack_offs;	      /* NLMSGERR_ATTR_OFFS, -1 when absent */
};

/*
 * Connects, turns extended acks on and resolves the family. -ENOENT when the
 * family is not registered; the reason also goes to @log.
 */
int ioca_transport_open(struct ioca_transport *t, const struct ioca_log *log);

/*
 * A connected generic netlink socket with NETLINK_EXT_ACK and
 * NETLINK_CAP_ACK on, into *@out: 0, or -errno with *@what naming the step
 * that failed. The module's selftests open theirs with it too.
 */
int ioca_transport_socket(struct nl_sock **out, const char **what);
void ioca_transport_close(struct ioca_transport *t);

/* A request header for @cmd in a buffer of @size bytes (NULL on ENOMEM). */
struct nl_msg *ioca_transport_msg(const struct ioca_transport *t, uint8_t cmd, size_t size);

/*
 * Sends @msg (always freed) and receives until the ack or error, handing
 * each data message to @fn(@arg) when non-NULL. Returns the kernel's -errno,
 * the first error of @fn, or a -errno of the exchange itself.
 */
int ioca_transport_request(struct ioca_transport *t, struct nl_msg *msg, ioca_msg_fn fn, void *arg);

/*
 * As ioca_transport_request() for a command whose answer is exactly one
 * data message (a GET): sent without NLM_F_ACK, so the exchange ends at
 * that message or the kernel's error, and the ack's skb and receive are
 * saved. Every exchange checks sequence numbers itself (a message of an
 * earlier exchange is skipped), since libnl's own check counts acks.
 */
int ioca_transport_get(struct ioca_transport *t, struct nl_msg *msg, ioca_msg_fn fn, void *arg);

/*
 * Copies the extack text and offset of the received NLMSG_ERROR @nlh to
 * @msg ("" when absent) and @offs (-1 when absent).
 */
void ioca_parse_extack(const struct nlmsghdr *nlh, char *msg, size_t msg_len, int *offs);

/* libnl's NLE_* code as a -errno. */
int ioca_nl_errno(int nle);

#endif
