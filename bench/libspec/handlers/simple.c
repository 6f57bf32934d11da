// SPDX-License-Identifier: GPL-2.0
/*
 * SimpleBench handlers, built natively (the "normal mode" baseline) and to
 * IR for the runtime, from this one source.
 */
#include <libspec/annotate.h>

#include "simple.h"

long simple_f(long a)
{
	const long x = spec_generic("a", a);

	return x * x;
}

long simple_g(long a, long b)
{
	const long y = spec_range("b", b, 0, 1023);

	return a * y;
}

/* A plain hash lookup (no point): the JIT's generic code against native. */
long simple_hash_get(const struct simple_htab *t, unsigned long key)
{
	unsigned long i = (key * 0x9e3779b97f4a7c15ul) >> (64 - SIMPLE_HTAB_BITS);

	for (;; i = (i + 1) & (SIMPLE_HTAB_SIZE - 1)) {
		if (t->keys[i] == key)
			return t->vals[i];
		if (!t->keys[i])
			return -1;
	}
}
