/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's own random numbers: xoshiro256** seeded through
 * splitmix64, so a run is the same for a seed on every libc and nothing
 * else in the process (rand(), other simulators) can perturb it.
 */
#ifndef IOCAD_SIM_RNG_H
#define IOCAD_SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_next(struct sim_rng *r);
/* Uniform in [0, 1), 53 bits. */
double sim_rng_uniform(struct sim_rng *r);
/* Standard normal (Box-Muller; the second value is discarded to keep no hidden state). */
double sim_rng_normal(struct sim_rng *r);

#endif /* IOCAD_SIM_RNG_H */
