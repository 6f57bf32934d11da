// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_value.h"
#include "platform.h"

static int fail(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return -EINVAL;
}

/* strtoul accepts "-1" and leading blanks; we want plain digits only. */
static int parse_digits(const char **p, unsigned long *out)
{
	const char *s = *p;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > UINT32_MAX)
			return -ERANGE;
		s++;
	}
	*p = s;
	*out = v;
	return 0;
}

int config_value_uint(const char *s, unsigned int min, unsigned int max, unsigned int *out,
		      char *why, size_t len)
{
	unsigned long v;
	const char *p = s;

	if (parse_digits(&p, &v) || *p) {
		snprintf(why, len, "expected a whole number %u..%u", min, max);
		return -EINVAL;
	}
	if (v < min || v > max) {
		snprintf(why, len, "out of range %u..%u", min, max);
		return -EINVAL;
	}
	*out = (unsigned int)v;
	return 0;
}

int config_value_double(const char *s, double min, double max, double *out, char *why, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v)) {
		snprintf(why, len, "expected a number %g..%g", min, max);
		return -EINVAL;
	}
	if (v < min || v > max) {
		snprintf(why, len, "out of range %g..%g", min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int config_value_bool(const char *s, bool *out, char *why, size_t len)
{
	if (!strcmp(s, "yes") || !strcmp(s, "true") || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(s, "no") || !strcmp(s, "false") || !strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return fail(why, len, "expected yes or no");
}

int config_value_cpus(const char *s, unsigned int *cpus, unsigned int *n, char *why, size_t len)
{
	unsigned char seen[PLATFORM_MAX_CPUS] = {0};
	const char *p = s;
	unsigned int k = 0;

	if (!*p)
		return fail(why, len, "empty CPU list");
	for (;;) {
		unsigned long lo, hi;

		if (parse_digits(&p, &lo))
			return fail(why, len, "expected a CPU id or range like 0-3,8");
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_digits(&p, &hi))
				return fail(why, len, "range needs an end, like 0-3");
		}
		if (hi < lo) {
			snprintf(why, len, "range %lu-%lu runs backwards", lo, hi);
			return -EINVAL;
		}
		if (hi >= PLATFORM_MAX_CPUS) {
			snprintf(why, len, "CPU %lu is past the maximum %d", hi,
				 PLATFORM_MAX_CPUS - 1);
			return -EINVAL;
		}
		for (unsigned long c = lo; c <= hi; c++) {
			if (seen[c]) {
				snprintf(why, len, "CPU %lu listed twice", c);
				return -EINVAL;
			}
			seen[c] = 1;
		}
		if (!*p)
			break;
		if (*p != ',')
			return fail(why, len, "expected ',' between items, like 0-3,8");
		p++;
	}
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (seen[c])
			cpus[k++] = c;
	*n = k;
	return 0;
}
