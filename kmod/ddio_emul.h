/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_DDIO_EMUL_H
#define _IOCA_DDIO_EMUL_H

struct dentry;
struct ioca_ddio;

void ioca_ddio_emul_debugfs_init(struct ioca_ddio *d, struct dentry *dir);

#endif /* _IOCA_DDIO_EMUL_H */
