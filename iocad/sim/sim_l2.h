/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's L2 counters (SIMULATOR.md, "L2 counters"), from the
 * model's rates: every LLC reference is an L2 miss; the L2 requests add the
 * own-data references the tenant's cores' L2 serve (the `l2` platform
 * key). Without `l2` the L2 is not modelled and the platform says it has
 * no L2 counters.
 */
#ifndef IOCAD_SIM_L2_H
#define IOCAD_SIM_L2_H

#include "sim_model.h"

/* L2 requests per second of tenant @t at rates @r. */
double sim_l2_refs(const struct sim_params *p, const struct sim_tenant *t,
		   const struct sim_tenant_rates *r);

/* L2 misses per second of a tenant at rates @r: its LLC references. */
double sim_l2_misses(const struct sim_tenant_rates *r);

#endif /* IOCAD_SIM_L2_H */
