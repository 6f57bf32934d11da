/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLER_UNCORE_H
#define _IOCA_SAMPLER_UNCORE_H

#include "sampler_state.h"

int ioca_sampler_check_uncore(const struct ioca_sampler_config *cfg,
			      struct netlink_ext_ack *extack);
int ioca_sampler_create_uncore(struct ioca_sampler *s,
			       struct netlink_ext_ack *extack);
void ioca_sampler_release_uncore(struct ioca_sampler *s);
void ioca_uncore_cpu_online(struct ioca_sampler *s, unsigned int cpu);
void ioca_uncore_cpu_offline(struct ioca_sampler *s, unsigned int cpu);

#endif /* _IOCA_SAMPLER_UNCORE_H */
