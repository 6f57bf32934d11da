/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_SIMPLE_H
#define BENCH_SIMPLE_H

#include <libspec/libspec.h>

/*
 * SimpleBench: cycles per call of f(a)=a*a (generic point) and g(a,b)=a*b
 * (range point) through the runtime's stable pointers: generic, specialized
 * without guard, guard passing, guard failing, sampling every call and
 * every 64th; against the native build in the same run. @rt holds
 * handlers/simple.c's IR. Returns 0 or -errno.
 */
int bench_simple(struct spec_runtime *rt);

#endif /* BENCH_SIMPLE_H */
