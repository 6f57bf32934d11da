/* SPDX-License-Identifier: GPL-2.0 */
/* The machine the simulator's model tests solve on, and way masks for it. */
#ifndef IOCAD_TESTS_SIM_FX_H
#define IOCAD_TESTS_SIM_FX_H

#include <stdint.h>

#include "sim_model.h"

#define MB (1024.0 * 1024.0)

/* The mask of @n ways starting at way @lo. */
uint32_t sim_fx_ways(unsigned int lo, unsigned int n);
/*
 * 11 ways of 2.25 MiB, 200-cycle misses at 2.3 GHz, the inclusive ways
 * 0-1 (0x3); @n tenants with default workloads on one CPU each.
 */
void sim_fx_init(struct sim_params *p, struct sim_tenant *t, unsigned int n);

#define SIM_FX_TENANTS 4

/* The model tests' state: that machine, its tenants, room for an answer. */
struct sim_fx {
	struct sim_params p;
	struct sim_tenant t[SIM_FX_TENANTS];
	struct sim_rates r;
	struct sim_model_ws ws;
};

/* A zeroed sim_fx with sim_fx_init's machine and @n tenants; NULL without memory. */
struct sim_fx *sim_fx_new(unsigned int n);
/* cmocka teardown: frees the sim_fx in *@state. */
int sim_fx_teardown(void **state);
/* Solves @f's first @n tenants with DDIO on @ddio into @f->r; fails the test on an error. */
void sim_fx_solve(struct sim_fx *f, unsigned int n, uint32_t ddio);
/* Instructions per cycle of a solved tenant; 0 without cycles. */
double sim_fx_ipc(const struct sim_tenant_rates *r);

#endif /* IOCAD_TESTS_SIM_FX_H */
