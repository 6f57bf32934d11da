// SPDX-License-Identifier: GPL-2.0
/*
 * The JIT's generic variant of a plain function is the native build's
 * machine code, byte for byte: tests/handlers/hash_probe.c through spec-cc
 * and the runtime, against the same source built by the Makefile with the
 * JIT's compiler, level and target (clang-16 -O3 -march=native). Then a
 * difference in speed between the two is where the code sits, not what it
 * does (bench/libspec's hash part measures that).
 */
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "handlers/hash_probe.h"

#define SLOTS (HASH_PROBE_BUCKETS * HASH_PROBE_WAYS)

typedef long (*probe_fn)(const struct hash_probe *, unsigned long);

/* Size of the function at @fn from the dynamic symbols (-rdynamic), or 0. */
static size_t code_size(const void *fn)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;

	if (!dladdr1(fn, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || info.dli_saddr != fn)
		return 0;
	return sym->st_size;
}

/*
 * Size of the JIT code named @name at @addr from this process's perf map
 * (spec_runtime_opts.perf_map: sizes read from the JIT's objects), or 0.
 */
static size_t jit_size(const char *name, const void *addr)
{
	unsigned long long a, size, found = 0;
	char path[64], sym[128];
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fscanf(f, "%llx %llx %127s", &a, &size, sym) == 3) {
		if (!strcmp(sym, name) && a == (uintptr_t)addr)
			found = size;
	}
	fclose(f);
	unlink(path);
	return (size_t)found;
}

/* The generic variant's code: its entry word while it is installed. */
static const unsigned char *generic_code(struct spec_runtime *rt)
{
	void *const *entry;

	assert_int_equal(spec_runtime__load(rt), 0);
	assert_int_equal(tu_specialize(rt, ""), 0);
	entry = spec_runtime__handler_entry(rt, "hash_probe_get");
	assert_non_null(entry);
	return spec_entry_load(entry);
}

/* Number of bytes where @a and @b differ, the first ones printed. */
static size_t diff_bytes(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (a[i] == b[i])
			continue;
		if (n++ < 8)
			print_message("  +0x%02zx: native %02x, JIT %02x\n", i, a[i], b[i]);
	}
	return n;
}

static struct spec_runtime *open_with(const char *pipeline, bool perf_map)
{
	LIBSPEC_OPTS(spec_runtime_opts, o, .pipeline = pipeline, .perf_map = perf_map,
		     .print = tu_print);
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(tu_ir("hash_probe"), &o);
	if (!rt)
		fail_msg("open %s: %s", tu_ir("hash_probe"), tu_last_msg());
	return rt;
}

static void test_native_code_generic_variant_is_the_native_bytes(void **state)
{
	const unsigned char *native = (const void *)hash_probe_get;
	size_t len = code_size(hash_probe_get), jlen, ndiff;
	struct spec_runtime *rt;
	const unsigned char *jit;
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	unlink(path);
	rt = open_with(NULL, true);
	jit = generic_code(rt);
	/* The reference is a whole sized function; the JIT's copy lives
	 * elsewhere and is as long.
	 */
	assert_in_range(len, 8, 4096);
	assert_ptr_not_equal(jit, native);
	jlen = jit_size("hash_probe_get.v0", jit);
	ndiff = diff_bytes(native, jit, jlen < len ? jlen : len);
	if (ndiff || jlen != len)
		fail_msg("the JIT's generic hash_probe_get differs from the native build: %zu "
			 "bytes differ, %zu bytes long against %zu: check the JIT's target (cpu, "
			 "features) and pipeline against the Makefile's NATIVE_CODE_FLAGS",
			 ndiff, jlen, len);
	spec_runtime__close(rt);
}

/* The bytes compared are the function both builds run. */
static void test_native_code_both_answer_alike(void **state)
{
	struct spec_runtime *rt = open_with(NULL, false);
	probe_fn jit = (probe_fn)(uintptr_t)generic_code(rt);
	struct hash_probe *t = calloc(1, sizeof(*t));
	uint64_t seed = 42;
	size_t i, n;

	(void)state;
	assert_non_null(t);
	/* 3/4 full: each key in the first empty slot from its home bucket on. */
	for (n = 0; n < SLOTS * 3 / 4; n++) {
		unsigned long k = tu_rand(&seed) | 1, s = hash_probe_home(k) * HASH_PROBE_WAYS;

		while (t->b[s / HASH_PROBE_WAYS].key[s % HASH_PROBE_WAYS])
			s = (s + 1) % SLOTS;
		t->b[s / HASH_PROBE_WAYS].key[s % HASH_PROBE_WAYS] = k;
		t->b[s / HASH_PROBE_WAYS].val[s % HASH_PROBE_WAYS] = (long)n;
	}
	/* Present keys (and empty slots' 0), and random absent ones. */
	for (i = 0; i < 4 * SLOTS; i++) {
		size_t s = i % SLOTS;
		unsigned long k =
			i % 2 ? tu_rand(&seed) : t->b[s / HASH_PROBE_WAYS].key[s % HASH_PROBE_WAYS];

		assert_int_equal(jit(t, k), hash_probe_get(t, k));
	}
	free(t);
	spec_runtime__close(rt);
}

/*
 * The comparison sees a difference: default<O1> does not unroll the bucket
 * scan. (A wrong target shows too: NATIVE_CODE_FLAGS="-O3 -march=x86-64"
 * fails the first test on a CPU with BMI2.)
 */
static void test_native_code_o1_pipeline_differs(void **state)
{
	const unsigned char *native = (const void *)hash_probe_get;
	size_t len = code_size(hash_probe_get);
	struct spec_runtime *rt = open_with("default<O1>", false);
	const unsigned char *jit = generic_code(rt);

	(void)state;
	assert_in_range(len, 8, 4096);
	assert_true(memcmp(native, jit, len) != 0);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_native_code_generic_variant_is_the_native_bytes),
		cmocka_unit_test(test_native_code_both_answer_alike),
		cmocka_unit_test(test_native_code_o1_pipeline_differs),
	};

	return cmocka_run_group_tests_name("native_code", tests, NULL, NULL);
}
