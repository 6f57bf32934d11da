/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_SAMPLER_INFO_H
#define _IOCA_SAMPLER_INFO_H

#include "sampler.h"

/* Upper bound of what ioca_sampler_fill_info() adds. */
#define IOCA_SAMPLER_INFO_SIZE						\
	(256 + IOCA_MAX_CPUS * 8 +					\
	 (IOCA_MAX_CPU_EVENTS + IOCA_MAX_UNCORE_EVENTS) * 80 +		\
	 IOCA_MAX_SUBSCRIBERS * 48)

int ioca_sampler_fill_info(struct ioca_sampler *s, struct sk_buff *skb);

#endif /* _IOCA_SAMPLER_INFO_H */
