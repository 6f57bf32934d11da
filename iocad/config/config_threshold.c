// SPDX-License-Identifier: GPL-2.0
#include "config/config_threshold.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/config_value.h"

enum thr_unit {
	THR_RATE,      /* bytes per second: config_value_rate */
	THR_RATIO,     /* a plain number */
	THR_PER_S,     /* events per second: config_value_count */
	THR_INTERVALS, /* a whole number of intervals */
};

static const struct thr_key {
	const char *name;
	enum thr_unit unit;
	double min, max;
	size_t off; /* in struct config_thr: a double, or an unsigned int for THR_INTERVALS */
} keys[CONFIG_THR_NKEYS] = {
	{"storage_off_rate", THR_RATE, 1e3, 1e12, offsetof(struct config_thr, storage.on_bytes)},
	{"storage_quiet_rate", THR_RATE, 0, 1e12, offsetof(struct config_thr, storage.quiet_bytes)},
	{"storage_miss_high", THR_RATIO, 0, 1, offsetof(struct config_thr, storage.miss_high)},
	{"storage_miss_low", THR_RATIO, 0, 1, offsetof(struct config_thr, storage.miss_low)},
	{"storage_reread", THR_RATIO, 0, 100, offsetof(struct config_thr, storage.reread_high)},
	{"storage_confirm", THR_INTERVALS, 1, 1000, offsetof(struct config_thr, storage.confirm)},
	{"storage_dwell", THR_INTERVALS, 0, 100000, offsetof(struct config_thr, storage.dwell)},
	{"antagonist_l2_high", THR_RATIO, 0, 1, offsetof(struct config_thr, antagonist.l2_high)},
	{"antagonist_llc_high", THR_RATIO, 0, 1, offsetof(struct config_thr, antagonist.llc_high)},
	{"antagonist_l2_low", THR_RATIO, 0, 1, offsetof(struct config_thr, antagonist.l2_low)},
	{"antagonist_llc_low", THR_RATIO, 0, 1, offsetof(struct config_thr, antagonist.llc_low)},
	{"antagonist_min_l2_rate", THR_PER_S, 0, 1e12,
	 offsetof(struct config_thr, antagonist.min_l2_refs)},
	{"antagonist_confirm", THR_INTERVALS, 1, 1000,
	 offsetof(struct config_thr, antagonist.confirm)},
};

/* Indexes of the pairs config_thr_check() compares. */
enum {
	K_OFF_RATE,
	K_QUIET_RATE,
	K_MISS_HIGH,
	K_MISS_LOW,
	K_L2_HIGH = 7,
	K_LLC_HIGH,
	K_L2_LOW,
	K_LLC_LOW,
};

void config_thr_defaults(struct config_thr *t)
{
	memset(t, 0, sizeof(*t));
	decide_device_defaults(&t->storage);
	antagonist_defaults(&t->antagonist);
}

static int value(const struct thr_key *k, const char *val, void *field, char *why, size_t len)
{
	double v = 0;
	unsigned int n;
	int r;

	switch (k->unit) {
	case THR_INTERVALS:
		r = config_value_uint(val, (unsigned int)k->min, (unsigned int)k->max, &n, why,
				      len);
		if (!r)
			memcpy(field, &n, sizeof(n));
		return r;
	case THR_RATE:
		r = config_value_rate(val, &v, why, len);
		break;
	case THR_PER_S:
		r = config_value_count(val, &v, why, len);
		break;
	default:
		return config_value_double(val, k->min, k->max, (double *)field, why, len);
	}
	if (r)
		return r;
	if (v < k->min || v > k->max) {
		const char *u = k->unit == THR_RATE ? "B/s" : "/s";

		snprintf(why, len, "%g%s is outside %g%s..%g%s", v, u, k->min, u, k->max, u);
		return -EINVAL;
	}
	memcpy(field, &v, sizeof(v));
	return 0;
}

int config_thr_key(struct config_thr *t, const char *key, const char *val, unsigned int line,
		   bool storage_only, char *why, size_t len)
{
	for (unsigned int i = 0; i < CONFIG_THR_NKEYS; i++) {
		const struct thr_key *k = &keys[i];

		if (strcmp(key, k->name))
			continue;
		if (storage_only && strncmp(key, "storage_", 8))
			return 1;
		if (t->keys & (1u << i)) {
			snprintf(why, len, "given twice in this section (first at line %u)",
				 t->line[i]);
			return -EEXIST;
		}
		if (value(k, val, (char *)t + k->off, why, len))
			return -EINVAL;
		t->keys |= 1u << i;
		t->line[i] = line;
		return 0;
	}
	return 1;
}

void config_thr_inherit(struct config_thr *t, const struct config_thr *from)
{
	for (unsigned int i = 0; i < CONFIG_THR_NKEYS; i++) {
		size_t n = keys[i].unit == THR_INTERVALS ? sizeof(unsigned int) : sizeof(double);

		if (!(t->keys & (1u << i)))
			memcpy((char *)t + keys[i].off, (const char *)from + keys[i].off, n);
	}
}

/* @hi's value above @lo's (or at least it, @equal_ok); else the reason. */
static int pair(const struct config_thr *t, unsigned int hi, unsigned int lo, bool equal_ok,
		unsigned int *line, char *why, size_t len)
{
	/* rates in MB/s, as written */
	bool rate = keys[hi].unit == THR_RATE;
	double h, l, div = rate ? 1e6 : 1;
	const char *u = rate ? "MB/s" : "";

	memcpy(&h, (const char *)t + keys[hi].off, sizeof(h));
	memcpy(&l, (const char *)t + keys[lo].off, sizeof(l));
	if (h > l || (equal_ok && h == l))
		return 0;
	*line = t->line[hi] > t->line[lo] ? t->line[hi] : t->line[lo];
	snprintf(why, len, "%s %g%s must be %s %s %g%s", keys[hi].name, h / div, u,
		 equal_ok ? "at least" : "above", keys[lo].name, l / div, u);
	return -EINVAL;
}

int config_thr_check(const struct config_thr *t, unsigned int *line, char *why, size_t len)
{
	*line = 0;
	if (pair(t, K_OFF_RATE, K_QUIET_RATE, false, line, why, len) ||
	    pair(t, K_MISS_HIGH, K_MISS_LOW, false, line, why, len) ||
	    pair(t, K_L2_HIGH, K_L2_LOW, true, line, why, len) ||
	    pair(t, K_LLC_HIGH, K_LLC_LOW, true, line, why, len))
		return -EINVAL;
	return 0;
}
