/* SPDX-License-Identifier: GPL-2.0 */
/* SimpleBench (the Iridescent paper, section 6.4). */
#ifndef BENCH_SIMPLE_HANDLERS_H
#define BENCH_SIMPLE_HANDLERS_H

/* f(a) = a * a, with a generic point on a */
long simple_f(long a);
/* g(a, b) = a * b, with a range point on b (0..1023) */
long simple_g(long a, long b);

#endif /* BENCH_SIMPLE_HANDLERS_H */
