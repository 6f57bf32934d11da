// SPDX-License-Identifier: GPL-2.0
/*
 * Sample delivery to subscribed sockets, one unicast per socket.
 *
 * Multicast cannot give the guarantees the samples need: 6.1's genetlink
 * checks a group's permission only through CAP_NET_ADMIN/CAP_SYS_ADMIN
 * flags (no CAP_PERFMON, no per-family bind hook), and it knows nothing of
 * which reader missed what. A socket registered by IOCA_CMD_SAMPLES_SUBSCRIBE
 * (checked for CAP_PERFMON, as perf's system-wide counters) instead gets
 * each message as a clone of the one skb built per part, sent without
 * waiting (MSG_DONTWAIT). When its receive buffer is full the send fails
 * for that socket alone: netlink marks it overrun (ENOBUFS on its next
 * read), the rest of that sample is not sent to it (a partial sample is of
 * no use) and the sample counts in its @dropped; every other subscriber
 * gets the whole sample and the collector never waits. The reader sees the
 * gap when it resumes: the ENOBUFS and the jump in SEQ.
 */
#include <linux/skbuff.h>
#include <net/genetlink.h>
#include "subscribers.h"

/**
 * ioca_subs_add() - subscribe a socket (again: no change)
 * @subs: subscribers
 * @portid: the socket
 * @pid: its process, for info
 *
 * Return: 0 or -ENOSPC when IOCA_MAX_SUBSCRIBERS sockets are subscribed.
 */
int ioca_subs_add(struct ioca_subscribers *subs, u32 portid, u32 pid)
{
	struct ioca_subscriber *sub;
	unsigned int i;

	for (i = 0; i < subs->nr; i++)
		if (subs->sub[i].portid == portid)
			return 0;
	if (subs->nr >= IOCA_MAX_SUBSCRIBERS)
		return -ENOSPC;
	sub = &subs->sub[subs->nr];
	memset(sub, 0, sizeof(*sub));
	sub->portid = portid;
	sub->pid = pid;
	/* Joins at the next sample, never in the middle of one. */
	sub->missing = true;
	WRITE_ONCE(subs->nr, subs->nr + 1);
	return 0;
}

/**
 * ioca_subs_remove() - unsubscribe a socket
 * @subs: subscribers
 * @portid: the socket
 *
 * Return: whether it was subscribed.
 */
bool ioca_subs_remove(struct ioca_subscribers *subs, u32 portid)
{
	unsigned int i;

	for (i = 0; i < subs->nr; i++) {
		if (subs->sub[i].portid != portid)
			continue;
		subs->sub[i] = subs->sub[subs->nr - 1];
		WRITE_ONCE(subs->nr, subs->nr - 1);
		return true;
	}
	return false;
}

/**
 * ioca_subs_begin() - a new periodic sample: every subscriber gets it
 * @subs: subscribers
 */
void ioca_subs_begin(struct ioca_subscribers *subs)
{
	unsigned int i;

	for (i = 0; i < subs->nr; i++)
		subs->sub[i].missing = false;
}

/**
 * ioca_subs_deliver() - send one part of the sample to every subscriber
 * @subs: subscribers
 * @skb: the part, not consumed (each subscriber gets a clone)
 * @last: the sample's last part: count it delivered where it was whole
 *
 * A socket that no longer exists is unsubscribed.
 *
 * Return: subscribers that missed this part (full receive buffer, or no
 * memory for the clone).
 */
int ioca_subs_deliver(struct ioca_subscribers *subs, struct sk_buff *skb,
		      bool last)
{
	unsigned int i = 0;
	int missed = 0;

	while (i < subs->nr) {
		struct ioca_subscriber *sub = &subs->sub[i];
		struct sk_buff *c;
		int err = -ENOMEM;

		if (sub->missing) {
			i++;
			continue;
		}
		c = skb_clone(skb, GFP_KERNEL);
		if (c)
			err = genlmsg_unicast(&init_net, c, sub->portid);
		if (err == -ECONNREFUSED) {
			/* Closed: the notifier may not have run yet. */
			ioca_subs_remove(subs, sub->portid);
			continue;
		}
		if (err) {
			sub->missing = true;
			sub->dropped++;
			missed++;
		} else if (last) {
			sub->samples++;
		}
		i++;
	}
	return missed;
}
