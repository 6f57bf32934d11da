/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLER_H
#define _IOCA_SAMPLER_H

#include "sampler_state.h"

int ioca_sampler_init(struct ioca_sampler *s);
void ioca_sampler_shutdown(struct ioca_sampler *s);
void ioca_sampler_exit(struct ioca_sampler *s);
int ioca_sampler_configure(struct ioca_sampler *s,
			   struct ioca_sampler_config *cfg,
			   struct netlink_ext_ack *extack);
int ioca_sampler_start(struct ioca_sampler *s,
		       struct netlink_ext_ack *extack);
int ioca_sampler_stop(struct ioca_sampler *s, struct netlink_ext_ack *extack);
void ioca_sampler_unconfigure(struct ioca_sampler *s);

#endif /* _IOCA_SAMPLER_H */
