/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Which IIO port a root port is, by the generation its PCI device ID
 * names (iio_port.c says which facts are public and which assumed).
 */
#ifndef LIBIOCA_IIO_PORT_H
#define LIBIOCA_IIO_PORT_H

#include <stdbool.h>
#include <stdint.h>
#include "log.h"

/* One generation's root ports on an IIO stack's root bus. */
struct ioca_iio_rule {
	const char *gen;		/* "Skylake-SP/Cascade Lake" */
	uint16_t first_id, last_id;	/* the root ports' Intel device IDs */
	unsigned int first_dev, stride; /* port K is device first_dev + K * stride */
	unsigned int nports;		/* ports of a stack */
};

/* The rule for Intel device @id, or NULL. */
const struct ioca_iio_rule *ioca_iio_rule_of(uint16_t vendor, uint16_t id);

/*
 * The port of root port device @dev under @r, and how many ports a link of
 * @width lanes takes (x4 lane groups, at most to the stack's end). 0, or
 * -ENODEV when @dev is not one of the rule's root port devices.
 */
int ioca_iio_rule_port(const struct ioca_iio_rule *r, unsigned int dev, unsigned int width,
		       unsigned int *port, unsigned int *nports);

#endif
