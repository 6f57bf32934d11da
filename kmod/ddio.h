/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_DDIO_H
#define _IOCA_DDIO_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/ioca.h>
#include "epoch.h"

struct ioca_ddio;
struct ioca_ddio_gen;

/* Room for "socket N: DDIO write 0x... read back 0x...; ..." */
#define IOCA_DDIO_MSG_LEN	128

/**
 * enum ioca_ddio_emul_mode - how an emulated register answers writes
 * @IOCA_DDIO_EMUL_NORMAL: it takes them
 * @IOCA_DDIO_EMUL_LOCKED: it ignores them and reads back unchanged (a
 *	register firmware locked): writes fail their read-back
 * @IOCA_DDIO_EMUL_IGNORING: it reads back as written but DDIO does not
 *	follow (what Ice Lake-SP is reported to do): info says unverified
 */
enum ioca_ddio_emul_mode {
	IOCA_DDIO_EMUL_NORMAL,
	IOCA_DDIO_EMUL_LOCKED,
	IOCA_DDIO_EMUL_IGNORING,
};

/**
 * struct ioca_ddio_backend - how a socket's DDIO way mask is read and written
 * @id: IOCA_BACKEND_* reported in info
 * @name: name reported in info
 * @read: read the whole register of @socket; 0 or -errno
 * @write: write the whole register of @socket; 0 or -errno
 * @may_write: NULL, or 0 when writes are allowed now, else -errno and @why
 * @online: NULL, or whether @socket has an online CPU to write through
 * @offline: NULL, or called when the last online CPU of @socket goes away
 *
 * @read, @write, @online and @offline run with cpus_read_lock() (or the hotplug lock)
 * and the state's lock held.
 */
struct ioca_ddio_backend {
	enum ioca_backend id;
	const char *name;
	int (*read)(struct ioca_ddio *d, unsigned int socket, u64 *raw);
	int (*write)(struct ioca_ddio *d, unsigned int socket, u64 raw);
	int (*may_write)(const char **why);
	bool (*online)(struct ioca_ddio *d, unsigned int socket);
	void (*offline)(struct ioca_ddio *d, unsigned int socket);
};

/**
 * struct ioca_ddio_socket - DDIO state of one package
 * @llc_ways: ways of the LLC
 * @field: bits of the register that are the DDIO field; no write
 *	changes any other bit
 * @valid_mask: the field's bits that are LLC ways: masks lie inside it
 * @boot_raw: the whole register as found at load, written back on unload
 * @boot_mask: DDIO ways found at load (a default when that read is invalid)
 * @mask: mask last read or written
 * @dirty: a write went to the hardware since load
 * @unread: the register was never read: no CPU of the package has been
 *	online since load (read when one comes online)
 * @owner_portid: netlink socket owning this mask, 0 when none
 * @owner_pid: process that set the owner, for info and messages
 * @owner_prev: mask before the owner's first change, put back when it closes
 * @write_failed: the last write did not read back as written
 * @emul_reg: the emulated backend's register
 * @emul_mode: how the emulated register answers writes
 * @epoch: DDIO epoch, bumped each time @mask is written or set on record
 *	(1 after the first read); a write's epoch tells its samples apart
 * @published: @epoch << 32 | @mask, one word the collector reads without
 *	the lock so that a sample never pairs a mask with another's epoch
 * @readback_msg: extack text of the last write that did not stick; it
 *	must outlive the handler (6.1 has no formatted extack)
 */
struct ioca_ddio_socket {
	u32 llc_ways;
	u32 field;
	u32 valid_mask;
	u64 boot_raw;
	u32 boot_mask;
	u32 mask;
	bool dirty;
	bool unread;
	u32 owner_portid;
	u32 owner_pid;
	u32 owner_prev;
	bool write_failed;
	u64 emul_reg;
	enum ioca_ddio_emul_mode emul_mode;
	u32 epoch;
	u64 published;
	char readback_msg[IOCA_DDIO_MSG_LEN];
};

/**
 * struct ioca_ddio - DDIO way control for every socket
 * @ops: backend
 * @lock: serialises sets, restore and info reads
 * @nr_sockets: sockets in @sock; grows when a package's first CPU comes
 *	online (written under @lock with release, read with acquire)
 * @min_ways: fewest ways a mask may have
 * @llc_ways: ways of every socket's LLC
 * @default_mask: mask shown when a boot value has no valid one
 * @field: the DDIO field of every socket's register
 * @gen: what is known of the CPU model (msr backend), NULL when emulated
 * @verified: model where the effect of IIO_LLC_WAYS is confirmed
 * @sock: per-socket state
 */
struct ioca_ddio {
	const struct ioca_ddio_backend *ops;
	struct mutex lock; /* see @lock */
	unsigned int nr_sockets;
	unsigned int min_ways;
	u32 llc_ways;
	u32 default_mask;
	u32 field;
	const struct ioca_ddio_gen *gen;
	bool verified;
	struct ioca_ddio_socket sock[IOCA_MAX_SOCKETS];
};

