/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binding a scenario's tenants to the cores they run on: from iocad's
 * config when the caller passes tenants (the config is the truth about
 * cores and roles; every tenant must be in both files), else from the
 * scenario's own cpus= keys. Also checks that the scenario's NIC traffic
 * only goes to tenants the config calls networking, and only to the vswitch
 * when there is one (the aggregation model).
 */
#ifndef IOCAD_SIM_BIND_H
#define IOCAD_SIM_BIND_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* A tenant of the config, as sim_platform_open() (sim_platform.h) takes it. */
struct sim_tenant_cfg {
	const char *name;	  /* matches a [tenant NAME] in the scenario */
	const unsigned int *cpus; /* cpu ids */
	unsigned int ncpus;
	bool networking;
	bool vswitch;
};

struct sim_bind {
	unsigned int ncpus; /* highest cpu id + 1 */
	unsigned int tenant_ncpus[PLATFORM_MAX_TENANTS];
	unsigned int cpu[PLATFORM_MAX_TENANTS][PLATFORM_MAX_CPUS];
};

/*
 * Fill @b for the tenants of @s (in scenario order) from @cfg (may be
 * NULL or empty). A scenario tenant the config lacks takes the scenario's
 * cpus, or without them stays unbound (no CPUs) until a plan names it.
 * With cpus_per_socket the machine has every CPU of its sockets.
 * Returns 0 or -EINVAL with @err naming file:line.
 */
int sim_bind_tenants(const struct scenario *s, const struct sim_tenant_cfg *cfg, unsigned int ncfg,
		     struct sim_bind *b, char *err, size_t len);

/* Bind scenario tenant @i, unbound until now, to the CPUs of @cpus. */
void sim_bind_group(struct sim_bind *b, unsigned int i, const struct platform_cpuset *cpus);

#endif /* IOCAD_SIM_BIND_H */
