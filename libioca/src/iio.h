/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * IIO presets: a PCI device's IIO stack (from its sysfs path and the
 * uncore_iio_N PMUs' dieX attributes) and the counter of its inbound write
 * bytes there (iio.c says what is verified and what assumed).
 */
#ifndef LIBIOCA_IIO_H
#define LIBIOCA_IIO_H

#include <stddef.h>
#include <stdint.h>
#include "libioca.h"
#include "log.h"

/* Where a device sits: root bus, root port, stack. */
struct ioca_iio_where {
	unsigned int domain, bus;	   /* the root bus DDDD:BB */
	unsigned int root_dev, root_fn;	   /* the root port's device.function */
	unsigned int link_width;	   /* the root port's current_link_width (4 if unread) */
	unsigned int root_vendor, root_id; /* the root port's PCI IDs (0 if unread) */
	char root_port[IOCA_PCI_ADDR_LEN];
	uint32_t stack, die; /* uncore_iio_<stack>, its die<die> attribute */
};

struct ioca_iio_preset {
	struct ioca_iio_where where;
	const char *gen;   /* the root port's generation (iio_port.c) */
	double unit_bytes; /* bytes per count */
	size_t nevents;
	struct ioca_event events[4];
	char source[96];
};

/*
 * @addr's root bus and root port from its path under @pci_root (realpath
 * of @pci_root/@addr). 0, or -ENODEV (no such device, no pciDDDD:BB).
 */
int ioca_iio_locate(const char *pci_root, const char *addr, struct ioca_iio_where *w,
		    const struct ioca_log *log);

#endif
