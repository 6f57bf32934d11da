// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * PMU format attributes. The kernel's uncore drivers publish each field's
 * place (arch/x86/events/intel/uncore_snbep.c: DEFINE_UNCORE_FORMAT_ATTR);
 * the same field moves between generations (IIO ch_mask: config:36-43 on
 * Skylake-SP, config:36-47 from Ice Lake-SP on), so no constant is right
 * everywhere. perf spreads a value over a field's bits lowest first, even
 * when the bits are split ("config:8-15,32-57"); so does this.
 */
#include "pmu_format.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ioca_pmu_format_parse(const char *text, struct ioca_pmu_format *fmt)
{
	const char *p = text;
	unsigned long lo, hi;
	uint64_t bits = 0;
	unsigned int word;
	char *end;

	if (strncmp(p, "config", 6))
		return -EINVAL;
	p += 6;
	if (*p == ':') {
		word = 0;
	} else if ((*p == '1' || *p == '2') && p[1] == ':') {
		word = (unsigned int)(*p - '0');
		p++;
	} else {
		return -EINVAL;
	}
	p++;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		lo = strtoul(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (lo > 63 || hi > 63 || hi < lo)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			bits |= 1ull << b;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	if (*p && strcmp(p, "\n"))
		return -EINVAL;
	fmt->word = word;
	fmt->bits = bits;
	return 0;
}

/* @value spread over @bits, lowest bit first; -ERANGE when it is wider. */
static int spread(uint64_t value, uint64_t bits, uint64_t *out)
{
	uint64_t r = 0;

	for (unsigned int b = 0; b < 64 && value; b++) {
		if (!(bits & (1ull << b)))
			continue;
		if (value & 1)
			r |= 1ull << b;
		value >>= 1;
	}
	if (value)
		return -ERANGE;
	*out = r;
	return 0;
}

static int read_format(const char *root, const char *pmu, const char *name,
		       struct ioca_pmu_format *fmt, const struct ioca_log *log)
{
	char path[PATH_MAX], text[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/format/%s", root, pmu, name);
	f = fopen(path, "r");
	if (!f) {
		int e = -errno;

		if (e == -ENOENT)
			pr_warn(log,
				"PMU %s has no format field \"%s\" (%s missing): this kernel's "
				"driver does not define the field ioca's event needs",
				pmu, name, path);
		else
			pr_warn(log, "PMU %s field \"%s\": %s: %s", pmu, name, path, strerror(-e));
		return e;
	}
	if (!fgets(text, sizeof(text), f))
		text[0] = '\0';
	fclose(f);
	if (ioca_pmu_format_parse(text, fmt)) {
		pr_warn(log, "PMU %s field \"%s\": %s: \"%.*s\" is not configN:bits", pmu, name,
			path, (int)strcspn(text, "\n"), text);
		return -EINVAL;
	}
	return 0;
}

int ioca_pmu_encode(const char *root, const char *pmu, const struct ioca_pmu_field *f, size_t n,
		    struct ioca_event *ev, const struct ioca_log *log)
{
	uint64_t word[2] = {0, 0};

	for (size_t i = 0; i < n; i++) {
		struct ioca_pmu_format fmt;
		uint64_t v;
		int err = read_format(root, pmu, f[i].name, &fmt, log);

		if (err)
			return err;
		if (fmt.word > 1) {
			pr_warn(log,
				"PMU %s field \"%s\" is in config2, which ioca events do not "
				"carry",
				pmu, f[i].name);
			return -EOPNOTSUPP;
		}
		if (spread(f[i].value, fmt.bits, &v)) {
			pr_warn(log,
				"PMU %s field \"%s\": value 0x%" PRIx64 " is wider than its "
				"%d bits",
				pmu, f[i].name, f[i].value, __builtin_popcountll(fmt.bits));
			return -ERANGE;
		}
		word[fmt.word] |= v;
	}
	ev->config = word[0];
	ev->config1 = word[1];
	return 0;
}

int ioca_pmu_encode_terms(const char *root, const char *pmu, const char *terms,
			  struct ioca_event *ev, const struct ioca_log *log)
{
	char names[8][32];
	struct ioca_pmu_field f[8];
	const char *p = terms;
	size_t n = 0;

	while (*p && *p != '\n') {
		size_t len = strcspn(p, "=,\n");
		char *end;

		if (n == 8 || !len || len >= sizeof(names[0]) || p[len] != '=')
			goto bad;
		memcpy(names[n], p, len);
		names[n][len] = '\0';
		p += len + 1;
		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		f[n].value = strtoull(p, &end, 0);
		if (errno)
			goto bad;
		f[n].name = names[n];
		n++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!n)
		goto bad;
	return ioca_pmu_encode(root, pmu, f, n, ev, log);
bad:
	pr_warn(log, "PMU %s: event \"%.*s\" is not name=value terms", pmu,
		(int)strcspn(terms, "\n"), terms);
	return -EINVAL;
}
