// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_check.h"
#include "config/config_socket.h"
#include "ways.h"

int config_err_at(const struct config *cfg, unsigned int line, char *err, size_t len,
		  const char *fmt, ...)
{
	va_list ap;
	int n;

	if (line)
		n = snprintf(err, len, "%s:%u: ", cfg->path, line);
	else
		n = snprintf(err, len, "%s: ", cfg->path);
	if (n >= 0 && (size_t)n < len) {
		va_start(ap, fmt);
		vsnprintf(err + n, len - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int config_check_name(const char *name)
{
	size_t n = strlen(name);

	if (!n || n >= PLATFORM_NAME_LEN)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-')
			return -EINVAL;
	return 0;
}

static int check_cpu_overlap(const struct config *cfg, char *err, size_t len)
{
	for (unsigned int j = 1; j < cfg->ntenants; j++) {
		const struct config_tenant *b = &cfg->tenant[j];

		for (unsigned int i = 0; i < j; i++) {
			const struct config_tenant *a = &cfg->tenant[i];
			unsigned int x = 0, y = 0;

			/* both lists ascending: merge walk */
			while (x < a->ncpus && y < b->ncpus) {
				if (a->cpus[x] == b->cpus[y])
					return config_err_at(
						cfg, b->cpus_line, err, len,
						"[tenant %s] cpus: CPU %u is also in tenant "
						"%s (line %u)",
						b->name, b->cpus[y], a->name, a->cpus_line);
				if (a->cpus[x] < b->cpus[y])
					x++;
				else
					y++;
			}
		}
	}
	return 0;
}

int config_check_vswitch(struct config *cfg, char *err, size_t len)
{
	int first = -1;

	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		struct config_tenant *t = &cfg->tenant[i];

		if (!t->vswitch)
			continue;
		if (cfg->model != CONFIG_MODEL_AGGREGATION)
			return config_err_at(cfg, t->vswitch_line, err, len,
					     "[tenant %s] vswitch: a virtual switch needs model = "
					     "aggregation in [platform]",
					     t->name);
		if (first >= 0)
			return config_err_at(
				cfg, t->vswitch_line, err, len,
				"[tenant %s] vswitch: tenant %s (line %u) is already the "
				"virtual switch",
				t->name, cfg->tenant[first].name, cfg->tenant[first].vswitch_line);
		first = (int)i;
		/* all traffic goes through it */
		t->networking = true;
	}
	if (cfg->model == CONFIG_MODEL_AGGREGATION && first < 0)
		return config_err_at(cfg, cfg->model_line, err, len,
				     "model: aggregation needs one tenant with vswitch = yes");
	return 0;
}

/* Link each tenant to its group's first tenant; members must agree on ways. */
static int check_groups(struct config *cfg, char *err, size_t len)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		struct config_tenant *t = &cfg->tenant[i];

		t->group_leader = 0;
		if (!t->group[0])
			continue;
		if (t->vswitch)
			return config_err_at(
				cfg, t->group_line, err, len,
				"[tenant %s] group: the virtual switch cannot share a group",
				t->name);
		/* a group and a tenant would both be resctrl group <prefix>NAME */
		for (unsigned int j = 0; j < cfg->ntenants; j++)
			if (!strcmp(cfg->tenant[j].name, t->group) &&
			    strcmp(cfg->tenant[j].group, t->group))
				return config_err_at(cfg, t->group_line, err, len,
						     "[tenant %s] group: %s is also a tenant's "
						     "name (line %u); rename one",
						     t->name, t->group, cfg->tenant[j].line);
		for (unsigned int j = 0; j < i; j++) {
			const struct config_tenant *l = &cfg->tenant[j];

			if (strcmp(l->group, t->group))
				continue;
			if (l->ways != t->ways)
				return config_err_at(
					cfg, t->ways_line, err, len,
					"[tenant %s] ways: %u, but group %s has %u (tenant "
					"%s, line %u): a group shares one mask",
					t->name, t->ways, t->group, l->ways, l->name, l->ways_line);
			t->group_leader = j + 1;
			break;
		}
	}
	return 0;
}

static bool protected_tenant(const struct config_tenant *t)
{
	return t->prio == CONFIG_PRIO_PS || t->vswitch;
}

