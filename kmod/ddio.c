// SPDX-License-Identifier: GPL-2.0
/*
 * DDIO way masks: validation, way arithmetic, the all-or-nothing set and the
 * restore of the boot-time mask, over a backend (MSR in ddio_msr.c, emulated
 * in ddio_emul.c).
 *
 * A mask is valid when it is non-empty, contiguous, has at least min_ways
 * bits and lies inside the LLC. Way counts become masks at the most
 * significant ways, where the hardware default sits, so that the ways CAT
 * hands to cores from the bottom up meet DDIO last.
 *
 * The register is 64 bits wide and only its DDIO field (ddio_gen.c: per CPU
 * model, else the low llc_ways bits) holds DDIO ways: every write is a
 * read-modify-write of that field, read back afterwards (ddio_apply.c), and
 * unload writes back the full value found at load, never a default.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include "compat.h"
#include "ddio.h"
#include "ddio_gen.h"

static const char * const ioca_ddio_msgs[] = {
	[IOCA_DDIO_OK] = "valid",
	[IOCA_DDIO_EMPTY] = "DDIO mask is empty",
	[IOCA_DDIO_NOT_CONTIGUOUS] = "DDIO mask is not contiguous",
	[IOCA_DDIO_TOO_FEW] = "DDIO mask has fewer ways than min_ways",
	[IOCA_DDIO_TOO_MANY] = "DDIO way count exceeds the LLC ways",
	[IOCA_DDIO_OUTSIDE_LLC] = "DDIO mask has bits beyond the LLC ways",
	[IOCA_DDIO_OUTSIDE_FIELD] = "DDIO mask has bits outside the register's DDIO field",
};

VISIBLE_IF_KUNIT const char *ioca_ddio_verdict_msg(enum ioca_ddio_verdict v)
{
	if ((unsigned int)v >= ARRAY_SIZE(ioca_ddio_msgs))
		return "invalid DDIO mask";
	return ioca_ddio_msgs[v];
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_verdict_msg);

static u32 ioca_ddio_valid_mask(u32 llc_ways)
{
	if (!llc_ways)
		return 0;
	return GENMASK(min_t(u32, llc_ways, IOCA_LLC_MAX_WAYS) - 1, 0);
}

/**
 * ioca_ddio_check_mask() - validate a DDIO way mask
 * @mask: the mask
 * @llc_ways: ways of the LLC
 * @min_ways: fewest ways allowed
 *
 * Return: IOCA_DDIO_OK or the first rule @mask breaks.
 */
VISIBLE_IF_KUNIT enum ioca_ddio_verdict
ioca_ddio_check_mask(u32 mask, u32 llc_ways, unsigned int min_ways)
{
	u32 shifted;

	if (!mask)
		return IOCA_DDIO_EMPTY;
	if (mask & ~ioca_ddio_valid_mask(llc_ways))
		return IOCA_DDIO_OUTSIDE_LLC;
	/* Contiguous: shifted down to bit 0 it is 2^n - 1. */
	shifted = mask >> __ffs(mask);
	if (shifted & (shifted + 1))
		return IOCA_DDIO_NOT_CONTIGUOUS;
	if (hweight32(mask) < min_ways)
		return IOCA_DDIO_TOO_FEW;
	return IOCA_DDIO_OK;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_check_mask);

/**
 * ioca_ddio_ways_to_mask() - turn a way count into a mask at the top ways
 * @ways: number of ways
 * @llc_ways: ways of the LLC
 * @min_ways: fewest ways allowed
 * @mask: result, written only on IOCA_DDIO_OK
 *
 * Return: IOCA_DDIO_OK or why @ways is refused.
 */
VISIBLE_IF_KUNIT enum ioca_ddio_verdict
ioca_ddio_ways_to_mask(u32 ways, u32 llc_ways, unsigned int min_ways,
		       u32 *mask)
{
	if (!ways)
		return IOCA_DDIO_EMPTY;
	if (ways > llc_ways || ways > IOCA_LLC_MAX_WAYS)
		return IOCA_DDIO_TOO_MANY;
	if (ways < min_ways)
		return IOCA_DDIO_TOO_FEW;
	*mask = GENMASK(llc_ways - 1, llc_ways - ways);
	return IOCA_DDIO_OK;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_ways_to_mask);

/**
 * ioca_ddio_default_mask() - the hardware's default: the top two ways
 * @llc_ways: ways of the LLC (at least 2)
 *
 * Return: the mask, or 0 when the LLC has fewer than two ways.
 */
