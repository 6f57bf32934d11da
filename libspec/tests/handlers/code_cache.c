// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers for tests/test_code_cache.c: each kind of process address a
 * variant embeds (a guard's record, a pointer point's target, a
 * generator's data) and each kind of key part (a configuration value,
 * data a generator compiles in).
 */
#include <libspec/annotate.h>

#include "code_cache.h"

/* A guarded value: the guard's failure path names its point record. */
long cc_scale(long a, long k)
{
	long s = 0;

	k = spec_generic("k", k);
	for (long i = 0; i < k; i++)
		s += a * i + (a ^ i);
	return s;
}

/* A pointer point set to data: the variant reads through the address. */
long cc_read(const long *tab, long i)
{
	tab = spec_ptr("tab", tab);
	return tab[i & 7] * 3 + i;
}

/* A generated point: the table's pairs become compiled-in answers. */
long cc_find(const struct cc_table *t, uint32_t x)
{
	return spec_gen("find", cc_lookup, t, x);
}
