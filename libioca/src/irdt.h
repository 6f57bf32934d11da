/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The decoded ACPI IRDT table (Intel I/O RDT): its device scopes and
 * links, as plain arrays behind the opaque struct ioca_irdt.
 */
#ifndef LIBIOCA_IRDT_H
#define LIBIOCA_IRDT_H

#include <stddef.h>
#include <stdint.h>
#include "libioca.h"
#include "log.h"

struct ioca_irdt {
	uint32_t io_flags, cache_flags;
	size_t ndevices, nlinks;
	struct ioca_irdt_device *devices;
	struct ioca_irdt_link *links;
};

/* Largest table read from a file; ACPI tables of this kind are far smaller. */
#define IOCA_IRDT_MAX_LEN (1u << 20)

#endif