u32 ioca_ddio_default_mask(u32 llc_ways)
{
	if (llc_ways < 2 || llc_ways > IOCA_LLC_MAX_WAYS)
		return 0;
	return GENMASK(llc_ways - 1, llc_ways - 2);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_default_mask);

/* The DDIO ways of a register value. */
static u32 ioca_ddio_bits(const struct ioca_ddio_socket *sk, u64 raw)
{
	return (u32)(raw & sk->valid_mask);
}

/**
 * ioca_ddio_merge() - a register value with new DDIO ways, other bits kept
 * @sk: socket (for its field)
 * @raw: the register as read
 * @mask: the DDIO ways to set
 *
 * Return: the value to write.
 */
u64 ioca_ddio_merge(const struct ioca_ddio_socket *sk, u64 raw, u32 mask)
{
	return (raw & ~(u64)sk->field) | (mask & sk->valid_mask);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_merge);

/*
 * Fresh state of one socket: its geometry and field. The emulated
 * register's mode (a test's debugfs knob) survives a re-read.
 */
static void ioca_ddio_socket_geometry(struct ioca_ddio *d, unsigned int s)
{
	struct ioca_ddio_socket *sk = &d->sock[s];
	enum ioca_ddio_emul_mode mode = sk->emul_mode;

	memset(sk, 0, sizeof(*sk));
	sk->llc_ways = d->llc_ways;
	sk->field = d->field;
	sk->valid_mask = d->field & ioca_ddio_valid_mask(d->llc_ways);
	sk->emul_mode = mode;
}

/**
 * ioca_ddio_socket_init() - geometry and boot value of one socket
 * @d: state, with @d->sock[0]'s geometry and @d->default_mask set
 * @s: socket id
 *
 * A read that yields an invalid mask (under TCG unknown MSRs read as 0)
 * is shown as the default mask, but the value read is what unload writes
 * back. The caller holds the hotplug lock (read or write).
 *
 * Return: 0 or the backend's -errno.
 */
int ioca_ddio_socket_init(struct ioca_ddio *d, unsigned int s)
{
	struct ioca_ddio_socket *sk = &d->sock[s];
	u32 llc_ways = d->llc_ways, mask;
	u64 raw = 0;
	int err;

	ioca_ddio_socket_geometry(d, s);
	sk->emul_reg = d->default_mask;
	err = d->ops->read(d, s, &raw);
	if (err)
		return err;
	sk->boot_raw = raw;
	mask = ioca_ddio_bits(sk, raw);
	if (ioca_ddio_check_mask(mask, llc_ways, 1) != IOCA_DDIO_OK) {
		pr_notice("socket %u: %s register reads 0x%llx, showing 0x%x\n",
			  s, d->ops->name, raw, d->default_mask);
		mask = d->default_mask;
	}
	sk->boot_mask = mask;
	sk->mask = mask;
	ioca_ddio_publish(sk);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_socket_init);

/*
 * Geometry only, for a package whose register cannot be read yet: shown
 * with the default mask, never written (not dirty), read by
 * ioca_ddio_socket_online().
 */
static void ioca_ddio_socket_unread(struct ioca_ddio *d, unsigned int s)
{
	struct ioca_ddio_socket *sk = &d->sock[s];

	ioca_ddio_socket_geometry(d, s);
	sk->boot_mask = d->default_mask;
	sk->mask = d->default_mask;
	sk->emul_reg = d->default_mask;
	sk->unread = true;
	pr_info("socket %u: no CPU online, DDIO register read when one comes online\n",
		s);
}

/**
 * ioca_ddio_init_field() - read every socket's boot value through a backend
 * @d: state to fill
 * @ops: backend
 * @nr_sockets: sockets, 1..IOCA_MAX_SOCKETS
 * @llc_ways: ways of every socket's LLC
 * @default_mask: mask shown when the backend reads an invalid one
 * @min_ways: fewest ways a mask may have
 * @field: the register's DDIO field (ioca_ddio_gen_field())
 *
 * Return: 0 or -errno (-EINVAL for bad geometry, the backend's error).
 */
