/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_DDIO_DEV_H
#define _IOCA_DDIO_DEV_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/ioca.h>

struct dentry;
struct pci_dev;
struct sk_buff;

/* Root-port registers (Intel Xeon Scalable IIO, device 0-3 of a stack). */
#define IOCA_RP_PERFCTRLSTS_0		0x180
#define IOCA_RP_PERFCTRLSTS_1		0x184
#define IOCA_RP_ALLOC_FLOW_WR		BIT(7)	/* perfctrlsts_0, default 1 */
#define IOCA_RP_NOSNOOP_OP_WR_EN	BIT(3)	/* perfctrlsts_0, default 0 */
#define IOCA_RP_TPHDIS			BIT(8)	/* perfctrlsts_1, default 0 */

/**
 * struct ioca_ddio_port - one root port whose DDIO setting the module changed
 * @port: the root port (a reference is held)
 * @addr: the device first named for it
 * @port_addr: the root port's address
 * @boot: perfctrlsts_0/1 found at the first change, put back on unload
 * @cur: as last read back (the registers themselves when emulated)
 * @owner_portid: netlink socket owning the setting, 0 when none
 * @owner_pid: its process
 * @owner_prev: perfctrlsts_0/1 before the owner's first change
 * @emulated: @cur is a software register (emulate=1)
 * @locked: the emulated register ignores writes (points at the ports' knob)
 * @msg: extack text of the last write that did not stick
 */
struct ioca_ddio_port {
	struct pci_dev *port;
	char addr[IOCA_PCI_ADDR_LEN];
	char port_addr[IOCA_PCI_ADDR_LEN];
	u32 boot[2];
	u32 cur[2];
	u32 owner_portid;
	u32 owner_pid;
	u32 owner_prev[2];
	bool emulated;
	const bool *locked;
	char msg[128];
};

/**
 * struct ioca_ddio_ports - the root ports the module changed
 * @lock: serialises changes, restores and info
 * @emulate: the emulated backend: software registers, QEMU's root port too
 * @locked: emulated registers ignore writes (debugfs ioca/rootport_locked)
 * @n: entries in @p
 * @refused: extack text naming a root port the module does not know
 * @p: the ports
 */
struct ioca_ddio_ports {
	struct mutex lock; /* see @lock */
	bool emulate;
	bool locked;
	unsigned int n;
	char refused[192];
	struct ioca_ddio_port p[IOCA_MAX_DDIO_DEVICES];
};

/* Who asks for a root port change. */
struct ioca_ddio_dev_owner {
	u32 portid;
	u32 pid;
	bool own;
};

#if IS_ENABLED(CONFIG_KUNIT)
bool ioca_rp_known(u16 vendor, u16 device, bool emulate);
void ioca_rp_mode_regs(enum ioca_ddio_device_mode mode, u32 *p0, u32 *p1);
enum ioca_ddio_device_mode ioca_rp_mode_of(u32 p0, u32 p1);
int ioca_pci_addr_parse(const char *s, u32 *domain, u32 *bus, u32 *dev,
			u32 *fn);
#endif

void ioca_ddio_ports_init(struct ioca_ddio_ports *d, bool emulate);
int ioca_ddio_dev_set(struct ioca_ddio_ports *d, const char *addr,
		      enum ioca_ddio_device_mode mode,
		      const struct ioca_ddio_dev_owner *o, const char **why);
void ioca_ddio_dev_release_owner(struct ioca_ddio_ports *d, u32 portid);
bool ioca_ddio_dev_may_hold(const struct ioca_ddio_ports *d, u32 portid);
int ioca_ddio_dev_fill_info(struct ioca_ddio_ports *d, struct sk_buff *msg);
void ioca_ddio_ports_debugfs_init(struct ioca_ddio_ports *d, struct dentry *dir);
void ioca_ddio_ports_exit(struct ioca_ddio_ports *d);

#endif /* _IOCA_DDIO_DEV_H */
