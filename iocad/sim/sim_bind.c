// SPDX-License-Identifier: GPL-2.0
#include "sim_bind.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim_keys.h"

static int find_cfg(const struct sim_tenant_cfg *cfg, unsigned int ncfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < ncfg; i++)
		if (cfg[i].name && !strcmp(cfg[i].name, name))
			return (int)i;
	return -1;
}

/* Line of the first NIC traffic (rate > 0) tenant @t gets, 0 if none. */
static unsigned int traffic_line(const struct scenario *s, unsigned int t)
{
	unsigned int i, k;

	if (s->tenant[t].rate_line)
		return s->tenant[t].rate_line;
	for (i = 0; i < s->nevents; i++) {
		const struct scenario_event *ev = &s->events[i];

		if (ev->kind != SCN_EV_SET || ev->tenant != t)
			continue;
		for (k = 0; k < ev->nset; k++)
			if (!strcmp(sim_keys_name(ev->set[k].key), "rate") && ev->set[k].value > 0)
				return ev->line;
	}
	return 0;
}

/*
 * NIC traffic only for tenants that can receive it: networking ones, and
 * when the config has a vswitch (aggregation), the vswitch alone: it owns
 * the NIC's rings and the tenants behind it get packets over virtio.
 */
static int check_traffic(const struct scenario *s, unsigned int t, const struct sim_tenant_cfg *c,
			 const char *vswitch, char *err, size_t len)
{
	unsigned int line = traffic_line(s, t);

	if (!line)
		return 0;
	if (!c->networking) {
		snprintf(err, len,
			 "%s:%u: tenant '%s' gets traffic but the config says networking = no",
			 s->path, line, s->tenant[t].name);
		return -EINVAL;
	}
	if (vswitch && !c->vswitch) {
		snprintf(err, len,
			 "%s:%u: tenant '%s' gets NIC traffic but the config's vswitch '%s' owns "
			 "the "
			 "NIC (give the traffic to the vswitch)",
			 s->path, line, s->tenant[t].name, vswitch);
		return -EINVAL;
	}
	return 0;
}

static int from_cfg(const struct scenario *s, const struct sim_tenant_cfg *cfg, unsigned int ncfg,
		    struct sim_bind *b, char *err, size_t len)
{
	const char *vswitch = NULL;
	unsigned int i, c;

	for (i = 0; i < ncfg; i++) {
		if (cfg[i].vswitch)
			vswitch = cfg[i].name;
		if (!cfg[i].name || scenario_tenant_index(s, cfg[i].name) < 0) {
			snprintf(err, len, "%s: no [tenant %s] for the config's tenant", s->path,
				 cfg[i].name ? cfg[i].name : "(unnamed)");
			return -EINVAL;
		}
	}
	for (i = 0; i < s->ntenants; i++) {
		int k = find_cfg(cfg, ncfg, s->tenant[i].name);

		if (k < 0 && s->tenant[i].ncpus) {
			/* not managed yet: a tenant that a reload may add later */
			b->tenant_ncpus[i] = s->tenant[i].ncpus;
			memcpy(b->cpu[i], s->tenant[i].cpus,
			       s->tenant[i].ncpus * sizeof(unsigned int));
			continue;
		}
		/*
		 * not in the config and no cpus: a tenant a reload adds, described
		 * in that config only; it runs once a plan puts a group named after
		 * it on CPUs (sim_plan_check)
		 */
		if (k < 0)
			continue;
		if (cfg[k].ncpus > PLATFORM_MAX_CPUS || (cfg[k].ncpus && !cfg[k].cpus)) {
			snprintf(err, len, "config tenant '%s': bad cpu list", cfg[k].name);
			return -EINVAL;
		}
		if (check_traffic(s, i, &cfg[k], vswitch, err, len))
			return -EINVAL;
		b->tenant_ncpus[i] = cfg[k].ncpus;
		for (c = 0; c < cfg[k].ncpus; c++)
			b->cpu[i][c] = cfg[k].cpus[c];
	}
	return 0;
}

static int from_scenario(const struct scenario *s, struct sim_bind *b, char *err, size_t len)
{
	unsigned int i;

	for (i = 0; i < s->ntenants; i++) {
		if (!s->tenant[i].ncpus) {
			snprintf(err, len,
				 "%s:%u: tenant '%s' has no cpus (needed without a config)",
				 s->path, s->tenant[i].line, s->tenant[i].name);
			return -EINVAL;
		}
		b->tenant_ncpus[i] = s->tenant[i].ncpus;
		memcpy(b->cpu[i], s->tenant[i].cpus, s->tenant[i].ncpus * sizeof(unsigned int));
	}
	return 0;
}

int sim_bind_tenants(const struct scenario *s, const struct sim_tenant_cfg *cfg, unsigned int ncfg,
		     struct sim_bind *b, char *err, size_t len)
{
	unsigned char owner[PLATFORM_MAX_CPUS];
	unsigned int i, c;
	int rc;

	memset(b, 0, sizeof(*b));
	rc = ncfg ? from_cfg(s, cfg, ncfg, b, err, len) : from_scenario(s, b, err, len);
	if (rc)
		return rc;
	memset(owner, 0, sizeof(owner));
	for (i = 0; i < s->ntenants; i++)
		for (c = 0; c < b->tenant_ncpus[i]; c++) {
			unsigned int id = b->cpu[i][c];

			if (id >= PLATFORM_MAX_CPUS) {
				snprintf(err, len, "tenant '%s': cpu %u is beyond %d",
					 s->tenant[i].name, id, PLATFORM_MAX_CPUS - 1);
				return -EINVAL;
			}
			if (owner[id]) {
				snprintf(err, len,
					 "%s:%u: tenant '%s': cpu %u is also tenant '%s''s",
					 s->path, s->tenant[i].line, s->tenant[i].name, id,
					 s->tenant[owner[id] - 1].name);
				return -EINVAL;
			}
			owner[id] = (unsigned char)(i + 1);
			if (id + 1 > b->ncpus)
				b->ncpus = id + 1;
		}
	/* the machine has every CPU of its sockets, busy or not */
	if (s->cpus_per_socket) {
		unsigned int all = (s->nsockets ? s->nsockets : 1) * s->cpus_per_socket;

		if (all > b->ncpus)
			b->ncpus = all < PLATFORM_MAX_CPUS ? all : PLATFORM_MAX_CPUS;
	}
	return 0;
}

void sim_bind_group(struct sim_bind *b, unsigned int i, const struct platform_cpuset *cpus)
{
	b->tenant_ncpus[i] = 0;
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (platform_cpuset_has(cpus, c))
			b->cpu[i][b->tenant_ncpus[i]++] = c;
}
