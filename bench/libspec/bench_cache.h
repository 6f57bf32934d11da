/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_CACHE_H
#define BENCH_CACHE_H

/*
 * MMul compile times without and with the code cache, then this program
 * (@self) restarted as "cache-warm" on the same directory. Returns 0 or
 * -errno.
 */
int bench_cache(const char *ir, const char *self);

/*
 * The restarted process: the variants from @dir, timed and checked, beside
 * the cold figures of the first process.
 */
int bench_cache_warm(const char *ir, const char *dir, double cold_ms, double cold_load_ms);

#endif /* BENCH_CACHE_H */
