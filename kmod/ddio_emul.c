// SPDX-License-Identifier: GPL-2.0
/*
 * The emulated DDIO backend: one software register per socket, for VMs and
 * CI. It behaves like the MSR where the machine's topology shows through: a
 * socket that is one of the machine's packages is reachable only while one
 * of its CPUs is online, and its register falls back to the value found at
 * load when the package's last CPU goes offline, as a package that lost
 * power would. Sockets beyond the machine's packages (emulate_sockets) are
 * always reachable. The registers are shown in debugfs (ioca/ddio_regs) so
 * tests can see what was actually written.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "compat.h"
#include "ddio.h"
#include "ddio_emul.h"
#include "topo.h"

static bool ioca_emul_online(struct ioca_ddio *d, unsigned int socket)
{
	return ioca_socket_cpu(socket) >= 0 || !ioca_package_present(socket);
}

static int ioca_emul_read(struct ioca_ddio *d, unsigned int socket, u64 *raw)
{
	*raw = d->sock[socket].emul_reg;
	return 0;
}

static int ioca_emul_write(struct ioca_ddio *d, unsigned int socket, u64 raw)
{
	/* As the MSR backend: no CPU of the package to write through. */
	if (!ioca_emul_online(d, socket))
		return -ENODEV;
	d->sock[socket].emul_reg = raw;
	return 0;
}

static void ioca_emul_offline(struct ioca_ddio *d, unsigned int socket)
{
	d->sock[socket].emul_reg = d->sock[socket].boot_raw;
}

static const struct ioca_ddio_backend ioca_ddio_emulated = {
	.id = IOCA_BACKEND_EMULATED,
	.name = "emulated",
	.read = ioca_emul_read,
	.write = ioca_emul_write,
	.online = ioca_emul_online,
	.offline = ioca_emul_offline,
};

/**
 * ioca_ddio_init_emulated() - software registers, for VMs and CI
 * @d: state to fill
 * @nr_sockets: emulated sockets
 * @llc_ways: emulated LLC ways (the boot mask is the top two)
 * @min_ways: fewest ways a mask may have
 *
 * Return: 0 or -EINVAL.
 */
int ioca_ddio_init_emulated(struct ioca_ddio *d, unsigned int nr_sockets,
			    u32 llc_ways, unsigned int min_ways)
{
	return ioca_ddio_init(d, &ioca_ddio_emulated, nr_sockets, llc_ways,
			      ioca_ddio_default_mask(llc_ways), min_ways);
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_init_emulated);

static int ioca_ddio_regs_show(struct seq_file *m, void *unused)
{
	struct ioca_ddio *d = m->private;
	unsigned int s;

	mutex_lock(&d->lock);
	for (s = 0; s < d->nr_sockets; s++)
		seq_printf(m, "socket %u 0x%llx\n", s, d->sock[s].emul_reg);
	mutex_unlock(&d->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ioca_ddio_regs);

/**
 * ioca_ddio_emul_debugfs_init() - ioca/ddio_regs, root only
 * @d: state of the emulated backend
 * @dir: the module's debugfs directory (removed with it), or NULL
 */
void ioca_ddio_emul_debugfs_init(struct ioca_ddio *d, struct dentry *dir)
{
	if (!IS_ERR_OR_NULL(dir) && d->ops == &ioca_ddio_emulated)
		debugfs_create_file("ddio_regs", 0400, dir, d,
				    &ioca_ddio_regs_fops);
}
