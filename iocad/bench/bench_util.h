/* SPDX-License-Identifier: GPL-2.0 */
/* What the iocad benches share: inputs, a clock and a synthetic config. */
#ifndef IOCAD_BENCH_BENCH_UTIL_H
#define IOCAD_BENCH_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

#include "config/config.h"

/* xorshift64 on *@state: cheap, repeatable counter noise in [0, @n). */
uint64_t bench_rnd(uint64_t *state, uint64_t n);
/* @clock in microseconds. */
double bench_now_us(clockid_t clock);
/*
 * @nt tenants splitting @ncpus evenly on @llc_ways ways, DDIO on 2: every
 * 4th tenant PS, every other one networking, one way each.
 */
void bench_config(struct config *c, unsigned int nt, unsigned int ncpus, unsigned int llc_ways);

#endif /* IOCAD_BENCH_BENCH_UTIL_H */
