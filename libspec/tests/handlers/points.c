// SPDX-License-Identifier: GPL-2.0
/* Handlers exercising every point kind and guard placement (test IR). */
#include <libspec/annotate.h>

/* Enum on an argument: guard hoisted to the entry. */
long pt_enum(long a, long b)
{
	long s = 0;

	b = spec_enum("eb", b, 2, 4, 8, 16);
	for (long i = 0; i < b; i++)
		s += a * i + (a ^ i);
	return s;
}

/* Range on a narrower signed argument, used through an expression. */
long pt_range(long a, int b)
{
	b = spec_range("rb", b + 1, -50, 100);
	return a * b + b / 3;
}

/* Generic on an unsigned argument. */
unsigned int pt_generic(unsigned int x, unsigned int n)
{
	unsigned int r = 0;

	n = spec_generic("gn", n);
	for (unsigned int i = 0; i < n; i++)
		r = r * 31u + x + i;
	return r;
}

/* Assumption over arguments; the optimizer may drop the else branch. */
int pt_assume(int x, int y)
{
	spec_assume("small", y < 16);
	if (y < 16)
		return x * y;
	return x - y;
}

/* A value loaded from memory: guard placed at the point (no side effect
 * before it).
 */
long pt_loaded(const long *p, long a)
{
	long n = spec_generic("ln", p[0]);

	return a * n + n;
}

/* After a store: only usable with the guard off. */
long pt_after_store(long *p, long a)
{
	p[1] = a;
	long n = spec_generic("sn", p[0]);

	return n * a;
}

static long slow_square(long x)
{
	return x * x + 1;
}

/* Custom point: generator-provided fast path for hot inputs. */
long pt_custom(long x)
{
	return spec_custom("cs", slow_square, x) + 1;
}

/* Two sites of one label. */
long pt_two_sites(long a, long b)
{
	long x = spec_generic("two", a);
	long y = spec_generic("two", b);

	return x * 3 + y;
}

/* State kept in the handler module: shared by all variants. */
static long calls;

long pt_count(long a)
{
	a = spec_generic("ca", a);
	calls += a;
	return calls;
}

/* Calls into the fixed code (a process symbol). */
extern long svc_scale(long v);
extern long svc_total;

long pt_service(long a)
{
	long k = spec_range("sk", a, 0, 1000);

	svc_total += k;
	return svc_scale(k);
}

/* A point in a static helper: its guard falls back to the helper's generic
 * version only, so the caller's earlier store is not repeated.
 */
static long scale_by(long v, long k)
{
	k = spec_enum("hk", k, 3, 5);
	return v * k;
}

long pt_helper(long *out, long v, long k)
{
	*out += v;
	return scale_by(v, k) + *out;
}
