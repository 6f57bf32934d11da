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
 *
 * The table has IOCA_MAX_SUBSCRIBERS slots. Its last is kept for the
 * process that owns the sampler or a DDIO mask (the daemon steering the
 * cache), and no other process holds more than
 * IOCA_MAX_SUBSCRIBERS_PER_PROCESS, so that readers of the samples cannot
 * crowd out the one stream the machine depends on. A slot never moves
 * while in use: the owner notifier finds a closing socket's slot without
 * the lock (ioca_subs_has()).
 */
#include <linux/skbuff.h>
#include <linux/stringify.h>
#include <net/genetlink.h>
#include "compat.h"
#include "subscribers.h"

static const char ioca_subs_full_msg[] = "subscriber table full: IOCA_MAX_SUBSCRIBERS ("
	__stringify(IOCA_MAX_SUBSCRIBERS) ") sockets subscribed";
static const char ioca_subs_reserved_msg[] =
	"subscriber table full: its last slot is kept for the sampler or DDIO owner's process";
static const char ioca_subs_process_msg[] = "this process holds IOCA_MAX_SUBSCRIBERS_PER_PROCESS ("
	__stringify(IOCA_MAX_SUBSCRIBERS_PER_PROCESS) ") subscriptions already";

/**
 * ioca_subs_add() - subscribe a socket (again: no change)
 * @subs: subscribers
 * @portid: the socket
 * @pid: its process
 * @owner: @pid owns the sampler or a DDIO mask: it may take the kept slot
 *	and is not held to the per-process limit
 * @why: set to the extack text on refusal
 *
 * Return: 0 or -ENOSPC (table full for @pid, or @pid at its limit).
 */
int ioca_subs_add(struct ioca_subscribers *subs, u32 portid, u32 pid,
		  bool owner, const char **why)
{
	struct ioca_subscriber *sub, *free = NULL;
	unsigned int i, mine = 0;

	for (i = 0; i < IOCA_MAX_SUBSCRIBERS; i++) {
		sub = &subs->sub[i];
		if (!sub->portid) {
			free = free ?: sub;
			continue;
		}
		if (sub->portid == portid)
			return 0;
		mine += sub->pid == pid;
	}
	*why = ioca_subs_check(subs->nr, mine, owner);
	if (*why || !free)
		return -ENOSPC;
	memset(free, 0, sizeof(*free));
	free->pid = pid;
	/* Joins at the next sample, never in the middle of one. */
	free->missing = true;
	/* Last: ioca_subs_has() reads it without the lock. */
	WRITE_ONCE(free->portid, portid);
	WRITE_ONCE(subs->nr, subs->nr + 1);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_subs_add);

/**
 * ioca_subs_check() - may a process take one more slot?
 * @nr: slots in use
 * @mine: slots the process holds
 * @owner: the process owns the sampler or a DDIO mask
 *
 * Return: NULL, or the extack text of the refusal.
 */
const char *ioca_subs_check(unsigned int nr, unsigned int mine, bool owner)
{
	if (nr >= IOCA_MAX_SUBSCRIBERS)
		return ioca_subs_full_msg;
	if (owner)
		return NULL;
	if (nr >= IOCA_MAX_SUBSCRIBERS - 1)
		return ioca_subs_reserved_msg;
	if (mine >= IOCA_MAX_SUBSCRIBERS_PER_PROCESS)
		return ioca_subs_process_msg;
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_subs_check);

/**
 * ioca_subs_has() - is @portid subscribed? Without the lock
 * @subs: subscribers
 * @portid: a closing socket: no request of it can change its slot now
 *
 * Return: whether a slot holds @portid.
 */
bool ioca_subs_has(const struct ioca_subscribers *subs, u32 portid)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_SUBSCRIBERS; i++)
		if (READ_ONCE(subs->sub[i].portid) == portid)
			return true;
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_subs_has);

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

	for (i = 0; portid && i < IOCA_MAX_SUBSCRIBERS; i++) {
		if (subs->sub[i].portid != portid)
			continue;
		WRITE_ONCE(subs->sub[i].portid, 0);
		WRITE_ONCE(subs->nr, subs->nr - 1);
		return true;
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_subs_remove);

/**
 * ioca_subs_begin() - a new periodic sample: every subscriber gets it
 * @subs: subscribers
 */
void ioca_subs_begin(struct ioca_subscribers *subs)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_SUBSCRIBERS; i++)
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
	unsigned int i;
	int missed = 0;

	for (i = 0; i < IOCA_MAX_SUBSCRIBERS; i++) {
		struct ioca_subscriber *sub = &subs->sub[i];
		struct sk_buff *c;
		int err = -ENOMEM;

		if (!sub->portid || sub->missing)
			continue;
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
	}
	return missed;
}
