// SPDX-License-Identifier: GPL-2.0
/*
 * DDIO per device: DDIO allocation on or off for the PCIe root port above a
 * PCI device, as ddio-bench and Intel's rpma ddio.sh do from userspace and
 * A4 (ISCA 2025) does for storage devices whose DMA only pollutes the LLC.
 *
 * The registers are the root port's perfctrlsts_0 (0x180: bit 7
 * Use_Allocating_Flow_Wr, default 1; bit 3 NoSnoopOpWrEn, default 0) and
 * perfctrlsts_1 (0x184: bit 8, TPHDIS, default 0). They exist on the IIO
 * root ports of Skylake-SP and Cascade Lake (8086:2030 to 8086:2033); any
 * other root port is refused, by its IDs, before anything is read. Only
 * those three bits are changed (read-modify-write) and every write is read
 * back. The values found at the first change are put back on unload, and
 * an owner's close puts back what was there before its first change.
 *
 * Under QEMU the root port's registers read 0: with emulate=1 the registers
 * are software ones (starting at the defaults), for the known root ports
 * and QEMU's pcie-root-port (1b36:000c) alike; the hardware is not touched.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/pci.h>
#include <linux/string.h>
#include <net/genetlink.h>
#include "compat.h"
#include "ddio_dev.h"

#define IOCA_RP_P0_BITS	(IOCA_RP_ALLOC_FLOW_WR | IOCA_RP_NOSNOOP_OP_WR_EN)
#define IOCA_RP_P1_BITS	IOCA_RP_TPHDIS

/* Returned by a write the port did not take: apart from config-space errors. */
#define IOCA_RP_NOT_STUCK	1

/**
 * ioca_rp_known() - a root port whose DDIO registers the module knows
 * @vendor: PCI vendor id
 * @device: PCI device id
 * @emulate: the emulated backend also takes QEMU's pcie-root-port
 *
 * Return: true for the Skylake-SP/Cascade Lake IIO root ports (8086:2030 to
 * 8086:2033), and with @emulate for 1b36:000c.
 */
VISIBLE_IF_KUNIT bool ioca_rp_known(u16 vendor, u16 device, bool emulate)
{
	if (vendor == PCI_VENDOR_ID_INTEL && device >= 0x2030 && device <= 0x2033)
		return true;
	return emulate && vendor == PCI_VENDOR_ID_REDHAT && device == 0x000c;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_rp_known);

/**
 * ioca_rp_mode_regs() - set @mode's bits in register values, keep the rest
 * @mode: the DDIO mode
 * @p0: perfctrlsts_0 as read; changed in place
 * @p1: perfctrlsts_1 as read; changed in place
 */
VISIBLE_IF_KUNIT void ioca_rp_mode_regs(enum ioca_ddio_device_mode mode,
					u32 *p0, u32 *p1)
{
	switch (mode) {
	case IOCA_DDIO_DEVICE_MODE_ON:
		*p0 |= IOCA_RP_ALLOC_FLOW_WR;
		*p0 &= ~IOCA_RP_NOSNOOP_OP_WR_EN;
		*p1 &= ~IOCA_RP_TPHDIS;
		break;
	case IOCA_DDIO_DEVICE_MODE_OFF:
		*p0 &= ~IOCA_RP_ALLOC_FLOW_WR;
		break;
	case IOCA_DDIO_DEVICE_MODE_FULL_OFF:
		*p0 &= ~(IOCA_RP_ALLOC_FLOW_WR | IOCA_RP_NOSNOOP_OP_WR_EN);
		*p1 |= IOCA_RP_TPHDIS;
		break;
	default:
		break;
	}
}
EXPORT_SYMBOL_IF_KUNIT(ioca_rp_mode_regs);

/**
 * ioca_rp_mode_of() - the mode register values stand for
 * @p0: perfctrlsts_0
 * @p1: perfctrlsts_1
 *
 * Return: on while Use_Allocating_Flow_Wr is set; full-off when also
 * NoSnoopOpWrEn is clear and TPHDIS set; off otherwise.
 */
VISIBLE_IF_KUNIT enum ioca_ddio_device_mode ioca_rp_mode_of(u32 p0, u32 p1)
{
	if (p0 & IOCA_RP_ALLOC_FLOW_WR)
		return IOCA_DDIO_DEVICE_MODE_ON;
	if (!(p0 & IOCA_RP_NOSNOOP_OP_WR_EN) && (p1 & IOCA_RP_TPHDIS))
		return IOCA_DDIO_DEVICE_MODE_FULL_OFF;
	return IOCA_DDIO_DEVICE_MODE_OFF;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_rp_mode_of);

