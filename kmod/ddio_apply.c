// SPDX-License-Identifier: GPL-2.0
/*
 * Changing DDIO masks: the all-or-nothing set, ownership by a netlink
 * socket, the restore of the boot values, and CPU hotplug. Validation and
 * the backends are in ddio.c.
 *
 * Every write is read back: a register that does not hold the DDIO field
 * written (locked by firmware, or a field that is not what the model table
 * says) fails the write with -EIO, and the socket is reported not writable
 * until a write sticks again.
 *
 * Lock order: cpus_read_lock(), then d->lock; the backends run under both,
 * so a socket's CPUs cannot go away between choosing one and using it.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/cpu.h>
#include <linux/topology.h>
#include "compat.h"
#include "ddio.h"

/*
 * What ioca_ddio_write_verified() returns for a write the register did not
 * take: apart from the backend's -EIO (a #GP on the MSR), so that the set
 * reports the read-back and does not write that socket again.
 */
#define IOCA_DDIO_NOT_STUCK	1

/*
 * Write @raw and read it back. A DDIO field that reads back otherwise is
 * IOCA_DDIO_NOT_STUCK, with sk->readback_msg naming the socket and both
 * values; the mask on record stays the last one that stuck. Caller holds
 * cpus_read_lock() and d->lock.
 */
static int ioca_ddio_write_verified(struct ioca_ddio *d, unsigned int s,
				    u64 raw)
{
	struct ioca_ddio_socket *sk = &d->sock[s];
	u64 back = 0;
	int err;

	err = d->ops->write(d, s, raw);
	if (!err)
		err = d->ops->read(d, s, &back);
	if (err)
		return err;
	if (!((back ^ raw) & sk->field)) {
		sk->write_failed = false;
		return 0;
	}
	sk->write_failed = true;
	snprintf(sk->readback_msg, sizeof(sk->readback_msg),
		 "socket %u: DDIO register written 0x%llx, read back 0x%llx: the write did not stick",
		 s, raw, back);
	pr_warn("%s\n", sk->readback_msg);
	return IOCA_DDIO_NOT_STUCK;
}

/*
 * Write @mask and take it on record, without a new epoch: a set publishes
 * its sockets only once all of them hold. 0, IOCA_DDIO_NOT_STUCK or
 * -errno; caller holds both locks.
 */
static int ioca_ddio_write_unpublished(struct ioca_ddio *d, unsigned int s,
				       u32 mask)
{
	struct ioca_ddio_socket *sk = &d->sock[s];
	u64 raw;
	int err;

	err = d->ops->read(d, s, &raw);
	if (err)
		return err;
	err = ioca_ddio_write_verified(d, s, ioca_ddio_merge(sk, raw, mask));
	if (!err)
		sk->mask = mask;
	return err;
}

/* Write @mask, with a new epoch. Returns as above. */
static int ioca_ddio_write_mask(struct ioca_ddio *d, unsigned int s, u32 mask)
{
	int err = ioca_ddio_write_unpublished(d, s, mask);

	if (!err)
		ioca_ddio_publish(&d->sock[s]);
	return err;
}

/*
 * A write failed: every socket of the request goes back to its old mask.
 * The one whose write did not stick still holds what it read back and is
 * not written again. Nothing of the request was published, so a socket
 * put back keeps the epoch and mask its samples showed before: a writer
 * never takes its own rolled-back write for someone else's change. One
 * that cannot be put back holds the request's mask: published as it is.
 */
static void ioca_ddio_rollback(struct ioca_ddio *d,
			       const struct ioca_ddio_req *reqs,
			       const u32 *before, unsigned int upto, int err)
{
	unsigned int i, s;

	for (i = 0; i <= upto; i++) {
		if (i == upto && err == IOCA_DDIO_NOT_STUCK)
			continue;
		s = reqs[i].socket;
		if (!ioca_ddio_write_unpublished(d, s, before[i]))
			continue;
		pr_err("socket %u: DDIO mask 0x%x could not be put back\n",
		       s, before[i]);
		if (d->sock[s].mask != before[i])
			ioca_ddio_publish(&d->sock[s]);
	}
}

/* Ownership after a successful set: the owner's, or nobody's. */
static void ioca_ddio_set_owner(struct ioca_ddio_socket *sk, u32 before,
				const struct ioca_ddio_owner *o)
{
	if (!o || !o->own) {
		sk->owner_portid = 0;
		sk->owner_pid = 0;
		return;
	}
	if (sk->owner_portid != o->portid)
		sk->owner_prev = before;
	sk->owner_portid = o->portid;
	sk->owner_pid = o->pid;
}

