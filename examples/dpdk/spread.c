// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spread.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void spread_of(const struct spread_figure *f, double *median, double *lo, double *hi)
{
	double s[SPREAD_MAX_RUNS];

	memcpy(s, f->mpps, f->n * sizeof(*s));
	qsort(s, f->n, sizeof(*s), cmp_double);
	*lo = s[0];
	*hi = s[f->n - 1];
	*median = f->n % 2 ? s[f->n / 2] : (s[f->n / 2 - 1] + s[f->n / 2]) / 2;
}

const char *spread_verdict(const struct spread_figure *x, const struct spread_figure *base)
{
	double xm, xl, xh, bm, bl, bh;

	spread_of(x, &xm, &xl, &xh);
	spread_of(base, &bm, &bl, &bh);
	if (xl > bh)
		return "faster (ranges apart)";
	if (xh < bl)
		return "slower (ranges apart)";
	return "within the noise (ranges overlap)";
}

void spread_print(const struct spread_figure *f, const struct spread_figure *base)
{
	double m, lo, hi, bm, bl, bh;

	spread_of(f, &m, &lo, &hi);
	printf("    %-32s %6.2f Mpps [%6.2f-%6.2f]", f->name, m, lo, hi);
	if (base) {
		spread_of(base, &bm, &bl, &bh);
		printf("  %.2fx: %s", m / bm, spread_verdict(f, base));
	}
	printf("\n");
}
