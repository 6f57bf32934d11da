/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_MAIN_H
#define _IOCA_MAIN_H

#include "ddio.h"
#include "sampler.h"

/**
 * struct ioca_ctx - the module's one instance
 * @ddio: DDIO way control
 * @sampler: counter sampler
 */
struct ioca_ctx {
	struct ioca_ddio ddio;
	struct ioca_sampler sampler;
};

extern struct ioca_ctx ioca_ctx;

#endif /* _IOCA_MAIN_H */