/**
 * ioca_ddio_apply() - write resolved requests, all or nothing
 * @d: state
 * @reqs: requests passed through ioca_ddio_resolve(), distinct sockets;
 *	on success each one's @epoch is what the write produced
 * @n: number of requests
 * @o: who asks and whether it takes ownership; NULL: nobody owns them after
 * @why: set to a message for extack on failure
 *
 * A socket whose CPUs are all offline is refused before anything is
 * written. On a backend error, or a write that does not read back as
 * written, every socket of the request goes back to the mask it had before
 * the request, with the epoch it had: the request's masks and epochs are
 * published only once every socket holds its mask.
 *
 * Return: 0, -ENODEV (socket offline), -EIO (a write did not stick; @why
 * names the socket, the value written and the value read back) or the
 * backend's -errno (-EPERM under kernel lockdown).
 */
int ioca_ddio_apply(struct ioca_ddio *d, struct ioca_ddio_req *reqs,
		    unsigned int n, const struct ioca_ddio_owner *o,
		    const char **why)
{
	u32 before[IOCA_MAX_SOCKETS];
	unsigned int i;
	int err = 0;

	if (n > IOCA_MAX_SOCKETS)
		return -EINVAL;
	if (d->ops->may_write) {
		err = d->ops->may_write(why);
		if (err)
			return err;
	}
	cpus_read_lock();
	mutex_lock(&d->lock);
	for (i = 0; i < n; i++) {
		before[i] = d->sock[reqs[i].socket].mask;
		if (d->ops->online && !d->ops->online(d, reqs[i].socket)) {
			*why = "every CPU of the socket is offline; bring one online first";
			err = -ENODEV;
			goto out_unlock;
		}
	}
	for (i = 0; i < n; i++) {
		d->sock[reqs[i].socket].dirty = true;
		err = ioca_ddio_write_unpublished(d, reqs[i].socket,
						  reqs[i].mask);
		if (err) {
			*why = err == IOCA_DDIO_NOT_STUCK ?
			       d->sock[reqs[i].socket].readback_msg :
			       "DDIO mask write failed; every socket of the request put back";
			ioca_ddio_rollback(d, reqs, before, i, err);
			if (err == IOCA_DDIO_NOT_STUCK)
				err = -EIO;
			goto out_unlock;
		}
	}
	for (i = 0; i < n; i++) {
		struct ioca_ddio_socket *sk = &d->sock[reqs[i].socket];

		ioca_ddio_publish(sk);
		ioca_ddio_set_owner(sk, before[i], o);
		reqs[i].epoch = sk->epoch;
	}
out_unlock:
	mutex_unlock(&d->lock);
	cpus_read_unlock();
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_apply);

/* Caller holds cpus_read_lock() and d->lock. */
static int ioca_ddio_restore_socket(struct ioca_ddio *d, unsigned int s)
{
	struct ioca_ddio_socket *sk = &d->sock[s];
	int err;

	if (d->ops->online && !d->ops->online(d, s))
		return -ENODEV;
	err = ioca_ddio_write_verified(d, s, sk->boot_raw);
	if (err)
		return err == IOCA_DDIO_NOT_STUCK ? -EIO : err;
	sk->mask = sk->boot_mask;
	ioca_ddio_publish(sk);
	sk->dirty = false;
	sk->owner_portid = 0;
	sk->owner_pid = 0;
	return 0;
}

/**
 * ioca_ddio_restore() - write the boot value back to every changed socket
 * @d: state
 * @failed: set to a bitmap of the sockets that could not be restored, or NULL
 *
 * Return: 0 or the first backend -errno (the other sockets are still tried).
 */
int ioca_ddio_restore(struct ioca_ddio *d, unsigned long *failed)
{
	unsigned int s;
	int ret = 0;

	cpus_read_lock();
	mutex_lock(&d->lock);
	for (s = 0; s < d->nr_sockets; s++) {
		int err;

		if (!d->sock[s].dirty)
			continue;
		err = ioca_ddio_restore_socket(d, s);
		if (err) {
			ret = ret ?: err;
			if (failed)
				__set_bit(s, failed);
		}
	}
	mutex_unlock(&d->lock);
	cpus_read_unlock();
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_restore);

/**
 * ioca_ddio_release_owner() - an owner's socket closed: undo its changes
 * @d: state
 * @portid: the closed netlink socket
 *
 * Every DDIO socket still owned by @portid goes back to the mask it had
 * before the owner's first change.
 */
void ioca_ddio_release_owner(struct ioca_ddio *d, u32 portid)
{
	unsigned int s;

	cpus_read_lock();
	mutex_lock(&d->lock);
	for (s = 0; s < d->nr_sockets; s++) {
		struct ioca_ddio_socket *sk = &d->sock[s];

		if (!sk->owner_portid || sk->owner_portid != portid)
			continue;
		if (ioca_ddio_write_mask(d, s, sk->owner_prev)) {
			/*
			 * Typically every CPU of the package is offline: the
			 * mask before the owner is what its first CPU back
			 * writes, never the dead owner's.
			 */
			sk->mask = sk->owner_prev;
			ioca_ddio_publish(sk);
			pr_warn("socket %u: owner pid %u closed, DDIO mask 0x%x written when the socket can be\n",
				s, sk->owner_pid, sk->owner_prev);
		} else {
			pr_info("socket %u: owner pid %u closed, DDIO mask 0x%x put back\n",
				s, sk->owner_pid, sk->owner_prev);
		}
		sk->owner_portid = 0;
		sk->owner_pid = 0;
	}
	mutex_unlock(&d->lock);
	cpus_read_unlock();
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_release_owner);

