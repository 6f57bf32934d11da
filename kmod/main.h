/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_MAIN_H
#define _IOCA_MAIN_H

#include <linux/mutex.h>
#include "ddio.h"
#include "ddio_dev.h"
#include "emul_counters.h"
#include "sampler.h"

/**
 * struct ioca_ctx - the module's one instance
 * @ddio: DDIO way control
 * @ports: DDIO per device: the root ports whose setting was changed
 * @sampler: counter sampler
 * @emul: emulated DDIO hit/miss counters (emulate=1 only)
 * @owner_lock: serialises sampler ownership checks with the ops they guard
 * @cpuhp_state: dynamic hotplug state of the DDIO re-write on CPU online
 */
struct ioca_ctx {
	struct ioca_ddio ddio;
	struct ioca_ddio_ports ports;
	struct ioca_sampler sampler;
	struct ioca_emul_counters emul;
	struct mutex owner_lock; /* see @owner_lock */
	int cpuhp_state;
};

extern struct ioca_ctx ioca_ctx;

#endif /* _IOCA_MAIN_H */
