/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's per-device DDIO: ioca.ko's DDIO_DEVICE_SET through
 * libioca (the root port above a PCI device), owned by iocad's socket so
 * the module puts the root port back if iocad dies. restore() puts back
 * what each device had before iocad's first change.
 */
#ifndef IOCAD_HOST_DEVICE_H
#define IOCAD_HOST_DEVICE_H

#include <stdint.h>

#include "platform.h"

struct host;

/* platform_ops.device_ddio of the host. */
int host_device_ddio(void *ctx, const char *addr, int mode);

/*
 * Where the platform has no IIO counter for a device: the bytes an NVMe
 * device has read for the block layer (the sectors read of each namespace
 * under @pci_root/@addr/nvme/, times 512), which it wrote into memory by
 * DMA. 0, or -ENODATA for a device that is not NVMe or has no namespace.
 */
int host_device_block_bytes(const char *pci_root, const char *addr, uint64_t *bytes);

/*
 * platform_ops.device_writes of the host: its IIO stack's inbound write
 * bytes where libioca finds the counter (host_iio.c; the first call adds
 * its events to the sampler), else host_device_block_bytes(), else
 * -ENODATA; the first call says which.
 */
int host_device_writes(void *ctx, const char *addr, uint64_t *bytes);

/* Put every device iocad changed back; ends iocad's ownership of them. 0 or the first -errno. */
int host_device_restore(struct host *h);

#endif /* IOCAD_HOST_DEVICE_H */
