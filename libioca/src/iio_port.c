// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Root port -> IIO port, per generation. The generation is the root
 * port's own PCI device ID, so a host is read as it is, not as its CPU
 * model suggests. The device IDs and device numbers are what public boot
 * logs and lspci dumps show (tests/fixtures/README.md cites them):
 *
 *  Skylake-SP/Cascade Lake  8086:2030-2033 at devices 0-3 (Root Port A-D)
 *  Ice Lake-SP              8086:347a-347d at devices 2-5
 *  Sapphire/Emerald Rapids  8086:352a-352d at devices 1, 3, 5, 7
 *
 * Assumed, not verified on hardware: that the K-th root port of a stack
 * is the IIO PMU's port K (ch_mask bit K, bw_in_portK), and that a link
 * wider than x4 takes the next ports as well (x8: two, x16: four).
 */
#include "iio_port.h"

#include <errno.h>
#include <stddef.h>

static const struct ioca_iio_rule rules[] = {
	{"Skylake-SP/Cascade Lake", 0x2030, 0x2033, 0, 1, 4},
	{"Ice Lake-SP", 0x347a, 0x347d, 2, 1, 4},
	{"Sapphire Rapids/Emerald Rapids", 0x352a, 0x352d, 1, 2, 4},
};

const struct ioca_iio_rule *ioca_iio_rule_of(uint16_t vendor, uint16_t id)
{
	if (vendor != 0x8086)
		return NULL;
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (id >= rules[i].first_id && id <= rules[i].last_id)
			return &rules[i];
	return NULL;
}

int ioca_iio_rule_port(const struct ioca_iio_rule *r, unsigned int dev, unsigned int width,
		       unsigned int *port, unsigned int *nports)
{
	unsigned int k, n;

	if (dev < r->first_dev || (dev - r->first_dev) % r->stride)
		return -ENODEV;
	k = (dev - r->first_dev) / r->stride;
	if (k >= r->nports)
		return -ENODEV;
	n = width / 4;
	n = n ? n : 1;
	if (k + n > r->nports)
		n = r->nports - k;
	*port = k;
	*nports = n;
	return 0;
}
