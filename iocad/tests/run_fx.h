/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a finished loop run's records in the scenario tests. */
#ifndef IOCAD_TESTS_RUN_FX_H
#define IOCAD_TESTS_RUN_FX_H

#include "config/config.h"
#include "loop/loop.h"
#include "sim_platform.h"

/* @name's tenant index in @cfg; fails the running test if there is none. */
int run_fx_tenant(const struct config *cfg, const char *name);
/*
 * The path of examples/iocad/@name from the build directory or the top
 * (static storage, valid until the next call); fails the test if absent.
 */
const char *run_fx_example(const char *name);
/* @t[i]: the simulator's view of @cfg's tenant i (name, CPUs, roles), for its opts. */
void run_fx_sim_tenants(const struct config *cfg, struct sim_tenant_cfg *t);
/*
 * Opens the simulator on scenario @scn for @cfg's tenants (noise off, @cfg's
 * interval; @reload as sim_platform_opts.reload, may be NULL) into @pf;
 * fails the running test on an error.
 */
void run_fx_sim_open(const char *scn, const struct config *cfg, volatile sig_atomic_t *reload,
		     struct platform *pf);
/* How many of tenant @t's ways DDIO shares in @rec. */
unsigned int run_fx_overlap(const struct loop_record *rec, int t);

#endif /* IOCAD_TESTS_RUN_FX_H */