/**
 * ioca_pci_addr_parse() - DDDD:BB:DD.F or BB:DD.F, hex
 * @s: the address
 * @domain: PCI domain (0 when not given)
 * @bus: bus
 * @dev: device (slot)
 * @fn: function
 *
 * Return: 0, or -EINVAL for anything else (trailing text, a field too wide).
 */
VISIBLE_IF_KUNIT int ioca_pci_addr_parse(const char *s, u32 *domain, u32 *bus,
					 u32 *dev, u32 *fn)
{
	int n = -1;

	*domain = 0;
	/* sscanf's %x would take a "0x" prefix, even one without digits */
	if (s[strspn(s, "0123456789abcdefABCDEF:.")])
		return -EINVAL;
	if (sscanf(s, "%x:%x:%x.%x%n", domain, bus, dev, fn, &n) != 4 ||
	    n < 0 || s[n]) {
		n = -1;
		*domain = 0;
		if (sscanf(s, "%x:%x.%x%n", bus, dev, fn, &n) != 3 || n < 0 ||
		    s[n])
			return -EINVAL;
	}
	if (*domain > 0xffff || *bus > 0xff || *dev > 0x1f || *fn > 7)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_pci_addr_parse);

/**
 * ioca_ddio_ports_init() - no root port changed yet
 * @d: state
 * @emulate: use software registers (emulate=1)
 */
void ioca_ddio_ports_init(struct ioca_ddio_ports *d, bool emulate)
{
	memset(d, 0, sizeof(*d));
	mutex_init(&d->lock);
	d->emulate = emulate;
}

static int ioca_rp_read(struct ioca_ddio_port *p, u32 v[2])
{
	int err;

	if (p->emulated) {
		v[0] = p->cur[0];
		v[1] = p->cur[1];
		return 0;
	}
	err = pci_read_config_dword(p->port, IOCA_RP_PERFCTRLSTS_0, &v[0]);
	if (!err)
		err = pci_read_config_dword(p->port, IOCA_RP_PERFCTRLSTS_1, &v[1]);
	return pcibios_err_to_errno(err);
}

static int ioca_rp_write(struct ioca_ddio_port *p, const u32 v[2])
{
	int err;

	if (p->emulated) {
		if (!READ_ONCE(*p->locked)) {
			p->cur[0] = v[0];
			p->cur[1] = v[1];
		}
		return 0;
	}
	err = pci_write_config_dword(p->port, IOCA_RP_PERFCTRLSTS_0, v[0]);
	if (!err)
		err = pci_write_config_dword(p->port, IOCA_RP_PERFCTRLSTS_1, v[1]);
	return pcibios_err_to_errno(err);
}

/* Write @v, read it back: our bits must hold. Caller holds d->lock. */
static int ioca_rp_write_verified(struct ioca_ddio_port *p, const u32 v[2])
{
	u32 back[2];
	int err;

	err = ioca_rp_write(p, v);
	if (!err)
		err = ioca_rp_read(p, back);
	if (err)
		return err;
	p->cur[0] = back[0];
	p->cur[1] = back[1];
	if (!((back[0] ^ v[0]) & IOCA_RP_P0_BITS) &&
	    !((back[1] ^ v[1]) & IOCA_RP_P1_BITS))
		return 0;
	snprintf(p->msg, sizeof(p->msg),
		 "root port %s: perfctrlsts written 0x%x 0x%x, read back 0x%x 0x%x: the write did not stick",
		 p->port_addr, v[0], v[1], back[0], back[1]);
	pr_warn("%s\n", p->msg);
	return IOCA_RP_NOT_STUCK;
}

/* The entry of @port, a new one (its registers read), or NULL with @why. */
static struct ioca_ddio_port *ioca_rp_get(struct ioca_ddio_ports *d,
					  struct pci_dev *port,
					  const char *addr, const char **why)
{
	struct ioca_ddio_port *p;
	unsigned int i;
	int err;

	for (i = 0; i < d->n; i++)
		if (d->p[i].port == port)
			return &d->p[i];
	if (d->n == IOCA_MAX_DDIO_DEVICES) {
		*why = "IOCA_MAX_DDIO_DEVICES root ports are already changed";
		return ERR_PTR(-ENOSPC);
	}
	p = &d->p[d->n];
	memset(p, 0, sizeof(*p));
	p->port = port;
	p->emulated = d->emulate;
	p->locked = &d->locked;
	strscpy(p->addr, addr, sizeof(p->addr));
	strscpy(p->port_addr, pci_name(port), sizeof(p->port_addr));
	p->cur[0] = IOCA_RP_ALLOC_FLOW_WR;	/* the emulated defaults */
	err = ioca_rp_read(p, p->boot);
	if (err) {
		*why = "reading the root port's perfctrlsts registers failed";
		return ERR_PTR(err);
	}
	p->cur[0] = p->boot[0];
	p->cur[1] = p->boot[1];
	pci_dev_get(port);
	d->n++;
	return p;
}

