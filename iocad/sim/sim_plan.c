// SPDX-License-Identifier: GPL-2.0
#include "sim_plan.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static bool fits(uint32_t m, unsigned int ways)
{
	uint32_t all = ways >= 32 ? 0xffffffffu : (1u << ways) - 1;

	return m && !((m >> __builtin_ctz(m)) & ((m >> __builtin_ctz(m)) + 1)) && !(m & ~all);
}

int sim_plan_check(const struct scenario *s, unsigned int ways, const struct platform_plan *plan,
		   int *idx, char *err, size_t len)
{
	err[0] = '\0';
	if (!plan || plan->ntenants > PLATFORM_MAX_TENANTS) {
		snprintf(err, len, "plan of %u tenants", plan ? plan->ntenants : 0);
		return -EINVAL;
	}
	if (!fits(plan->ddio_mask, ways)) {
		snprintf(err, len, "DDIO mask 0x%x is not contiguous within %u ways",
			 plan->ddio_mask, ways);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < plan->ntenants; i++) {
		char name[PLATFORM_NAME_LEN];
		uint32_t m = plan->tenant[i].mask;

		memcpy(name, plan->tenant[i].name, sizeof(name));
		name[sizeof(name) - 1] = '\0';
		idx[i] = scenario_tenant_index(s, name);
		if (idx[i] < 0) {
			snprintf(err, len, "tenant '%s' is not in scenario %s", name, s->path);
			return -ENOENT;
		}
		if (!fits(m, ways)) {
			snprintf(err, len,
				 "tenant '%s': mask 0x%x is not contiguous within %u ways", name, m,
				 ways);
			return -EINVAL;
		}
	}
	return 0;
}

void sim_plan_path(const struct scenario *s, const char *rel, char *out, size_t len)
{
	const char *slash = strrchr(s->path, '/');

	if (rel[0] == '/' || !slash)
		snprintf(out, len, "%s", rel);
	else
		snprintf(out, len, "%.*s/%s", (int)(slash - s->path), s->path, rel);
}
