/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The keys of scenario files: the [platform] keys and the tenant workload
 * keys (also what 'set', 'traffic' and 'workload' events may change), with
 * their value syntax and ranges. Errors come back as "key: problem" text
 * for the parser to prefix with file:line.
 */
#ifndef IOCAD_SIM_KEYS_H
#define IOCAD_SIM_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

/* Groups of tenant keys an event verb may change (0: any). */
#define SIM_KEYS_WORKLOAD 1
#define SIM_KEYS_TRAFFIC 2

/* Parse tenant key @key = @val into @out. 0 or -EINVAL with @msg set. */
int sim_keys_tenant(const char *key, const char *val, int group, struct scenario_set *out,
		    char *msg, size_t len);

/* Parse [platform] key @key = @val into @s. 0 or -EINVAL with @msg set. */
int sim_keys_platform(struct scenario *s, const char *key, const char *val, char *msg, size_t len);

/* Store a parsed tenant key in a workload. */
void sim_keys_apply(struct sim_workload *w, const struct scenario_set *set);

/* A tenant name: 1 to PLATFORM_NAME_LEN - 1 characters of [A-Za-z0-9_.-]. */
bool sim_keys_valid_name(const char *name);

/* Name of tenant key @key, "?" if none. */
const char *sim_keys_name(int key);

#endif /* IOCAD_SIM_KEYS_H */
