// SPDX-License-Identifier: GPL-2.0
/* Plan to resctrl groups and sampled CPUs. */
#include <string.h>

#include "host_cat.h"

unsigned int host_cat_groups(const struct platform_socket_plan *sp, struct rdt_group *out)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < sp->ngroups && n < RDT_MAX_GROUPS; k++) {
		const struct platform_group *g = &sp->group[k];
		struct rdt_group *o = &out[n++];

		memset(o, 0, sizeof(*o));
		/* a runtime's RDT class (rdt_class) is that group, by its name */
		o->shared = g->rdt_class[0] != '\0';
		memcpy(o->name, o->shared ? g->rdt_class : g->name, sizeof(o->name));
		o->name[sizeof(o->name) - 1] = '\0';
		o->mask = g->mask;
		for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
			if (platform_cpuset_has(&g->cpus, c))
				o->cpus[o->ncpus++] = c;
	}
	return n;
}

static void union_of(const struct platform_plan *p, struct platform_cpuset *u)
{
	memset(u, 0, sizeof(*u));
	for (unsigned int k = 0; k < p->nsockets; k++)
		for (unsigned int w = 0; w < PLATFORM_MAX_CPUS / 64; w++)
			u->w[w] |= p->socket[k].sample_cpus.w[w];
}

unsigned int host_cat_cpus(const struct platform_plan *p, uint32_t *cpus)
{
	struct platform_cpuset u;
	unsigned int n = 0;

	union_of(p, &u);
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (platform_cpuset_has(&u, c))
			cpus[n++] = c;
	return n;
}

bool host_cat_same_sampling(const struct platform_plan *p, const struct platform_plan *q)
{
	struct platform_cpuset a, b;

	union_of(p, &a);
	union_of(q, &b);
	return p->interval_ns == q->interval_ns && p->events == q->events &&
	       !memcmp(&a, &b, sizeof(a));
}
