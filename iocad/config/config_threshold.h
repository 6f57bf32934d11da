/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The thresholds of A4's rules as config keys: storage DDIO's `auto`
 * (decide_device.h; storage_*, in [platform] and per [device ADDR]) and
 * the antagonist verdict (antagonist.h; antagonist_*, in [platform]).
 * Not given: the rules' own defaults. CONFIG.md lists the keys, their
 * units and ranges.
 */
#ifndef IOCAD_CONFIG_THRESHOLD_H
#define IOCAD_CONFIG_THRESHOLD_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/policy.h"

/* The rules' defaults, no key given. */
void config_thr_defaults(struct config_thr *t);

/*
 * @key = @val at @line into @t. @storage_only: a [device ADDR] section,
 * where only storage_* keys are. Returns 1 if @key is none of these keys,
 * 0, -EEXIST if it was given before, or -EINVAL (the value out of range,
 * not in its unit), with the reason in @why.
 */
int config_thr_key(struct config_thr *t, const char *key, const char *val, unsigned int line,
		   bool storage_only, char *why, size_t len);

/* The keys @t was not given, from @from (a device's from [platform]'s). */
void config_thr_inherit(struct config_thr *t, const struct config_thr *from);

/*
 * The pairs agree: storage_off_rate above storage_quiet_rate,
 * storage_miss_high above storage_miss_low, antagonist_l2_high and
 * antagonist_llc_high at least their _low. Returns 0, or -EINVAL with the
 * reason in @why and in @line the line of the later of the pair's keys
 * given (0: neither).
 */
int config_thr_check(const struct config_thr *t, unsigned int *line, char *why, size_t len);

#endif /* IOCAD_CONFIG_THRESHOLD_H */
