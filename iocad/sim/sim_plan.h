/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checking a plan iocad applies against the simulated platform, before
 * any of it takes effect: the socket simulated, every mask contiguous
 * within the LLC, every group's CPUs those of scenario tenants. Like
 * resctrl, a tenant's class is the group holding its CPUs. Errors name
 * the group.
 */
#ifndef IOCAD_SIM_PLAN_H
#define IOCAD_SIM_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "scenario.h"
#include "sim_bind.h"
#include "sim_socket.h"

/*
 * Check @plan for scenario @s (its tenants bound to CPUs by @b, on the
 * sockets of @ss) with @ways LLC ways per socket. On success @mask[i] is
 * scenario tenant i's CAT mask (@all when no group holds its CPUs) and
 * @ddio[socket] each planned socket's DDIO mask (the others' left as
 * given). A group whose CPUs run no tenant but which is named after a
 * scenario tenant without CPUs (one that joins by the config alone) is
 * that tenant's: @late[i] (may be NULL) is then its group, else NULL.
 * Returns 0, -EINVAL or -ENOENT with @err saying what and whose.
 */
int sim_plan_check(const struct scenario *s, const struct sim_bind *b, const struct sim_sockets *ss,
		   unsigned int ways, const struct platform_plan *plan, uint32_t all,
		   uint32_t *mask, uint32_t *ddio, const struct platform_group **late, char *err,
		   size_t len);

/* A path from a scenario event, relative to the scenario's directory. */
void sim_plan_path(const struct scenario *s, const char *rel, char *out, size_t len);

#endif /* IOCAD_SIM_PLAN_H */