/**
 * struct ioca_ddio_req - one socket's requested change
 * @socket: socket id
 * @mask: requested mask; the resolved mask after ioca_ddio_resolve()
 * @ways: requested way count, or 0 to use @mask
 * @epoch: set by ioca_ddio_apply(): the socket's DDIO epoch after the write
 */
struct ioca_ddio_req {
	u32 socket;
	u32 mask;
	u32 ways;
	u32 epoch;
};

/**
 * struct ioca_ddio_owner - who asks for a DDIO change
 * @portid: the requesting netlink socket
 * @pid: its process
 * @own: the socket takes ownership of the sockets it changes
 */
struct ioca_ddio_owner {
	u32 portid;
	u32 pid;
	bool own;
};

/**
 * struct ioca_ddio_status - what info says of one socket's DDIO control
 * @available: the field is known and the register was read
 * @writable: writes are allowed and the last one read back as written
 * @verified: writable, and a written mask is known to move DDIO
 * @field: the register's DDIO field
 */
struct ioca_ddio_status {
	bool available;
	bool writable;
	bool verified;
	u32 field;
};

/* Why a mask or way count was refused, as an extack string. */
enum ioca_ddio_verdict {
	IOCA_DDIO_OK,
	IOCA_DDIO_EMPTY,
	IOCA_DDIO_NOT_CONTIGUOUS,
	IOCA_DDIO_TOO_FEW,
	IOCA_DDIO_TOO_MANY,
	IOCA_DDIO_OUTSIDE_LLC,
	IOCA_DDIO_OUTSIDE_FIELD,
};

#if IS_ENABLED(CONFIG_KUNIT)
const char *ioca_ddio_verdict_msg(enum ioca_ddio_verdict v);
enum ioca_ddio_verdict ioca_ddio_check_mask(u32 mask, u32 llc_ways,
					    unsigned int min_ways);
enum ioca_ddio_verdict ioca_ddio_ways_to_mask(u32 ways, u32 llc_ways,
					      unsigned int min_ways, u32 *mask);
#endif
u32 ioca_ddio_default_mask(u32 llc_ways);

/**
 * ioca_ddio_publish() - @sk->mask changed (or was written again): new epoch
 * @sk: the socket, under its state's lock
 */
static inline void ioca_ddio_publish(struct ioca_ddio_socket *sk)
{
	sk->epoch = ioca_epoch_next(sk->epoch);
	WRITE_ONCE(sk->published, (u64)sk->epoch << 32 | sk->mask);
}

/**
 * ioca_ddio_snapshot() - a socket's mask and epoch, without the lock
 * @sk: the socket
 * @mask: set to its mask
 *
 * Return: the epoch @mask belongs to (0: never read).
 */
static inline u32 ioca_ddio_snapshot(const struct ioca_ddio_socket *sk,
				     u32 *mask)
{
	u64 p = READ_ONCE(sk->published);

	*mask = (u32)p;
	return p >> 32;
}

int ioca_ddio_init(struct ioca_ddio *d, const struct ioca_ddio_backend *ops,
		   unsigned int nr_sockets, u32 llc_ways, u32 default_mask,
		   unsigned int min_ways);
int ioca_ddio_init_field(struct ioca_ddio *d,
			 const struct ioca_ddio_backend *ops,
			 unsigned int nr_sockets, u32 llc_ways, u32 default_mask,
			 unsigned int min_ways, u32 field);
void ioca_ddio_status(struct ioca_ddio *d, unsigned int s,
		      struct ioca_ddio_status *st);
int ioca_ddio_socket_init(struct ioca_ddio *d, unsigned int s);
int ioca_ddio_init_emulated(struct ioca_ddio *d, unsigned int nr_sockets,
			    u32 llc_ways, unsigned int min_ways);
int ioca_ddio_resolve(const struct ioca_ddio *d, struct ioca_ddio_req *req,
		      const char **why);
u64 ioca_ddio_merge(const struct ioca_ddio_socket *sk, u64 raw, u32 mask);
int ioca_ddio_apply(struct ioca_ddio *d, struct ioca_ddio_req *reqs,
		    unsigned int n, const struct ioca_ddio_owner *o,
		    const char **why);
int ioca_ddio_restore(struct ioca_ddio *d, unsigned long *failed);
void ioca_ddio_release_owner(struct ioca_ddio *d, u32 portid);
int ioca_ddio_socket_online(struct ioca_ddio *d, unsigned int s);
void ioca_ddio_cpu_online(struct ioca_ddio *d, unsigned int cpu);
void ioca_ddio_cpu_offline(struct ioca_ddio *d, unsigned int cpu);
void ioca_ddio_exit(struct ioca_ddio *d);
int ioca_ddio_emul_set_mode(struct ioca_ddio *d, unsigned int s,
			    enum ioca_ddio_emul_mode mode);

#endif /* _IOCA_DDIO_H */