static int check_ddio(const struct config *cfg, char *err, size_t len)
{
	if (cfg->ddio_ways_min > cfg->ddio_ways_max)
		return config_err_at(cfg, cfg->ddio_line, err, len,
				     "ddio_ways_min: %u is above ddio_ways_max %u",
				     cfg->ddio_ways_min, cfg->ddio_ways_max);
	if (cfg->ddio_ways &&
	    (cfg->ddio_ways < cfg->ddio_ways_min || cfg->ddio_ways > cfg->ddio_ways_max))
		return config_err_at(
			cfg, cfg->ddio_line, err, len,
			"ddio_ways: %u is outside ddio_ways_min..ddio_ways_max (%u..%u)",
			cfg->ddio_ways, cfg->ddio_ways_min, cfg->ddio_ways_max);
	return 0;
}

int config_check_ways(const struct config *cfg, unsigned int llc, unsigned int ddio, char *err,
		      size_t len)
{
	bool counted[PLATFORM_MAX_TENANTS] = {false};
	unsigned int sum = 0, prot = 0;

	if (cfg->ddio_ways_max > llc)
		return config_err_at(cfg, cfg->ddio_line, err, len,
				     "ddio_ways_max: %u is more than the LLC's %u ways",
				     cfg->ddio_ways_max, llc);
	if (ddio < cfg->ddio_ways_min)
		ddio = cfg->ddio_ways_min;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		unsigned int l = config_leader(cfg, i);

		if (l == i)
			sum += t->ways; /* a group's ways count once */
		if (sum > llc)
			return config_err_at(
				cfg, t->ways_line, err, len,
				"[tenant %s] ways: too many initial ways: tenants so far need "
				"%u, the LLC has %u",
				t->name, sum, llc);
		if (!protected_tenant(t) || counted[l])
			continue;
		counted[l] = true;
		prot += t->ways;
		if (prot + ddio > llc)
			return config_err_at(
				cfg, t->prio_line ? t->prio_line : t->ways_line, err, len,
				"[tenant %s] %s: PS tenant cannot be isolated from DDIO: "
				"PS and vswitch ways %u + DDIO ways %u > LLC ways %u",
				t->name, t->prio_line ? "priority" : "ways", prot, ddio, llc);
	}
	return 0;
}

/*
 * rdt_class: one class of service is one mask, so tenants naming the same
 * class are one `group`; a class is not also the name of one of iocad's
 * own groups.
 */
static int check_rdt_classes(const struct config *cfg, char *err, size_t len)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *a = &cfg->tenant[i];
		const char *ag = a->group[0] ? a->group : a->name;

		if (!a->rdt_class[0])
			continue;
		for (unsigned int j = 0; j < cfg->ntenants; j++) {
			const struct config_tenant *b = &cfg->tenant[j];
			const char *bg = b->group[0] ? b->group : b->name;

			/* its own name is fine: its group is the class, not iocad's */
			if (!strcmp(a->rdt_class, bg) && strcmp(ag, bg))
				return config_err_at(
					cfg, a->rdt_class_line, err, len,
					"[tenant %s] rdt_class: '%s' is also the name of tenant or "
					"group %s: give the class another name",
					a->name, a->rdt_class, bg);
			if (j <= i || !b->rdt_class[0] || strcmp(a->rdt_class, b->rdt_class))
				continue;
			if (!a->group[0] || strcmp(a->group, b->group))
				return config_err_at(cfg, b->rdt_class_line, err, len,
						     "[tenant %s] rdt_class: '%s' is also tenant "
						     "%s's (line %u): "
						     "tenants sharing a class have one mask, put "
						     "them in one group",
						     b->name, b->rdt_class, a->name,
						     a->rdt_class_line);
		}
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		const struct config_tenant *l = &cfg->tenant[config_leader(cfg, i)];

		if (strcmp(t->rdt_class, l->rdt_class))
			return config_err_at(
				cfg, t->rdt_class_line ? t->rdt_class_line : t->line, err, len,
				"[tenant %s] rdt_class: '%s', but group %s's first "
				"tenant %s has '%s': a group is one class of service",
				t->name, t->rdt_class, t->group, l->name, l->rdt_class);
	}
	return 0;
}

int config_inclusive_mask(const struct config_inclusive *inc, unsigned int llc_ways, uint32_t *out,
			  char *why, size_t len)
{
	uint32_t all = ways_all(llc_ways);

	switch (inc->kind) {
	case CONFIG_INCL_NONE:
		*out = 0;
		return 0;
	case CONFIG_INCL_MASK:
		if (inc->value & ~all) {
			snprintf(why, len,
				 "0x%x is beyond the LLC's %u ways (0x%x): give a mask within "
				 "them, a number of ways or none",
				 inc->value, llc_ways, all);
			return -EINVAL;
		}
		*out = inc->value;
		return 0;
	case CONFIG_INCL_COUNT:
		if (inc->value >= llc_ways) {
			snprintf(why, len,
				 "%u ways, but the LLC has %u: the inclusive ways are fewer than "
				 "the LLC's (a mask, a smaller number or none)",
				 inc->value, llc_ways);
			return -EINVAL;
		}
		*out = ways_mask(0, inc->value);
		return 0;
	case CONFIG_INCL_DEFAULT:
	default:
		/* A4 measured Skylake-SP's 11 ways; other parts are unknown */
		*out = llc_ways == 11 ? 0x003 : 0;
		return 0;
	}
}

