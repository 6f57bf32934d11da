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

#include <linux/bits.h>
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

/**
 * ioca_owner_is_process() - does process @pid own the sampler or a DDIO mask?
 * @pid: a tgid
 *
 * Lockless: a subscription racing with an ownership change sees either.
 *
 * Return: whether one of its sockets owns the sampler or a socket's mask.
 */
bool ioca_owner_is_process(u32 pid)
{
	const struct ioca_ddio *d = &ioca_ctx.ddio;
	unsigned int i;

	if (!pid)
		return false;
	if (READ_ONCE(ioca_ctx.sampler.owner_pid) == pid)
		return true;
	for (i = 0; i < IOCA_MAX_SOCKETS; i++)
		if (READ_ONCE(d->sock[i].owner_pid) == pid)
			return true;
	return false;
}

/* What a closing socket holds of ours, each part found without a lock. */
enum ioca_owner_holds {
	IOCA_HOLDS_SUBSCRIPTION = BIT(0),
	IOCA_HOLDS_SAMPLER = BIT(1),
	IOCA_HOLDS_DDIO = BIT(2),
	IOCA_HOLDS_PORT = BIT(3),
};

/*
 * Every netlink socket of the machine passes through the notifier when it
 * closes, so this is a few dozen loads and no lock: the fields are only set
 * to @portid by requests of @portid itself, which completed before its
 * socket could be released, and a used subscriber slot never moves. Only
 * what the socket holds is then undone under its locks; a socket holding
 * nothing (every other program's) takes none.
 */
static unsigned int ioca_owner_holds(u32 portid)
{
	const struct ioca_ddio *d = &ioca_ctx.ddio;
	unsigned int i, h = 0;

	if (ioca_subs_has(&ioca_ctx.sampler.subs, portid))
		h |= IOCA_HOLDS_SUBSCRIPTION;
	if (READ_ONCE(ioca_ctx.sampler.owner_portid) == portid)
		h |= IOCA_HOLDS_SAMPLER;
	for (i = 0; i < IOCA_MAX_SOCKETS; i++)
		if (READ_ONCE(d->sock[i].owner_portid) == portid)
			h |= IOCA_HOLDS_DDIO;
	if (ioca_ddio_dev_may_hold(&ioca_ctx.ports, portid))
		h |= IOCA_HOLDS_PORT;
	return h;
}

static void ioca_owner_release_sampler(struct ioca_sampler *s, u32 portid)
{
	u32 pid;

	mutex_lock(&ioca_ctx.owner_lock);
	if (s->owner_portid == portid) {
		pid = s->owner_pid;
		s->owner_portid = 0;
		s->owner_pid = 0;
		ioca_sampler_unconfigure(s);
		pr_info("sampler owner pid %u closed its socket: sampler stopped and unconfigured\n",
			pid);
	}
	mutex_unlock(&ioca_ctx.owner_lock);
}

static int ioca_owner_notify(struct notifier_block *nb, unsigned long event,
			     void *ptr)
{
	struct netlink_notify *n = ptr;
	unsigned int h;

	if (event != NETLINK_URELEASE || n->protocol != NETLINK_GENERIC ||
	    !net_eq(n->net, &init_net) || !n->portid)
		return NOTIFY_DONE;
	h = ioca_owner_holds(n->portid);
	if (!h)
		return NOTIFY_DONE;
	if (h & IOCA_HOLDS_SUBSCRIPTION)
		ioca_collect_unsubscribe(&ioca_ctx.sampler, n->portid);
	if (h & IOCA_HOLDS_SAMPLER)
		ioca_owner_release_sampler(&ioca_ctx.sampler, n->portid);
	if (h & IOCA_HOLDS_DDIO)
		ioca_ddio_release_owner(&ioca_ctx.ddio, n->portid);
	if (h & IOCA_HOLDS_PORT)
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
