/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SUBSCRIBERS_H
#define _IOCA_SUBSCRIBERS_H

#include <linux/types.h>
#include <linux/ioca.h>

struct sk_buff;

/**
 * struct ioca_subscriber - a socket that gets the samples by unicast
 * @portid: its netlink port id; 0: a free slot
 * @pid: the process that subscribed it
 * @samples: periodic samples delivered whole
 * @dropped: periodic samples it missed (part of one or the whole)
 * @missing: the current sample's parts no longer go to it
 */
struct ioca_subscriber {
	u32 portid;
	u32 pid;
	u64 samples;
	u64 dropped;
	bool missing;
};

/**
 * struct ioca_subscribers - every subscribed socket, under the sampler's lock
 * @nr: slots of @sub in use (read without the lock, so written with
 *	WRITE_ONCE)
 * @sub: the slots; a used one never moves (@portid is read without the
 *	lock by the owner notifier)
 */
struct ioca_subscribers {
	unsigned int nr;
	struct ioca_subscriber sub[IOCA_MAX_SUBSCRIBERS];
};

int ioca_subs_add(struct ioca_subscribers *subs, u32 portid, u32 pid,
		  bool owner, const char **why);
const char *ioca_subs_check(unsigned int nr, unsigned int mine, bool owner);
bool ioca_subs_has(const struct ioca_subscribers *subs, u32 portid);
bool ioca_subs_remove(struct ioca_subscribers *subs, u32 portid);
void ioca_subs_begin(struct ioca_subscribers *subs);
int ioca_subs_deliver(struct ioca_subscribers *subs, struct sk_buff *skb,
		      bool last);

#endif /* _IOCA_SUBSCRIBERS_H */
