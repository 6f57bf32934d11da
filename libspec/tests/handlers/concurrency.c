// SPDX-License-Identifier: GPL-2.0
/* Handler for the concurrency test (test IR). */
#include <libspec/annotate.h>

long wk_sum(long a, long b)
{
	long s = 0;

	b = spec_enum("wb", b, 1, 2, 3, 4, 5, 6, 7, 8);
	for (long i = 0; i < b; i++)
		s += a * (i + 1);
	return s;
}

/* Waits inside the fixed code, to hold a variant while it is evicted. */
extern void wk_block(void);

long wk_held(long a, long b)
{
	b = spec_range("hb", b, 0, 100);
	wk_block();
	return a * b + 1;
}