/*
 * A package seen for the first time (no CPU of it was online at load): it
 * becomes a socket once its register is read. Only backends with real
 * packages (an online() op) grow; package ids are dense, so a gap means
 * something unexpected and is left alone. Caller holds d->lock and the
 * hotplug lock.
 */
static int ioca_ddio_socket_add(struct ioca_ddio *d, unsigned int s)
{
	int err;

	if (!d->ops->online)
		return 0;
	if (s != d->nr_sockets) {
		pr_warn("socket %u came online after %u known sockets; not added\n",
			s, d->nr_sockets);
		return -ENODEV;
	}
	err = ioca_ddio_socket_init(d, s);
	if (err)
		return err;
	/* Pairs with the acquire in ioca_ddio_resolve(). */
	smp_store_release(&d->nr_sockets, s + 1);
	pr_info("socket %u: first CPU online, DDIO mask 0x%x\n", s,
		d->sock[s].mask);
	return 0;
}

/**
 * ioca_ddio_socket_online() - a package got its first online CPU back
 * @d: state
 * @s: the package's socket id
 *
 * A package that was fully offline may have lost its register: write the
 * mask last set there. A package never seen before becomes a socket. The
 * caller holds the hotplug lock.
 *
 * Return: 0, or the backend's -errno.
 */
int ioca_ddio_socket_online(struct ioca_ddio *d, unsigned int s)
{
	int err = 0;

	if (!d->ops || s >= IOCA_MAX_SOCKETS)
		return 0;
	mutex_lock(&d->lock);
	if (s >= d->nr_sockets)
		err = ioca_ddio_socket_add(d, s);
	else if (d->sock[s].unread)
		err = ioca_ddio_socket_init(d, s);
	else if (d->sock[s].dirty)
		err = ioca_ddio_write_mask(d, s, d->sock[s].mask);
	mutex_unlock(&d->lock);
	if (err == IOCA_DDIO_NOT_STUCK)
		err = -EIO;
	if (err)
		pr_err("socket %u: DDIO mask 0x%x not written back on CPU online: %d\n",
		       s, d->sock[s].mask, err);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_socket_online);

/**
 * ioca_ddio_cpu_online() - a CPU came online: its package gets its mask
 * @d: state
 * @cpu: the CPU, already in cpu_online_mask
 *
 * Called from the CPU hotplug callback (hotplug lock held for writing).
 * Only the first online CPU of a package writes.
 */
void ioca_ddio_cpu_online(struct ioca_ddio *d, unsigned int cpu)
{
	unsigned int s = topology_logical_package_id(cpu), other;

	for_each_online_cpu(other)
		if (other != cpu && topology_logical_package_id(other) == s)
			return;
	ioca_ddio_socket_online(d, s);
}

/**
 * ioca_ddio_cpu_offline() - a CPU is going offline: the last of its package
 *                           tells the backend
 * @d: state
 * @cpu: the CPU, still in cpu_online_mask
 *
 * Called from the CPU hotplug teardown callback (hotplug lock held for
 * writing). Sets on the package are refused from then on (see the backend's
 * online()); its mask is written again when a CPU of it comes back.
 */
void ioca_ddio_cpu_offline(struct ioca_ddio *d, unsigned int cpu)
{
	unsigned int s = topology_logical_package_id(cpu), other;

	if (!d->ops || !d->ops->offline)
		return;
	for_each_online_cpu(other)
		if (other != cpu && topology_logical_package_id(other) == s)
			return;
	mutex_lock(&d->lock);
	if (s < d->nr_sockets)
		d->ops->offline(d, s);
	mutex_unlock(&d->lock);
}

/**
 * ioca_ddio_exit() - restore boot values; the state is unusable afterwards
 * @d: state
 */
void ioca_ddio_exit(struct ioca_ddio *d)
{
	DECLARE_BITMAP(failed, IOCA_MAX_SOCKETS) = { 0 };
	unsigned int s;

	if (!d->ops)
		return;
	if (ioca_ddio_restore(d, failed))
		for_each_set_bit(s, failed, IOCA_MAX_SOCKETS)
			pr_warn("socket %u: could not restore the boot DDIO value 0x%llx (no online CPU, or the write did not stick); it keeps mask 0x%x\n",
				s, d->sock[s].boot_raw, d->sock[s].mask);
	mutex_destroy(&d->lock);
	d->ops = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_exit);
