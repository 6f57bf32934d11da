/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line values of iocactl. Each parser returns 0, or -EINVAL with
 * a reason in @why (the caller names the argument).
 */
#ifndef IOCACTL_CTL_ARGS_H
#define IOCACTL_CTL_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <libioca.h>

/* "10ms", "500us", "2s" (config_value_duration()), in whole microseconds; "0" is 0. */
int ctl_args_interval(const char *s, uint32_t *us, char *why, size_t len);

/*
 * An --event: a kind name (instructions, cycles, llc-references,
 * llc-misses, cpu-clock, task-clock) or raw:TYPE:CONFIG[:CONFIG1].
 */
int ctl_args_event(const char *s, struct ioca_event *e, char *why, size_t len);

/* An --uncore event: TYPE:CONFIG[:CONFIG1], always raw with a type. */
int ctl_args_uncore(const char *s, struct ioca_event *e, char *why, size_t len);

#endif
