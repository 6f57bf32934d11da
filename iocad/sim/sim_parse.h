/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Value syntax of scenario files: sizes (binary K/M/G, optional B), counts
 * and rates (decimal K/M/G, optional "pps"), times (s, ms, us, ns), masks,
 * booleans and CPU lists. Each returns 0 or -EINVAL and leaves @out alone
 * on error; the caller names file, line and key.
 */
#ifndef IOCAD_SIM_PARSE_H
#define IOCAD_SIM_PARSE_H

#include <stdbool.h>
#include <stdint.h>

int sim_parse_real(const char *s, double *out);
int sim_parse_size(const char *s, double *out);
int sim_parse_count(const char *s, double *out);
int sim_parse_time(const char *s, uint64_t *out_ns);
int sim_parse_mask(const char *s, uint32_t *out);
int sim_parse_bool(const char *s, bool *out);
/* "0-3,8": ascending, no duplicates, each id < @max. */
int sim_parse_cpus(const char *s, unsigned int *cpus, unsigned int *n, unsigned int max);

#endif /* IOCAD_SIM_PARSE_H */
