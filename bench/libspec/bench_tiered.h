/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_TIERED_H
#define BENCH_TIERED_H

/*
 * Tiered compiles (spec_runtime_opts.first_pipeline): time to the first and
 * to the final installed MMul variant against today's single O3 compile,
 * and the final code's cycles against today's, printed. 0 or -errno.
 */
int bench_tiered(const char *ir);

#endif /* BENCH_TIERED_H */
