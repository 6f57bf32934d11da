// SPDX-License-Identifier: GPL-2.0
#include <libspec/annotate.h>

#include "measured.h"

long ms_work(const long *a, long n)
{
	const long m = spec_generic("m", n);
	long s = 0;

	for (long i = 0; i < m; i++)
		s += a[i] * 3 + (a[i] >> 2);
	return s;
}

long ms_tie(long n)
{
	const long t = spec_generic("t", n);

	return ms_heavy(t);
}
