// SPDX-License-Identifier: GPL-2.0
/*
 * NI's interval tree, differentially at the route bounds: tables shaped so
 * every kind of chunk is compiled (compares on the whole key, on the high
 * or the low 64-bit half of an IPv6 key, or on both; with and without gaps
 * between intervals), each answer checked against the table's own lookup.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "lpm_gen.h"
#include "test_lpm.h"

/*
 * Tables shaped for each way NI's interval tree compares keys: 'R' random
 * lengths; 'W' (IPv6) /16../64 and /128 hosts, bounds mostly decided by
 * the high 64 bits; 'C' (IPv6) most routes inside one /64, decided by the
 * low 64 bits; 'L' (IPv6) only /65../128 anywhere, every bound needs both
 * halves; 'N' every route inside one of four short covers, so runs
 * of intervals without gaps end where a cover ends. Without a default
 * route the intervals have gaps.
 */
static struct lpm *shaped_table(int width, char shape, size_t n, bool dflt, uint64_t *s)
{
	lpm_u128 inside = rnd_addr(width, s) & lpm_mask(64, width), cover[4];
	int clen = width == 32 ? 8 : 24;
	struct lpm *t = lpm_new(width);
	size_t i;

	assert_non_null(t);
	for (i = 0; i < 4; i++) {
		cover[i] = rnd_addr(width, s) & lpm_mask(clen, width);
		if (shape == 'N')
			assert_int_equal(lpm_add(t, cover[i], clen, 7000 + (long)i), 0);
	}
	for (i = 0; i < n; i++) {
		lpm_u128 a = rnd_addr(width, s);
		int len = width == 32 ? 8 + (int)(rnd(s) % 25) : 16 + (int)(rnd(s) % 113);

		if (shape == 'W')
			len = rnd(s) % 10 ? 16 + (int)(rnd(s) % 49) : 128;
		if (shape == 'L')
			len = 65 + (int)(rnd(s) % 64);
		if (shape == 'C' && rnd(s) % 8) {
			a = inside | (a & ~lpm_mask(64, width));
			len = 65 + (int)(rnd(s) % 64);
		}
		if (shape == 'N') {
			a = cover[i % 4] | (a & ~lpm_mask(clen, width));
			len = clen + 1 + (int)(rnd(s) % (unsigned int)(width - clen));
		}
		assert_int_equal(lpm_add(t, a, len, (long)(rnd(s) % 4096)), 0);
	}
	if (dflt)
		assert_int_equal(lpm_add(t, 0, 0, 9999), 0);
	return t;
}

/* Every route's first and last address, their neighbours, and (IPv6) the
 * ends of their 64-bit halves: where a compiled compare can be off by one.
 */
static void check_bounds(void *f, const struct lpm *t)
{
	int width = lpm_width(t);
	size_t n = lpm_count(t), i, k;
	struct lpm_route *r = calloc(n, sizeof(*r));
	lpm_u128 all = lpm_mask(width, width), low = UINT64_MAX;

	assert_non_null(r);
	n = lpm_routes(t, r, n);
	for (i = 0; i < n; i++) {
		lpm_u128 lo = r[i].prefix, hi = (lo | ~lpm_mask(r[i].len, width)) & all;
		lpm_u128 probe[] = {lo - 1, lo,	       lo + 1,		hi - 1,	  hi,
				    hi + 1, lo & ~low, (lo & ~low) - 1, hi | low, (hi | low) + 1};

		for (k = 0; k < sizeof(probe) / sizeof(probe[0]); k++) {
			lpm_u128 x = probe[k] & all;

			assert_int_equal(call(f, width, t, x), lpm_lookup(t, x));
		}
	}
	free(r);
}

static void ni_shapes(int width, const char *shapes, uint64_t seed)
{
	const char *label = width == 32 ? "lpm4" : "lpm6";
	void *f = spec_runtime__handler(rt, width == 32 ? "route4" : "route6");
	uint64_t s = seed;
	int dflt, i;

	assert_non_null(f);
	for (; *shapes; shapes++) {
		for (dflt = 0; dflt < 2; dflt++) {
			struct lpm *t = shaped_table(width, *shapes, 700, dflt, &s);

			assert_int_equal(spec_runtime__invalidate(rt, label, NULL), 0);
			assert_int_equal(specialize(label, t, LPM_GEN_NI, 0), 0);
			check_bounds(f, t);
			for (i = 0; i < LOOKUPS; i++) {
				lpm_u128 x = addr_for(t, &s);

				assert_int_equal(call(f, width, t, x), lpm_lookup(t, x));
			}
			lpm_free(t);
			/* Its address may come back as another table's. */
			assert_int_equal(spec_runtime__invalidate(rt, label, NULL), 0);
		}
	}
}

void test_lpm_ni_bounds_ipv4(void **state)
{
	(void)state;
	ni_shapes(32, "RN", 8);
}

void test_lpm_ni_bounds_ipv6(void **state)
{
	(void)state;
	ni_shapes(128, "RWCLN", 9);
}

/* LIBSPEC_DUMP_IR_PRE=1 keeps the generator's IR before the pipeline
 * next to the optimized one: the chunks' vector counts are in it.
 */
void test_lpm_dump_pre_ir(void **state)
{
	char dir[] = "/tmp/lpm-dump-XXXXXX", path[512], text[1 << 16];
	uint64_t s = 10;
	struct lpm *t = shaped_table(128, 'W', 300, true, &s);
	struct dirent *e;
	int found = 0;
	DIR *d;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("LIBSPEC_DUMP_IR", dir, 1);
	setenv("LIBSPEC_DUMP_IR_PRE", "1", 1);
	assert_int_equal(spec_runtime__invalidate(rt, "lpm6", NULL), 0);
	assert_int_equal(specialize("lpm6", t, LPM_GEN_NI, 0), 0);
	unsetenv("LIBSPEC_DUMP_IR_PRE");
	unsetenv("LIBSPEC_DUMP_IR");
	assert_int_equal(spec_runtime__invalidate(rt, "lpm6", NULL), 0);
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		text[fread(text, 1, sizeof(text) - 1, f)] = 0;
		fclose(f);
		if (strstr(e->d_name, ".pre.ll") && strstr(text, "llvm.ctpop"))
			found |= 1;
		else if (!strstr(e->d_name, ".pre.ll"))
			found |= 2;
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
	lpm_free(t);
	assert_int_equal(found, 3);
}
