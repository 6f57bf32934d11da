/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A figure measured in repeated runs: its median and range, and whether
 * one figure is above or below another by more than their spread (the
 * ranges do not overlap), which is the only case the example calls a gain
 * or a loss.
 */
#ifndef DPDK_SPREAD_H
#define DPDK_SPREAD_H

#include <stddef.h>

#define SPREAD_MAX_RUNS 32

/* One variant's packets per second of poll time, one per run. */
struct spread_figure {
	const char *name;
	double mpps[SPREAD_MAX_RUNS];
	double slow_share[SPREAD_MAX_RUNS]; /* lookups that took the tables */
	unsigned int rebuilds[SPREAD_MAX_RUNS];
	size_t n;
};

/* Median, lowest and highest of @f's runs. */
void spread_of(const struct spread_figure *f, double *median, double *lo, double *hi);

/* "faster ...", "slower ..." or "within the noise ..." of @x against @base. */
const char *spread_verdict(const struct spread_figure *x, const struct spread_figure *base);

/* "  name  median [lo-hi]" and, against @base (may be NULL), the ratio of
 * the medians with the verdict.
 */
void spread_print(const struct spread_figure *f, const struct spread_figure *base);

#endif /* DPDK_SPREAD_H */
