/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_MEASURED_H
#define BENCH_MEASURED_H

/*
 * Measured tiers (spec_runtime_opts.measure_tiers) on MMul and on
 * SimpleBench's f while a thread calls: per job, time to each installed
 * tier or "skipped", the timed cycles before and under each tier, and the
 * tier kept; printed. 0 or -errno.
 */
int bench_measured(const char *mmul_ir, const char *simple_ir);

#endif /* BENCH_MEASURED_H */
