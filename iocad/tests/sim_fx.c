// SPDX-License-Identifier: GPL-2.0
#include "sim_fx.h"

uint32_t sim_fx_ways(unsigned int lo, unsigned int n)
{
	return ((1u << n) - 1) << lo;
}

void sim_fx_init(struct sim_params *p, struct sim_tenant *t, unsigned int n)
{
	*p = (struct sim_params){.ways = 11,
				 .way_bytes = 2.25 * MB,
				 .miss_penalty = 200,
				 .ghz = 2.3,
				 .incl_mask = 0x3};
	for (unsigned int i = 0; i < n; i++) {
		sim_workload_defaults(&t[i].w);
		t[i].ncpus = 1;
	}
}
