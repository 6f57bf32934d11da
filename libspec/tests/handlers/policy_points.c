// SPDX-License-Identifier: GPL-2.0
/*
 * Handlers for the exhaustive-policy tests: one point of each kind, so the
 * candidate product is known (pk: 4 values x pr: 4 values x pa: off/on),
 * plus a generic point (not enumerable) and a custom point whose generator
 * the tests make fail.
 */
#include <libspec/annotate.h>

long policy_scale(long x, int k)
{
	const int K = spec_enum("pk", k, 1, 2, 3, 4);

	return x * K;
}

long policy_offset(long x, int r)
{
	const int R = spec_range("pr", r, 0, 3);

	spec_assume("pa", x >= 0);
	return x + R;
}

long policy_stride(long x, long g)
{
	const long G = spec_generic("pg", g);

	return x * G + 1;
}

long policy_slow_inc(long x)
{
	return x + 1;
}

long policy_lookup(long x)
{
	return spec_custom("pc", policy_slow_inc, x);
}
