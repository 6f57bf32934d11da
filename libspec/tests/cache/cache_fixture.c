// SPDX-License-Identifier: GPL-2.0
/* The code cache tests' runtime: tests/handlers/code_cache.c, its generator. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "cache/cache_fixture.h"
#include "libspec/gen.h"
#include "testutil.h"

static int cache_lines;
static char cache_line[1024];

void cct_print(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	va_list copy;
	char buf[sizeof(cache_line)];

	va_copy(copy, ap);
	vsnprintf(buf, sizeof(buf), fmt, copy);
	va_end(copy);
	if (level == LIBSPEC_PRINT_WARN && strstr(buf, "code cache")) {
		cache_lines++;
		memcpy(cache_line, buf, sizeof(buf));
	}
	tu_print(level, ctx, fmt, ap);
}

int cct_cache_lines(const char **last)
{
	int n = cache_lines;

	if (last)
		*last = cache_line;
	cache_lines = 0;
	return n;
}

long cc_lookup(const struct cc_table *t, uint32_t x)
{
	uint32_t i;

	for (i = 0; i < t->n; i++) {
		if (t->keys[i] == x)
			return t->vals[i];
	}
	return -1;
}

/*
 * Misses answer -1, like cc_lookup, after reading t->n through an address
 * nested in a constant expression: code the cache cannot rebind.
 */
static int emit_nested_miss(struct spec_gen *g, const struct cc_table *t)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(spec_gen__input(g, 0)));
	LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
	LLVMValueRef off = LLVMConstInt(i64, 8, 0), base, n, same;

	base = LLVMConstIntToPtr(LLVMConstInt(i64, (uintptr_t)&t->n - 8, 0),
				 LLVMPointerTypeInContext(c, 0));
	n = LLVMBuildLoad2(b, i32, LLVMConstInBoundsGEP2(LLVMInt8TypeInContext(c), base, &off, 1),
			   "n");
	same = LLVMBuildICmp(b, LLVMIntEQ, n, LLVMConstInt(i32, t->n, 0), "");
	return spec_gen__yield(g, LLVMBuildSelect(b, same, LLVMConstInt(i64, (uint64_t)-1, 1),
						  LLVMConstInt(i64, (uint64_t)-2, 1), ""));
}

/* @ctx non-NULL: misses through emit_nested_miss(). */
int gen_find(void *ctx, struct spec_gen *g)
{
	const struct cc_table *t = spec_gen__data(g);
	struct spec_gen_exact c[CC_TABLE_MAX];
	uint32_t i;
	int ret;

	for (i = 0; i < t->n; i++)
		c[i] = (struct spec_gen_exact){.key = {t->keys[i], 0}, .out = t->vals[i]};
	ret = spec_gen__exact(g, 0, c, t->n);
	return ret || !ctx ? ret : emit_nested_miss(g, t);
}

void cct_table(struct cc_table *t, long seed)
{
	uint32_t i;

	t->n = CC_TABLE_MAX;
	for (i = 0; i < CC_TABLE_MAX; i++) {
		t->keys[i] = 100 + 7 * i;
		t->vals[i] = seed * 1000 + (long)i;
	}
}

struct spec_runtime *cct_open(const char *ir, const char *dir, uint64_t max)
{
	LIBSPEC_OPTS(spec_runtime_opts, o, .code_cache_dir = dir, .code_cache_max_bytes = max,
		     .print = cct_print);
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(ir, &o);
	if (!rt)
		return NULL;
	if (spec_runtime__add_gen(rt, "find", gen_find, NULL) || spec_runtime__load(rt)) {
		spec_runtime__close(rt);
		return NULL;
	}
	return rt;
}

/* k, guarded, sampled every @every calls (0: not), tab, find. */
int cct_specialize_every(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t,
			 uint32_t every)
{
	struct spec_config *c = spec_config__new();
	int ret;

	if (!c)
		return -ENOMEM;
	ret = spec_config__set_value(c, "k", k);
	if (!ret && every)
		ret = spec_config__set_sampling(c, "k", every);
	if (!ret)
		ret = spec_config__set_guard(c, "k", true);
	if (!ret)
		ret = spec_config__set_data(c, "tab", tab);
	if (!ret)
		ret = spec_config__set_guard(c, "tab", true);
	if (!ret)
		ret = spec_config__set_data(c, "find", t);
	if (!ret)
		ret = spec_runtime__specialize_sync(rt, c, NULL);
	spec_config__free(c);
	return ret;
}

int cct_specialize(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t)
{
	return cct_specialize_every(rt, k, tab, t, 0);
}

/* Mismatches of the JIT handlers against the native build (0: none). */
int cct_mismatches(struct spec_runtime *rt, long k, const long *tab, const struct cc_table *t)
{
	long (*scale)(long, long) = (long (*)(long, long))spec_runtime__handler(rt, "cc_scale");
	long (*rd)(const long *, long) =
		(long (*)(const long *, long))spec_runtime__handler(rt, "cc_read");
	long (*find)(const struct cc_table *, uint32_t) =
		(long (*)(const struct cc_table *, uint32_t))spec_runtime__handler(rt, "cc_find");
	long other[8] = {-1, -2, -3, -4, -5, -6, -7, -8};
	int bad = 0, a;
	uint32_t x;

	if (!scale || !rd || !find)
		return 1000;
	for (a = -3; a < 4; a++) {
		bad += scale(a, k) != cc_scale(a, k);
		bad += scale(a, k + 1) != cc_scale(a, k + 1); /* a failing guard */
		bad += rd(tab, a) != cc_read(tab, a);
		bad += rd(other, a) != cc_read(other, a);
	}
	for (x = 90; x < 170; x++)
		bad += find(t, x) != cc_lookup(t, x);
	return bad;
}

struct spec_runtime_stats cct_stats(struct spec_runtime *rt)
{
	struct spec_runtime_stats s;

	spec_runtime__stats(rt, &s, sizeof(s));
	return s;
}

/* Bytes of cache files in @d. */
uint64_t cct_dir_bytes(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	uint64_t total = 0;
	char path[512];
	struct stat st;

	while (dp && (e = readdir(dp))) {
		snprintf(path, sizeof(path), "%s/%s", d, e->d_name);
		if (strstr(e->d_name, ".spo") && !stat(path, &st))
			total += (uint64_t)st.st_size;
	}
	if (dp)
		closedir(dp);
	return total;
}

/* Entries of @d whose name contains @what. */
int cct_count(const char *d, const char *what)
{
	DIR *dp = opendir(d);
	struct dirent *e;
	int n = 0;

	while (dp && (e = readdir(dp)))
		n += strstr(e->d_name, what) != NULL;
	if (dp)
		closedir(dp);
	return n;
}
