// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/config_value.h"
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

int config_value_u64(const char *s, uint64_t max, uint64_t *out, char *why, size_t len)
{
	unsigned long long v;
	char *end;

	if (!isdigit((unsigned char)*s))
		return fail(why, len, "expected a number");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end)
		return fail(why, len, "trailing characters after the number");
	if (errno || v > max)
		return fail(why, len, "number out of range");
	*out = v;
	return 0;
}

/* A finite number followed by @rest; no leading blank or sign-less junk. */
static int number(const char *s, double *v, const char **rest)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v))
		return -EINVAL;
	*rest = end;
	return 0;
}

int config_value_double(const char *s, double min, double max, double *out, char *why, size_t len)
{
	const char *rest;
	double v;

	if (number(s, &v, &rest) || *rest) {
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
	if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return fail(why, len, "expected yes or no");
}

int config_value_duration(const char *s, uint64_t *ns, char *why, size_t len)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
	const char *rest;
	double v;

	if (!isdigit((unsigned char)*s) || number(s, &v, &rest) || v < 0)
		return fail(why, len, "expected a duration like 10ms, 500us or 2s");
	if (!*rest) {
		if (v != 0)
			return fail(why, len,
				    "a bare number has no unit: write it with one, like 10ms, "
				    "500us or 2s");
		*ns = 0;
		return 0;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(rest, units[i].unit))
			continue;
		if (v * units[i].ns > 1e18)
			return fail(why, len, "duration out of range");
		*ns = (uint64_t)llround(v * units[i].ns);
		return 0;
	}
	return fail(why, len, "unknown unit (ns, us, ms or s)");
}

/* A non-negative number, K/M/G in powers of @base, then nothing or @unit. */
static int scaled(const char *s, double base, const char *unit, double *out)
{
	const char *rest;
	double v, mul = 1.0;

	if (number(s, &v, &rest) || v < 0)
		return -EINVAL;
	switch (*rest) {
	case 'K':
	case 'k':
		mul = base;
		rest++;
		break;
	case 'M':
		mul = base * base;
		rest++;
		break;
	case 'G':
		mul = base * base * base;
		rest++;
		break;
	default:
		break;
	}
	if (*rest && strcasecmp(rest, unit))
		return -EINVAL;
	*out = v * mul;
	return 0;
}

int config_value_size(const char *s, double *out, char *why, size_t len)
{
	if (scaled(s, 1024.0, "B", out))
		return fail(why, len, "expected a size like 512K, 2.25M or 1G");
	return 0;
}

int config_value_count(const char *s, double *out, char *why, size_t len)
{
	if (scaled(s, 1000.0, "pps", out))
		return fail(why, len, "expected a count like 300, 32K or 2M");
	return 0;
}

int config_value_rate(const char *s, double *out, char *why, size_t len)
{
	size_t n = strlen(s);
	double v;

	if (n > 3 && !strcmp(s + n - 3, "B/s") && !scaled(s, 1000.0, "B/s", &v)) {
		*out = v;
		return 0;
	}
	if (!scaled(s, 1000.0, "", &v)) {
		if (v != 0)
			return fail(why, len,
				    "a bare number has no unit: write bytes per second with "
				    "it, like 200MB/s");
		*out = 0;
		return 0;
	}
	return fail(why, len, "expected bytes per second like 20MB/s, 500KB/s or 1.5GB/s");
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
