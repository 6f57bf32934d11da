// SPDX-License-Identifier: GPL-2.0
#include "sim_l2.h"

#include <math.h>

double sim_l2_refs(const struct sim_params *p, const struct sim_tenant *t,
		   const struct sim_tenant_rates *r)
{
	double l2 = p->l2_bytes * t->ncpus;
	/* the share of its own-data references its cores' L2 serve (sim_model.c) */
	double l2f = l2 > 0 && t->w.ws > 0 ? fmin(1.0, l2 / t->w.ws) : 0.0;

	return r->llc_refs + l2f * t->w.rpi * r->instructions;
}

double sim_l2_misses(const struct sim_tenant_rates *r)
{
	return r->llc_refs;
}
