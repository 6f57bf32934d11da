// SPDX-License-Identifier: GPL-2.0
/*
 * Ownership of the control state by a netlink socket, as nl80211 does with
 * its socket owner: a daemon that sets the DDIO masks or the sampler with
 * the owner flag gets them undone by the module when its socket closes, so
 * a kill -9 or an OOM kill does not leave the platform in its last state.
 *
 * The closing is seen through the netlink notifier (NETLINK_URELEASE), which
 * runs in process context when the socket's last reference goes.
 * ioca_ctx.owner_lock serialises the owner check with the sampler op it
 * guards; it is taken before the sampler's own locks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netlink.h>
#include <linux/notifier.h>
#include <linux/sched.h>
#include <net/net_namespace.h>
#include "compat.h"
#include "collect.h"
#include "extack.h"
#include "main.h"
#include "owner.h"

/**
 * ioca_owner_check_sampler() - may @portid change the sampler?
 * @s: sampler
 * @portid: the requesting netlink socket
 * @extack: gets "sampler is owned by pid N" on refusal
 *
 * The caller holds ioca_ctx.owner_lock.
 *
 * Return: 0 or -EBUSY.
 */
int ioca_owner_check_sampler(struct ioca_sampler *s, u32 portid,
			     struct netlink_ext_ack *extack)
{
	lockdep_assert_held(&ioca_ctx.owner_lock);
	if (!s->owner_portid || s->owner_portid == portid)
		return 0;
	ioca_nl_set_err(extack, NULL, s->busy_msg);
	return -EBUSY;
}

/**
 * ioca_owner_set_sampler() - after a successful sampler-set
 * @s: sampler
 * @portid: the requesting netlink socket
 * @own: the request carried IOCA_A_SAMPLER_OWNER
 *
 * The caller holds ioca_ctx.owner_lock. A set without the flag leaves the
 * sampler unowned.
 */
void ioca_owner_set_sampler(struct ioca_sampler *s, u32 portid, bool own)
{
	lockdep_assert_held(&ioca_ctx.owner_lock);
	if (!own) {
		s->owner_portid = 0;
		s->owner_pid = 0;
		return;
	}
	s->owner_portid = portid;
	s->owner_pid = task_tgid_nr(current);
	/* Formatted now: extack keeps a pointer, not a copy, until the ack. */
	snprintf(s->busy_msg, sizeof(s->busy_msg),
		 "sampler is owned by pid %u", s->owner_pid);
}

/*
 * Whether @portid may hold anything of ours: the sampler, a DDIO socket or
 * a subscription. Every netlink socket of the machine passes through the
 * notifier when it closes, so this is a handful of loads, no lock: the
 * fields are only set by requests of @portid itself, which completed
 * before its socket could be released.
 */
static bool ioca_owner_may_hold(u32 portid)
{
	const struct ioca_ddio *d = &ioca_ctx.ddio;
	unsigned int i;

	if (READ_ONCE(ioca_ctx.sampler.owner_portid) == portid ||
	    READ_ONCE(ioca_ctx.sampler.subs.nr))
		return true;
	for (i = 0; i < IOCA_MAX_SOCKETS; i++)
		if (READ_ONCE(d->sock[i].owner_portid) == portid)
			return true;
	return ioca_ddio_dev_may_hold(&ioca_ctx.ports, portid);
}

static int ioca_owner_notify(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct ioca_sampler *s = &ioca_ctx.sampler;
	struct netlink_notify *n = ptr;
	u32 pid;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net) || !n->portid ||
	    !ioca_owner_may_hold(n->portid))
		return NOTIFY_DONE;
	ioca_collect_unsubscribe(s, n->portid);
	mutex_lock(&ioca_ctx.owner_lock);
	if (s->owner_portid == n->portid) {
		pid = s->owner_pid;
		s->owner_portid = 0;
		s->owner_pid = 0;
		ioca_sampler_unconfigure(s);
		pr_info("sampler owner pid %u closed its socket: sampler stopped and unconfigured\n",
			pid);
	}
	mutex_unlock(&ioca_ctx.owner_lock);
	ioca_ddio_release_owner(&ioca_ctx.ddio, n->portid);
	ioca_ddio_dev_release_owner(&ioca_ctx.ports, n->portid);
	return NOTIFY_OK;
}

static struct notifier_block ioca_owner_nb = {
	.notifier_call = ioca_owner_notify,
};

/**
 * ioca_owner_register() - start watching netlink sockets close
 *
 * Return: 0 or -errno.
 */
int ioca_owner_register(void)
{
	return netlink_register_notifier(&ioca_owner_nb);
}

/**
 * ioca_owner_unregister() - stop watching; waits for a running callback
 */
void ioca_owner_unregister(void)
{
	netlink_unregister_notifier(&ioca_owner_nb);
}
