// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>

#include <cmocka.h>

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

struct sim_fx *sim_fx_new(unsigned int n)
{
	struct sim_fx *f = calloc(1, sizeof(*f));

	if (f)
		sim_fx_init(&f->p, f->t, n);
	return f;
}

int sim_fx_teardown(void **state)
{
	free(*state);
	return 0;
}

void sim_fx_solve(struct sim_fx *f, unsigned int n, uint32_t ddio)
{
	assert_int_equal(sim_model_solve(&f->p, f->t, n, ddio, &f->ws, &f->r), 0);
}

double sim_fx_ipc(const struct sim_tenant_rates *r)
{
	return r->cycles > 0 ? r->instructions / r->cycles : 0;
}
