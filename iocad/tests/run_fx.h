/* SPDX-License-Identifier: GPL-2.0 */
/* Running a scenario test's loop on the simulator, and reading its records. */
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
 * Loop options for a scenario test in ioca mode: @cfg, and @log, @reload_fn
 * and the flag @reload, both callbacks given @arg. The test adds the rest.
 */
struct loop_opts run_fx_loop_opts(const struct config *cfg, loop_log_fn log,
				  volatile sig_atomic_t *reload, loop_reload_fn reload_fn,
				  void *arg);
/*
 * Opens the simulator on scenario @scn into @pf for @lo->cfg's tenants (noise
 * off, the config's interval; @reload as sim_platform_opts.reload, may be
 * NULL), runs @lo's loop on it to the scenario's end, its records into @rec
 * (at most @max, *@n of them), and closes @pf; fails the running test on an
 * error. @pf is the callbacks' to read while the loop runs.
 */
void run_fx_sim_loop(const struct loop_opts *lo, const char *scn, volatile sig_atomic_t *reload,
		     struct platform *pf, struct loop_record *rec, size_t max, size_t *n);
/* How many of tenant @t's ways DDIO shares in @rec. */
unsigned int run_fx_overlap(const struct loop_record *rec, int t);

#endif /* IOCAD_TESTS_RUN_FX_H */
