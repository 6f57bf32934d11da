/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BENCH_HASH_H
#define BENCH_HASH_H

#include <libspec/libspec.h>

/*
 * A plain hash lookup (handlers/simple.c, no point): the native build
 * against the JIT's generic variant, through the stub, a bare jump, its
 * own code and spec_runtime__handler_entry(), in interleaved rounds, on a
 * repeating and on a random key sequence; the native bytes copied to other
 * places as a control for where code sits; a byte comparison of the two.
 * @rt holds handlers/simple.c's IR. Prints figures only. Returns 0 or
 * -errno.
 */
int bench_hash(struct spec_runtime *rt);

#endif /* BENCH_HASH_H */