/* Resolve inclusive_ways against @llc ways; @where names the socket, or "". */
static int check_inclusive(struct config *cfg, unsigned int llc, const char *where, char *err,
			   size_t len)
{
	char why[160];
	uint32_t m;

	if (config_inclusive_mask(&cfg->inclusive, llc, &m, why, sizeof(why)))
		return config_err_at(cfg, cfg->inclusive.line, err, len, "inclusive_ways: %s%s",
				     why, where);
	cfg->inclusive_mask = m;
	return 0;
}

int config_check(struct config *cfg, char *err, size_t len)
{
	int r;

	/* a main file with tenants_dir may leave every tenant to the drop-ins (dropin.h) */
	if (!cfg->ntenants && cfg->ntenants_dirs)
		return check_ddio(cfg, err, len);
	if (!cfg->ntenants)
		return config_err_at(cfg, 0, err, len,
				     "no [tenant NAME] section: nothing to manage");
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];

		if (!t->ncpus)
			return config_err_at(cfg, t->line, err, len,
					     "[tenant %s] cpus: missing (required)", t->name);
		if (!t->ways)
			return config_err_at(cfg, t->line, err, len,
					     "[tenant %s] ways: missing (required)", t->name);
	}
	r = check_cpu_overlap(cfg, err, len);
	if (!r)
		r = config_has_socket_sections(cfg) ? 0 : config_check_vswitch(cfg, err, len);
	if (!r)
		r = check_groups(cfg, err, len);
	if (!r)
		r = check_rdt_classes(cfg, err, len);
	if (!r)
		r = check_ddio(cfg, err, len);
	/*
	 * Which socket a tenant is on is known only against the platform;
	 * a config with [socket N] sections has its ways checked per socket
	 * there (config_for_socket), a single-socket one already here.
	 */
	if (!r && cfg->llc_ways && !config_has_socket_sections(cfg))
		r = config_check_ways(cfg, cfg->llc_ways, cfg->ddio_ways, err, len);
	if (!r && cfg->llc_ways && !config_has_socket_sections(cfg))
		r = check_inclusive(cfg, cfg->llc_ways, "", err, len);
	return r;
}

int config_resolve(struct config *cfg, const struct platform_info *info, char *err, size_t len)
{
	const struct platform_socket_info *si = &info->socket[cfg->socket % PLATFORM_MAX_SOCKETS];
	unsigned int llc = cfg->llc_ways, ddio = cfg->ddio_ways;
	int r;

	if (si->llc_ways < 2 || si->llc_ways > 32)
		return config_err_at(cfg, 0, err, len,
				     "socket %u: platform reports %u LLC ways (supported: 2..32)",
				     cfg->socket, si->llc_ways);
	if (llc && llc != si->llc_ways)
		return config_err_at(cfg, cfg->llc_ways_line, err, len,
				     "llc_ways: %u, but the platform's LLC has %u ways (socket %u)",
				     llc, si->llc_ways, cfg->socket);
	llc = si->llc_ways;
	if (!ddio) {
		ddio = (unsigned int)__builtin_popcount(si->ddio_mask);
		if (ddio < cfg->ddio_ways_min)
			ddio = cfg->ddio_ways_min;
		if (ddio > cfg->ddio_ways_max)
			ddio = cfg->ddio_ways_max;
	}
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];

		if (t->cpus[t->ncpus - 1] >= info->ncpus)
			return config_err_at(
				cfg, t->cpus_line, err, len,
				"[tenant %s] cpus: CPU %u does not exist (platform has %u)",
				t->name, t->cpus[t->ncpus - 1], info->ncpus);
	}
	r = config_check_ways(cfg, llc, ddio, err, len);
	if (!r) {
		char where[32];

		snprintf(where, sizeof(where), " (socket %u)", cfg->socket);
		r = check_inclusive(cfg, llc, where, err, len);
	}
	if (r)
		return r;
	cfg->llc_ways = llc;
	cfg->ddio_ways = ddio;
	return 0;
}

int config_tenant_index(const struct config *cfg, const char *name)
{
	for (unsigned int i = 0; i < cfg->ntenants; i++)
		if (!strcmp(cfg->tenant[i].name, name))
			return (int)i;
	return -1;
}
