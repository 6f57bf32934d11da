/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_JIT_H
#define BENCH_JIT_H

#include <libspec/libspec.h>

/*
 * JIT cost: compile time of one MMul variant (@mm holds the matmul IR),
 * and the time from spec_runtime__specialize() to the first call that runs
 * the new variant, compiled and cached (@simple holds SimpleBench's IR).
 * Returns 0 or -errno.
 */
int bench_jit(struct spec_runtime *mm, struct spec_runtime *simple);

#endif /* BENCH_JIT_H */
