// SPDX-License-Identifier: GPL-2.0
#include "sim_parse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A finite number followed by @rest; no leading space, nothing empty. */
static int number(const char *s, double *v, const char **rest)
{
	char *end;

	if (!*s || *s == ' ' || *s == '\t')
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v))
		return -EINVAL;
	*rest = end;
	return 0;
}

int sim_parse_real(const char *s, double *out)
{
	const char *rest;
	double v;

	if (number(s, &v, &rest) || *rest)
		return -EINVAL;
	*out = v;
	return 0;
}

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

int sim_parse_size(const char *s, double *out)
{
	return scaled(s, 1024.0, "B", out);
}

int sim_parse_count(const char *s, double *out)
{
	return scaled(s, 1000.0, "pps", out);
}

int sim_parse_time(const char *s, uint64_t *out_ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"", 1e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}};
	const char *rest;
	double v;
	size_t i;

	if (number(s, &v, &rest) || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(rest, units[i].unit))
			continue;
		if (v * units[i].ns > 1e18)
			return -EINVAL;
		*out_ns = (uint64_t)llround(v * units[i].ns);
		return 0;
	}
	return -EINVAL;
}

int sim_parse_mask(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end || errno || v > 0xffffffffULL)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

int sim_parse_bool(const char *s, bool *out)
{
	if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return -EINVAL;
}

static int cpu_id(const char *s, const char **rest, unsigned int max, unsigned int *id)
{
	unsigned long v;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || v >= max)
		return -EINVAL;
	*id = (unsigned int)v;
	*rest = end;
	return 0;
}

int sim_parse_cpus(const char *s, unsigned int *cpus, unsigned int *n, unsigned int max)
{
	unsigned int got = 0, lo, hi, c;
	const char *p = s;
	int have_last = 0;
	unsigned int last = 0;

	for (;;) {
		if (cpu_id(p, &p, max, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-' && cpu_id(p + 1, &p, max, &hi))
			return -EINVAL;
		if (hi < lo || (have_last && lo <= last))
			return -EINVAL;
		for (c = lo; c <= hi; c++)
			cpus[got++] = c;
		last = hi;
		have_last = 1;
		if (!*p)
			break;
		if (*p++ != ',')
			return -EINVAL;
	}
	*n = got;
	return 0;
}