/* The root port above the device at @addr (referenced), or an ERR_PTR. */
static struct pci_dev *ioca_rp_find(struct ioca_ddio_ports *d,
				    const char *addr, const char **why)
{
	u32 domain, bus, dev, fn;
	struct pci_dev *pdev, *port;

	if (ioca_pci_addr_parse(addr, &domain, &bus, &dev, &fn)) {
		*why = "bad PCI address: expected DDDD:BB:DD.F (hex)";
		return ERR_PTR(-EINVAL);
	}
	pdev = pci_get_domain_bus_and_slot(domain, bus, PCI_DEVFN(dev, fn));
	if (!pdev) {
		*why = "no PCI device at that address";
		return ERR_PTR(-ENODEV);
	}
	port = pcie_find_root_port(pdev);
	if (!port) {
		pci_dev_put(pdev);
		*why = "no PCIe root port above the device (root complex integrated or not PCIe)";
		return ERR_PTR(-ENODEV);
	}
	pci_dev_get(port);
	pci_dev_put(pdev);
	return port;
}

/* @why for a root port the module does not know; caller holds d->lock. */
static const char *ioca_rp_refusal(struct ioca_ddio_ports *d,
				   const struct pci_dev *port, const char *addr)
{
	snprintf(d->refused, sizeof(d->refused),
		 "root port %s (%04x:%04x) above %s is not a known IIO root port (Skylake-SP/Cascade Lake: 8086:2030-2033%s)",
		 pci_name(port), port->vendor, port->device, addr,
		 d->emulate ? "; emulated: QEMU's 1b36:000c" : "");
	return d->refused;
}

/* Ownership after a successful change: the owner's, or nobody's. */
static void ioca_rp_set_owner(struct ioca_ddio_port *p, const u32 before[2],
			      const struct ioca_ddio_dev_owner *o)
{
	if (!o || !o->own) {
		p->owner_portid = 0;
		p->owner_pid = 0;
		return;
	}
	if (p->owner_portid != o->portid) {
		p->owner_prev[0] = before[0];
		p->owner_prev[1] = before[1];
	}
	p->owner_portid = o->portid;
	p->owner_pid = o->pid;
}

/**
 * ioca_ddio_dev_set() - DDIO on, off or full-off for the root port above a device
 * @d: state
 * @addr: the device's PCI address
 * @mode: what to set
 * @o: who asks and whether it takes ownership, or NULL
 * @why: set to a message for extack on failure
 *
 * Return: 0, -EINVAL (address), -ENODEV (no device, no root port),
 * -EOPNOTSUPP (a root port the module does not know), -ENOSPC, -EIO (the
 * write did not stick; @why names the port and the values) or a
 * config-space -errno.
 */
int ioca_ddio_dev_set(struct ioca_ddio_ports *d, const char *addr,
		      enum ioca_ddio_device_mode mode,
		      const struct ioca_ddio_dev_owner *o, const char **why)
{
	struct ioca_ddio_port *p;
	struct pci_dev *port;
	u32 before[2], v[2];
	int err;

	port = ioca_rp_find(d, addr, why);
	if (IS_ERR(port))
		return PTR_ERR(port);
	mutex_lock(&d->lock);
	if (!ioca_rp_known(port->vendor, port->device, d->emulate)) {
		*why = ioca_rp_refusal(d, port, addr);
		err = -EOPNOTSUPP;
		goto out_unlock;
	}
	p = ioca_rp_get(d, port, addr, why);
	if (IS_ERR(p)) {
		err = PTR_ERR(p);
		goto out_unlock;
	}
	err = ioca_rp_read(p, before);
	if (err) {
		*why = "reading the root port's perfctrlsts registers failed";
		goto out_unlock;
	}
	v[0] = before[0];
	v[1] = before[1];
	ioca_rp_mode_regs(mode, &v[0], &v[1]);
	err = ioca_rp_write_verified(p, v);
	if (err == IOCA_RP_NOT_STUCK) {
		*why = p->msg;
		err = -EIO;
	} else if (err) {
		*why = "writing the root port's perfctrlsts registers failed";
	}
	if (!err)
		ioca_rp_set_owner(p, before, o);
out_unlock:
	mutex_unlock(&d->lock);
	pci_dev_put(port);
	return err;
}

