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

#endif /* IOCAD_TESTS_SIM_FX_H */
