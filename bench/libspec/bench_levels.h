/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_LEVELS_H
#define BENCH_LEVELS_H

#include <libspec/libspec.h>

/*
 * MMul variants compiled with the O3, O2 and O1 pipelines: compile phases
 * and the cycles of the code each gives, printed. 0 or -errno.
 */
int bench_levels(struct spec_runtime *rt);

#endif /* BENCH_LEVELS_H */
