// SPDX-License-Identifier: GPL-2.0
/* Plan to resctrl groups. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "host_cat.h"

void host_cat_table_set(struct host_cat_table *tab, const struct config *cfg)
{
	memset(tab, 0, sizeof(*tab));
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		struct host_cat_tenant *t = &tab->t[i];

		memcpy(t->name, cfg->tenant[i].name, sizeof(t->name));
		memcpy(t->group, cfg->tenant[i].group, sizeof(t->group));
		memcpy(t->cpus, cfg->tenant[i].cpus, cfg->tenant[i].ncpus * sizeof(t->cpus[0]));
		t->ncpus = cfg->tenant[i].ncpus;
	}
	tab->n = cfg->ntenants;
}

unsigned int host_cat_ngroups(const struct config *cfg)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (config_leader(cfg, i) == i)
			n++;
	return n;
}

static const struct host_cat_tenant *lookup(const struct host_cat_table *tab, const char *name)
{
	for (unsigned int i = 0; i < tab->n; i++)
		if (!strcmp(tab->t[i].name, name))
			return &tab->t[i];
	return NULL;
}

/* Merge @cpus into the ascending list of @g. */
static void add_cpus(struct rdt_group *g, const unsigned int *cpus, unsigned int n)
{
	bool in[PLATFORM_MAX_CPUS] = {false};

	for (unsigned int i = 0; i < g->ncpus; i++)
		in[g->cpus[i]] = true;
	for (unsigned int i = 0; i < n; i++)
		if (cpus[i] < PLATFORM_MAX_CPUS)
			in[cpus[i]] = true;
	g->ncpus = 0;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (in[c])
			g->cpus[g->ncpus++] = c;
}

int host_cat_groups(const struct host_cat_table *tab, const struct platform_plan *plan,
		    struct rdt_group *out, unsigned int *nout, char *err, size_t errlen)
{
	bool from_group[RDT_MAX_GROUPS] = {false};
	unsigned int n = 0;

	for (unsigned int i = 0; i < plan->ntenants; i++) {
		const struct host_cat_tenant *t = lookup(tab, plan->tenant[i].name);
		const char *gname;
		unsigned int k;

		if (!t) {
			snprintf(err, errlen, "plan names tenant %s, which has no CPUs on record",
				 plan->tenant[i].name);
			return -EINVAL;
		}
		gname = t->group[0] ? t->group : t->name;
		for (k = 0; k < n; k++)
			if (!strcmp(out[k].name, gname))
				break;
		if (k < n) {
			if (!t->group[0] || !from_group[k]) {
				snprintf(err, errlen,
					 "tenant %s: resctrl group name %s is both a tenant and a "
					 "group; rename one",
					 t->name, gname);
				return -EINVAL;
			}
			if (out[k].mask != plan->tenant[i].mask) {
				snprintf(err, errlen,
					 "group %s: tenant %s has mask 0x%x, another member 0x%x",
					 gname, t->name, plan->tenant[i].mask, out[k].mask);
				return -EINVAL;
			}
		} else {
			if (n == RDT_MAX_GROUPS)
				return -E2BIG;
			memset(&out[n], 0, sizeof(out[n]));
			memcpy(out[n].name, gname, strlen(gname) + 1);
			out[n].mask = plan->tenant[i].mask;
			from_group[n] = t->group[0] != '\0';
			k = n++;
		}
		add_cpus(&out[k], t->cpus, t->ncpus);
	}
	*nout = n;
	return 0;
}

unsigned int host_cat_cpus(const struct host_cat_table *tab, uint32_t *cpus)
{
	bool in[PLATFORM_MAX_CPUS] = {false};
	unsigned int n = 0;

	for (unsigned int i = 0; i < tab->n; i++)
		for (unsigned int k = 0; k < tab->t[i].ncpus; k++)
			in[tab->t[i].cpus[k]] = true;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (in[c])
			cpus[n++] = c;
	return n;
}