int ioca_ddio_init_field(struct ioca_ddio *d,
			 const struct ioca_ddio_backend *ops,
			 unsigned int nr_sockets, u32 llc_ways, u32 default_mask,
			 unsigned int min_ways, u32 field)
{
	unsigned int s;
	int err = 0;

	if (!nr_sockets || nr_sockets > IOCA_MAX_SOCKETS ||
	    llc_ways < 2 || llc_ways > IOCA_LLC_MAX_WAYS ||
	    !min_ways || min_ways > llc_ways)
		return -EINVAL;
	if (ioca_ddio_check_mask(default_mask, llc_ways, 1) != IOCA_DDIO_OK ||
	    default_mask & ~field)
		return -EINVAL;

	memset(d, 0, sizeof(*d));
	mutex_init(&d->lock);
	d->ops = ops;
	d->nr_sockets = nr_sockets;
	d->min_ways = min_ways;
	d->llc_ways = llc_ways;
	d->default_mask = default_mask;
	d->field = field;
	cpus_read_lock();
	for (s = 0; s < nr_sockets && !err; s++) {
		/*
		 * A package with no CPU online (a middle one, offlined before
		 * load) has no CPU to read through: its register is read when
		 * its first CPU comes online. Until then sets are refused.
		 */
		if (ops->online && !ops->online(d, s)) {
			ioca_ddio_socket_unread(d, s);
			continue;
		}
		err = ioca_ddio_socket_init(d, s);
	}
	cpus_read_unlock();
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_init_field);

/**
 * ioca_ddio_init() - as ioca_ddio_init_field(), the field the low ways
 * @d: state to fill
 * @ops: backend
 * @nr_sockets: sockets, 1..IOCA_MAX_SOCKETS
 * @llc_ways: ways of every socket's LLC
 * @default_mask: mask shown when the backend reads an invalid one
 * @min_ways: fewest ways a mask may have
 *
 * Return: 0 or -errno.
 */
int ioca_ddio_init(struct ioca_ddio *d, const struct ioca_ddio_backend *ops,
		   unsigned int nr_sockets, u32 llc_ways, u32 default_mask,
		   unsigned int min_ways)
{
	return ioca_ddio_init_field(d, ops, nr_sockets, llc_ways, default_mask,
				    min_ways, ioca_ddio_gen_field(NULL, llc_ways));
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_init);

/**
 * ioca_ddio_resolve() - validate one request and compute its mask
 * @d: state (only the geometry is read; no lock needed)
 * @req: request; @req->mask is replaced by the mask to write
 * @why: set to a message for extack on failure
 *
 * Return: 0, -ENODEV for an unknown socket, -EINVAL for a bad mask or count.
 */
int ioca_ddio_resolve(const struct ioca_ddio *d, struct ioca_ddio_req *req,
		      const char **why)
{
	const struct ioca_ddio_socket *sk;
	enum ioca_ddio_verdict v;
	u32 mask = req->mask;

	/* Pairs with the release when a package appears (ddio_apply.c). */
	if (req->socket >= smp_load_acquire(&d->nr_sockets)) {
		*why = "unknown socket";
		return -ENODEV;
	}
	sk = &d->sock[req->socket];
	if (req->ways)
		v = ioca_ddio_ways_to_mask(req->ways, sk->llc_ways,
					   d->min_ways, &mask);
	else
		v = ioca_ddio_check_mask(mask, sk->llc_ways, d->min_ways);
	if (v == IOCA_DDIO_OK && mask & ~sk->valid_mask)
		v = IOCA_DDIO_OUTSIDE_FIELD;
	if (v != IOCA_DDIO_OK) {
		*why = ioca_ddio_verdict_msg(v);
		return -EINVAL;
	}
	req->mask = mask;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_resolve);

/**
 * ioca_ddio_status() - whether one socket's DDIO ways can be controlled
 * @d: state; the caller holds d->lock
 * @s: socket id, below d->nr_sockets
 * @st: filled in
 *
 * Writable: writes are allowed now (no lockdown) and the last one read
 * back as written. Verified: writable and the register is known to move
 * DDIO: on the msr backend only on models where that is public, on the
 * emulated one unless it was told to ignore writes (debugfs).
 */
void ioca_ddio_status(struct ioca_ddio *d, unsigned int s,
		      struct ioca_ddio_status *st)
{
	const struct ioca_ddio_socket *sk = &d->sock[s];
	const char *why = NULL;
	bool effect;

	st->field = sk->field;
	st->available = sk->field && !sk->unread;
	st->writable = st->available && !sk->write_failed &&
		       !(d->ops->may_write && d->ops->may_write(&why));
	if (d->ops->id == IOCA_BACKEND_EMULATED)
		effect = sk->emul_mode != IOCA_DDIO_EMUL_IGNORING;
	else
		effect = d->verified;
	st->verified = st->writable && effect;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_status);
