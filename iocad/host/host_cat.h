/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From the plan's groups (platform.h) to resctrl's (rdt.h), and the CPUs
 * the sampler must cover. Pure: the plan already says everything, there
 * is no table of tenants to join it with.
 */
#ifndef IOCAD_HOST_CAT_H
#define IOCAD_HOST_CAT_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "rdt.h"

/*
 * @sp's groups into @out (RDT_MAX_GROUPS entries), CPU lists ascending;
 * their number. Only the CPUs in @online (NULL: all) are listed: resctrl
 * takes an offline CPU out of its group and gives it to the default group
 * when it comes back, so a group holds what the plan says of the online
 * ones.
 */
unsigned int host_cat_groups(const struct platform_socket_plan *sp,
			     const struct platform_cpuset *online, struct rdt_group *out);

/* Every socket's sample_cpus of @p, ascending, into @cpus; their number. */
unsigned int host_cat_cpus(const struct platform_plan *p, uint32_t *cpus);

/* The sampling part of @p (interval, events, CPUs) is that of @q. */
bool host_cat_same_sampling(const struct platform_plan *p, const struct platform_plan *q);

#endif /* IOCAD_HOST_CAT_H */
