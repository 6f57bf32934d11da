/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the libspec benchmarks: cycle counter, summaries, runtime setup. */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <libspec/libspec.h>

/* Time-stamp counter, ordered against earlier loads/stores. */
uint64_t bench_cycles(void);
/* CLOCK_MONOTONIC in ns. */
uint64_t bench_ns(void);

/* Smallest of @n values: the run least disturbed by other load. */
double bench_min(const double *v, size_t n);
/*
 * The @q-quantile (0..1, nearest rank) of @n values: sorts a copy in @tmp
 * (@n doubles; may be @v itself, which is then sorted in place).
 */
double bench_quantile(const double *v, size_t n, double q, double *tmp);
/* Mean and sample standard deviation of @n values. */
void bench_mean_sd(const double *v, size_t n, double *mean, double *sd);

/* Open and load @ir; prints the reason and returns NULL on failure. */
struct spec_runtime *bench_open(const char *ir);

/*
 * Install the configuration written as text (spec_config__format()
 * syntax; "" is the generic variant) and wait for it. Prints and returns
 * -errno on failure.
 */
int bench_install(struct spec_runtime *rt, const char *text);

#endif /* BENCH_UTIL_H */
