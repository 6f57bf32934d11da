/* SPDX-License-Identifier: GPL-2.0 */
/* Code size of merged handlers against the handlers' generic code. */
#ifndef BENCH_SIZE_H
#define BENCH_SIZE_H

/* Prints the code-size line for the CTP IR at @ir; 0 or -errno. */
int bench_size(const char *ir);

#endif /* BENCH_SIZE_H */
