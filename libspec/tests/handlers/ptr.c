// SPDX-License-Identifier: GPL-2.0
/*
 * Pointer points for tests/test_ptr.c: an operation passed as a function
 * pointer (devirtualized to an inlined call when specialized), and one
 * picked inside the handler from static functions.
 */
#include <libspec/annotate.h>

long ptr_double(long x)
{
	return 2 * x;
}

long ptr_negate(long x)
{
	return -x;
}

static long ptr_square(long x)
{
	return x * x;
}

static long ptr_inc(long x)
{
	return x + 1;
}

long ptr_apply(long (*op)(long), long x)
{
	op = spec_ptr("op", op);
	return op(x) + 1;
}

long ptr_pick(int which, long x)
{
	long (*op)(long) = which ? ptr_square : ptr_inc;

	op = spec_ptr("picked", op);
	return op(x);
}
