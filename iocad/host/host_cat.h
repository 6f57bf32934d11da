/* SPDX-License-Identifier: GPL-2.0 */
/*
 * From iocad's plan (one mask per tenant) to resctrl groups (one per
 * tenant, or one per config `group`, holding all its members' CPUs). The
 * tenant table is the config's, replaced on SIGHUP before the loop plans
 * for the new tenant set. Pure.
 */
#ifndef IOCAD_HOST_CAT_H
#define IOCAD_HOST_CAT_H

#include <stddef.h>

#include "config.h"
#include "platform.h"
#include "rdt.h"

struct host_cat_tenant {
	char name[PLATFORM_NAME_LEN];
	char group[PLATFORM_NAME_LEN]; /* "" : its own group */
	unsigned int cpus[PLATFORM_MAX_CPUS];
	unsigned int ncpus;
};

struct host_cat_table {
	unsigned int n;
	struct host_cat_tenant t[PLATFORM_MAX_TENANTS];
};

void host_cat_table_set(struct host_cat_table *tab, const struct config *cfg);

/* Number of resctrl groups @cfg's tenants need (tenants plus groups). */
unsigned int host_cat_ngroups(const struct config *cfg);

/*
 * Groups for @plan into @out (RDT_MAX_GROUPS entries): a group's mask is
 * its members' (they must agree), its CPUs their union. 0, or -EINVAL with
 * @err naming the tenant (unknown, members disagree, name clash).
 */
int host_cat_groups(const struct host_cat_table *tab, const struct platform_plan *plan,
		    struct rdt_group *out, unsigned int *nout, char *err, size_t errlen);

/* Every CPU of the table, ascending, into @cpus; returns the count. */
unsigned int host_cat_cpus(const struct host_cat_table *tab, uint32_t *cpus);

#endif /* IOCAD_HOST_CAT_H */
