/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one value syntax of everything iocad reads from outside: the tenant
 * config, simulator scenarios and iocactl's arguments. Each parser returns
 * 0, or -EINVAL with a short reason in @why (the caller adds file, line and
 * key, or the argument), and leaves @out alone on error.
 *
 * Durations carry their unit ("10ms", "500us", "2s", "1.5s", "100ns"): a
 * bare number other than 0 is refused, since the simulator's seconds and
 * the module's microseconds would read it differently. Keys whose name says
 * the unit (interval_ms) take whole numbers through config_value_uint().
 */
#ifndef IOCAD_CONFIG_VALUE_H
#define IOCAD_CONFIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Plain decimal digits, within @min..@max. */
int config_value_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		      char *why, size_t len);
/* A whole number in C notation (0x600, 3), at most @max: masks, seeds, raw events. */
int config_value_u64(const char *s, uint64_t max, uint64_t *out, char *why, size_t len);
/* A finite number (no leading blank), within @min..@max. */
int config_value_double(const char *s, double min, double max, double *out, char *why, size_t len);
/* yes, true, 1 or no, false, 0 (any case). */
int config_value_bool(const char *s, bool *out, char *why, size_t len);
/* A duration with its unit (ns, us, ms, s), into nanoseconds; at most 1e18 ns. */
int config_value_duration(const char *s, uint64_t *ns, char *why, size_t len);
/* A size in bytes: binary K, M, G, an optional B ("2.25M", "512KB"). */
int config_value_size(const char *s, double *out, char *why, size_t len);
/* A count or rate: decimal K, M, G, an optional "pps" ("2M", "300Kpps"). */
int config_value_count(const char *s, double *out, char *why, size_t len);
/*
 * A rate in bytes per second: decimal K, M, G, then B/s ("200MB/s",
 * "1.5GB/s"); a bare number other than 0 is refused.
 */
int config_value_rate(const char *s, double *out, char *why, size_t len);

/*
 * CPU list "0-3,8": ascending ids into @cpus (PLATFORM_MAX_CPUS entries),
 * count into @n. Rejects empty items, reversed ranges, ids past
 * PLATFORM_MAX_CPUS-1 and repeated ids.
 */
int config_value_cpus(const char *s, unsigned int *cpus, unsigned int *n, char *why, size_t len);

#endif /* IOCAD_CONFIG_VALUE_H */
