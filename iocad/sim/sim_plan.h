/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking a plan iocad applies against the simulated platform, before
 * any of it takes effect: every tenant known to the scenario, every mask
 * contiguous within the LLC. Errors name the tenant.
 */
#ifndef IOCAD_SIM_PLAN_H
#define IOCAD_SIM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "scenario.h"

/*
 * Check @plan for scenario @s with @ways LLC ways; on success @idx[k] is
 * the scenario index of plan tenant k. Returns 0, -EINVAL or -ENOENT
 * with @err saying what and whose.
 */
int sim_plan_check(const struct scenario *s, unsigned int ways, const struct platform_plan *plan,
		   int *idx, char *err, size_t len);

/* A path from a scenario event, relative to the scenario's directory. */
void sim_plan_path(const struct scenario *s, const char *rel, char *out, size_t len);

#endif /* IOCAD_SIM_PLAN_H */
