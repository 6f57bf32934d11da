/* SPDX-License-Identifier: GPL-2.0 */
/* SimpleBench (the Iridescent paper, section 6.4). */
#ifndef BENCH_SIMPLE_HANDLERS_H
#define BENCH_SIMPLE_HANDLERS_H

/* f(a) = a * a, with a generic point on a */
long simple_f(long a);
/* g(a, b) = a * b, with a range point on b (0..1023) */
long simple_g(long a, long b);

#define SIMPLE_HTAB_BITS 12
#define SIMPLE_HTAB_SIZE (1ul << SIMPLE_HTAB_BITS)

/* Open addressing, linear probing; key 0 marks an empty slot. */
struct simple_htab {
	unsigned long keys[SIMPLE_HTAB_SIZE];
	long vals[SIMPLE_HTAB_SIZE];
};

/* The value of @key, or -1 */
long simple_hash_get(const struct simple_htab *t, unsigned long key);

#endif /* BENCH_SIMPLE_HANDLERS_H */
