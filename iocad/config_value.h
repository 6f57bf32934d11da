/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value parsers for config keys. Each returns 0, or -EINVAL with a short
 * reason in @why (the caller adds file, line and key).
 */
#ifndef IOCAD_CONFIG_VALUE_H
#define IOCAD_CONFIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>

int config_value_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		      char *why, size_t len);
int config_value_double(const char *s, double min, double max, double *out, char *why, size_t len);
int config_value_bool(const char *s, bool *out, char *why, size_t len);

/*
 * CPU list "0-3,8": ascending ids into @cpus (PLATFORM_MAX_CPUS entries),
 * count into @n. Rejects empty items, reversed ranges, ids past
 * PLATFORM_MAX_CPUS-1 and repeated ids.
 */
int config_value_cpus(const char *s, unsigned int *cpus, unsigned int *n, char *why, size_t len);

#endif /* IOCAD_CONFIG_VALUE_H */
