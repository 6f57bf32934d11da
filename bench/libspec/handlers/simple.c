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
