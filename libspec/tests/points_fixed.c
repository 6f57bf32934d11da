// SPDX-License-Identifier: GPL-2.0
/* Linked into every test binary (exported with -rdynamic for the JIT). */
#include "points_fixed.h"

long svc_total;

long svc_scale(long v)
{
	return v * 10;
}

long points_enum_ref(long a, long b)
{
	long s = 0;

	for (long i = 0; i < b; i++)
		s += a * i + (a ^ i);
	return s;
}
