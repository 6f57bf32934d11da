/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The oracle: for one phase, the best layout any allocator could hold on
 * this model, found by search over way layouts with the simulator's own
 * equations (sim_model_solve) on the phase's workloads. Every tenant keeps
 * a contiguous mask of at least one way; DDIO a contiguous mask within the
 * config's [ddio_ways_min, ddio_ways_max] (fixed where iocad only observes
 * it). "Best" is the objective below, the same for every phase and case.
 *
 * The search is coordinate descent (each tenant's and DDIO's mask in turn,
 * every contiguous placement tried) from static's layout and from iocad's,
 * until no move improves: a local optimum at least as good as both by
 * construction, so an upper bound for the modes compared, not a proof of
 * the global one (EVAL.md says how far exhaustive search agrees on small
 * cases).
 */
#ifndef IOCAD_EVAL_ORACLE_H
#define IOCAD_EVAL_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "eval/eval_run.h"

struct eval_oracle_opts {
	unsigned int ddio_min, ddio_max; /* DDIO ways iocad may use */
	bool ddio_fixed;		 /* ddio = observe: DDIO stays where it is */
	const bool *ps;			 /* per tenant (config order): weighs PS first */
	const bool *net;		 /* networking tenants: packets count too */
	const uint32_t *start2;		 /* a second start layout (iocad's), may be NULL */
	const uint32_t *start2_ddio;
};

struct eval_oracle_out {
	double ipc[EVAL_MAX_TENANTS];
	double pkts[EVAL_MAX_TENANTS];
	double mem;
	uint32_t mask[EVAL_MAX_TENANTS];
	uint32_t ddio[EVAL_MAX_SOCKETS];
	unsigned int solves; /* model evaluations it took */
};

/* Search on @v (static's layout is its start). 0 or -errno from the model. */
int eval_oracle(const struct eval_view *v, const struct eval_oracle_opts *o,
		struct eval_oracle_out *out);

#endif /* IOCAD_EVAL_ORACLE_H */
