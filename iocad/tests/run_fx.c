// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "run_fx.h"

int run_fx_tenant(const struct config *cfg, const char *name)
{
	int i = config_tenant_index(cfg, name);

	assert_true(i >= 0);
	return i;
}

unsigned int run_fx_overlap(const struct loop_record *rec, int t)
{
	return (unsigned int)__builtin_popcount(rec->tenant[t].mask & rec->ddio_mask);
}

const char *run_fx_example(const char *name)
{
	static char path[256];
	static const char *const dirs[] = {"../examples/iocad/", "examples/iocad/"};

	for (size_t d = 0; d < 2; d++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s%s", dirs[d], name);
		f = fopen(path, "r");
		if (f) {
			fclose(f);
			return path;
		}
	}
	fail_msg("no example %s", name);
	return NULL;
}

void run_fx_sim_tenants(const struct config *cfg, struct sim_tenant_cfg *t)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		t[i] = (struct sim_tenant_cfg){.name = cfg->tenant[i].name,
					       .cpus = cfg->tenant[i].cpus,
					       .ncpus = cfg->tenant[i].ncpus,
					       .networking = cfg->tenant[i].networking,
					       .vswitch = cfg->tenant[i].vswitch};
}

static void sim_open(const char *scn, const struct config *cfg, volatile sig_atomic_t *reload,
		     struct platform *pf)
{
	struct sim_tenant_cfg t[PLATFORM_MAX_TENANTS];
	char err[512] = "";

	run_fx_sim_tenants(cfg, t);
	struct sim_platform_opts o = {.sz = sizeof(o),
				      .noise = -1,
				      .interval_ns = cfg->interval_ns,
				      .tenants = t,
				      .ntenants = cfg->ntenants,
				      .reload = reload};

	if (sim_platform_open(scn, &o, pf, err, sizeof(err)))
		fail_msg("%s", err);
}

struct loop_opts run_fx_loop_opts(const struct config *cfg, loop_log_fn log,
				  volatile sig_atomic_t *reload, loop_reload_fn reload_fn,
				  void *arg)
{
	return (struct loop_opts){.sz = sizeof(struct loop_opts),
				  .cfg = cfg,
				  .mode = IOCAD_MODE_IOCA,
				  .log = log,
				  .log_arg = arg,
				  .reload = reload,
				  .reload_fn = reload_fn,
				  .reload_arg = arg};
}

void run_fx_sim_loop(const struct loop_opts *lo, const char *scn, volatile sig_atomic_t *reload,
		     struct platform *pf, struct loop_record *rec, size_t max, size_t *n)
{
	sim_open(scn, lo->cfg, reload, pf);
	assert_int_equal(loop_run(lo, pf, rec, max, n), 0);
	pf->ops->destroy(pf->ctx);
}