/**
 * ioca_ddio_dev_may_hold() - may @portid own a root port's setting?
 * @d: state
 * @portid: a closing netlink socket
 *
 * Lockless, as the owner notifier needs (see owner.c).
 *
 * Return: true when one of the ports is owned by @portid.
 */
bool ioca_ddio_dev_may_hold(const struct ioca_ddio_ports *d, u32 portid)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_DDIO_DEVICES; i++)
		if (READ_ONCE(d->p[i].owner_portid) == portid)
			return true;
	return false;
}

/**
 * ioca_ddio_dev_release_owner() - an owner closed: its ports go back
 * @d: state
 * @portid: the closed netlink socket
 */
void ioca_ddio_dev_release_owner(struct ioca_ddio_ports *d, u32 portid)
{
	unsigned int i;

	mutex_lock(&d->lock);
	for (i = 0; i < d->n; i++) {
		struct ioca_ddio_port *p = &d->p[i];

		if (!p->owner_portid || p->owner_portid != portid)
			continue;
		if (ioca_rp_write_verified(p, p->owner_prev))
			pr_warn("root port %s: owner pid %u closed, its DDIO setting could not be put back\n",
				p->port_addr, p->owner_pid);
		else
			pr_info("root port %s: owner pid %u closed, DDIO setting put back\n",
				p->port_addr, p->owner_pid);
		p->owner_portid = 0;
		p->owner_pid = 0;
	}
	mutex_unlock(&d->lock);
}

static int ioca_rp_put_info(struct sk_buff *msg, const struct ioca_ddio_port *p)
{
	struct nlattr *nest = nla_nest_start(msg, IOCA_A_INFO_DEVICE);

	if (!nest ||
	    nla_put_string(msg, IOCA_A_DEVICE_ADDR, p->addr) ||
	    nla_put_string(msg, IOCA_A_DEVICE_ROOT_PORT, p->port_addr) ||
	    nla_put_u32(msg, IOCA_A_DEVICE_MODE,
			ioca_rp_mode_of(p->cur[0], p->cur[1])) ||
	    nla_put_u32(msg, IOCA_A_DEVICE_PERFCTRLSTS0, p->cur[0]) ||
	    nla_put_u32(msg, IOCA_A_DEVICE_PERFCTRLSTS1, p->cur[1]) ||
	    nla_put_u32(msg, IOCA_A_DEVICE_OWNER_PID, p->owner_pid) ||
	    nla_put_u8(msg, IOCA_A_DEVICE_EMULATED, p->emulated))
		return -EMSGSIZE;
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * ioca_ddio_dev_fill_info() - one info nest per changed root port
 * @d: state
 * @msg: the info reply
 *
 * Return: 0 or -EMSGSIZE.
 */
int ioca_ddio_dev_fill_info(struct ioca_ddio_ports *d, struct sk_buff *msg)
{
	unsigned int i;
	int err = 0;

	mutex_lock(&d->lock);
	for (i = 0; i < d->n && !err; i++)
		err = ioca_rp_put_info(msg, &d->p[i]);
	mutex_unlock(&d->lock);
	return err;
}

/**
 * ioca_ddio_ports_debugfs_init() - ioca/rootport_locked, root only
 * @d: state
 * @dir: the module's debugfs directory (removed with it), or NULL
 *
 * With emulate=1 only: Y makes every emulated root-port register ignore
 * writes, so the read-back's -EIO is testable; N undoes it.
 */
void ioca_ddio_ports_debugfs_init(struct ioca_ddio_ports *d, struct dentry *dir)
{
	if (d->emulate && !IS_ERR_OR_NULL(dir))
		debugfs_create_bool("rootport_locked", 0600, dir, &d->locked);
}

/**
 * ioca_ddio_ports_exit() - put every changed root port back, drop them
 * @d: state
 */
void ioca_ddio_ports_exit(struct ioca_ddio_ports *d)
{
	unsigned int i;

	mutex_lock(&d->lock);
	for (i = 0; i < d->n; i++) {
		struct ioca_ddio_port *p = &d->p[i];

		if (ioca_rp_write_verified(p, p->boot))
			pr_warn("root port %s: could not put back perfctrlsts 0x%x 0x%x\n",
				p->port_addr, p->boot[0], p->boot[1]);
		else
			pr_info("root port %s: DDIO setting put back (perfctrlsts 0x%x 0x%x)\n",
				p->port_addr, p->boot[0], p->boot[1]);
		pci_dev_put(p->port);
	}
	d->n = 0;
	mutex_unlock(&d->lock);
	mutex_destroy(&d->lock);
}
