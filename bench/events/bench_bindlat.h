/* SPDX-License-Identifier: GPL-2.0 */
/* Bind latency with merges compiling beside it against none. */
#ifndef BENCH_BINDLAT_H
#define BENCH_BINDLAT_H

/* Prints bind+unbind p50/p99, idle and with merges in flight; 0 or -errno. */
int bench_bindlat(const char *ir);

#endif /* BENCH_BINDLAT_H */
