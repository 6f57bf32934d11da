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
 *
 * A test makes a socket's register misbehave through debugfs
 * (ioca/socketN/ddio_register): "locked" ignores writes (they read back
 * unchanged, so every set fails its read-back with -EIO), "ignoring" takes
 * them but stands for a register DDIO does not follow (info: unverified),
 * "normal" undoes either.
 */
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>
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
	if (d->sock[socket].emul_mode != IOCA_DDIO_EMUL_LOCKED)
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

/**
 * ioca_ddio_emul_set_mode() - make an emulated register take or ignore writes
 * @d: state of the emulated backend
 * @s: socket id
 * @mode: how its register answers writes from now on
 *
 * Return: 0, -EINVAL for another backend, an unknown socket or mode.
 */
int ioca_ddio_emul_set_mode(struct ioca_ddio *d, unsigned int s,
			    enum ioca_ddio_emul_mode mode)
{
	if (d->ops != &ioca_ddio_emulated || mode > IOCA_DDIO_EMUL_IGNORING)
		return -EINVAL;
	mutex_lock(&d->lock);
	if (s >= d->nr_sockets) {
		mutex_unlock(&d->lock);
		return -EINVAL;
	}
	d->sock[s].emul_mode = mode;
	mutex_unlock(&d->lock);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ioca_ddio_emul_set_mode);

static const char * const ioca_emul_mode_names[] = {
	[IOCA_DDIO_EMUL_NORMAL] = "normal",
	[IOCA_DDIO_EMUL_LOCKED] = "locked",
	[IOCA_DDIO_EMUL_IGNORING] = "ignoring",
};

/* debugfs: the file's private data is the socket id. */
static struct ioca_ddio *ioca_emul_knob_ddio;

static int ioca_ddio_register_show(struct seq_file *m, void *unused)
{
	struct ioca_ddio *d = ioca_emul_knob_ddio;
	unsigned int s = (uintptr_t)m->private;

	mutex_lock(&d->lock);
	seq_printf(m, "%s\n", ioca_emul_mode_names[d->sock[s].emul_mode]);
	mutex_unlock(&d->lock);
	return 0;
}

static int ioca_ddio_register_open(struct inode *inode, struct file *file)
{
	return single_open(file, ioca_ddio_register_show, inode->i_private);
}

static ssize_t ioca_ddio_register_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	unsigned int s = (uintptr_t)m->private;
	char buf[16];
	int mode, err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mode = sysfs_match_string(ioca_emul_mode_names, strim(buf));
	if (mode < 0)
		return mode;
	err = ioca_ddio_emul_set_mode(ioca_emul_knob_ddio, s, mode);
	return err ?: len;
}

static const struct file_operations ioca_ddio_register_fops = {
	.owner = THIS_MODULE,
	.open = ioca_ddio_register_open,
	.read = seq_read,
	.write = ioca_ddio_register_write,
	.llseek = seq_lseek,
	.release = single_release,
};

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

/* ioca/socketN/ddio_register, in the directory of the emulated counters. */
static void ioca_ddio_register_knob(struct dentry *dir, unsigned int s)
{
	struct dentry *sd, *parent;
	char name[16];

	snprintf(name, sizeof(name), "socket%u", s);
	sd = debugfs_lookup(name, dir);
	parent = sd ?: debugfs_create_dir(name, dir);
	if (!IS_ERR(parent))
		debugfs_create_file("ddio_register", 0600, parent,
				    (void *)(uintptr_t)s,
				    &ioca_ddio_register_fops);
	dput(sd);
}

/**
 * ioca_ddio_emul_debugfs_init() - ioca/ddio_regs and each socket's
 *                                 ddio_register knob, root only
 * @d: state of the emulated backend
 * @dir: the module's debugfs directory (removed with it), or NULL
 */
void ioca_ddio_emul_debugfs_init(struct ioca_ddio *d, struct dentry *dir)
{
	unsigned int s;

	if (IS_ERR_OR_NULL(dir) || d->ops != &ioca_ddio_emulated)
		return;
	debugfs_create_file("ddio_regs", 0400, dir, d, &ioca_ddio_regs_fops);
	ioca_emul_knob_ddio = d;
	for (s = 0; s < d->nr_sockets; s++)
		ioca_ddio_register_knob(dir, s);
}
