// SPDX-License-Identifier: GPL-2.0
/*
 * Pointer points (devirtualization), differentially: a variant set to one
 * function's address answers like the native build for that function and
 * for any other (the identity guard), inlines the target it can see, and
 * learns targets chosen inside the handler from sampling.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

long ptr_double(long x);
long ptr_negate(long x);
long ptr_apply(long (*op)(long), long x);
long ptr_pick(int which, long x);

typedef long (*apply_fn)(long (*)(long), long);

static struct spec_runtime *rt;

static int setup(void **state)
{
	(void)state;
	rt = tu_open("ptr");
	return rt ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	spec_runtime__close(rt);
	return 0;
}

static int set_ptr(const char *label, const void *p, bool guard)
{
	struct spec_config *c = spec_config__new();
	int ret;

	spec_config__set_data(c, label, p);
	spec_config__set_guard(c, label, guard);
	ret = spec_runtime__specialize_sync(rt, c, NULL);
	spec_config__free(c);
	return ret;
}

static void test_ptr_guarded_identity_answers_for_every_target(void **state)
{
	apply_fn f = (apply_fn)spec_runtime__handler(rt, "ptr_apply");
	uint64_t before, after, s = 1;
	int i;

	(void)state;
	assert_int_equal(set_ptr("op", (const void *)ptr_double, true), 0);
	spec_runtime__guard_failures(rt, "op", &before);
	for (i = 0; i < 1000; i++) {
		long x = (long)(tu_rand(&s) % 100000) - 50000;

		assert_int_equal(f(ptr_double, x), ptr_apply(ptr_double, x));
		assert_int_equal(f(ptr_negate, x), ptr_apply(ptr_negate, x));
	}
	spec_runtime__guard_failures(rt, "op", &after);
	assert_int_equal(after - before, 1000);
}

static void test_ptr_constant_is_compiled_in(void **state)
{
	apply_fn f = (apply_fn)spec_runtime__handler(rt, "ptr_apply");

	(void)state;
	/* Without the guard the variant calls ptr_double whatever is passed. */
	assert_int_equal(set_ptr("op", (const void *)ptr_double, false), 0);
	assert_int_equal(f(ptr_negate, 21), 43);
}

/*
 * The optimized IR of the variant calls no operation (it was inlined) and
 * holds only what the configuration changes.
 */
static void test_ptr_target_is_inlined(void **state)
{
	char dir[] = "/tmp/libspec-ptr-XXXXXX", path[600], line[1024];
	struct dirent *de;
	bool in_fn = false, indirect = false, found = false, other = false;
	long (*pick)(int, long) = (long (*)(int, long))spec_runtime__handler(rt, "ptr_pick");
	DIR *d;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A configuration not compiled before (another sampling period). */
	setenv("LIBSPEC_DUMP_IR", dir, 1);
	assert_int_equal(tu_specialize(rt, ""), 0);
	{
		struct spec_config *c = spec_config__new();

		spec_config__set_data(c, "op", (const void *)ptr_double);
		spec_config__set_sampling(c, "op", 1000);
		assert_int_equal(spec_runtime__specialize_sync(rt, c, NULL), 0);
		spec_config__free(c);
	}
	unsetenv("LIBSPEC_DUMP_IR");
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "define", 6)) {
				in_fn = strstr(line, "@ptr_apply.v") != NULL;
				/* A handler the configuration does not touch is
				 * the generic variant's: not compiled again.
				 */
				other |= strstr(line, "@ptr_pick") != NULL;
			}
			found |= in_fn;
			/* Calls left: the sampler, the guard's fallback, nothing else. */
			if (in_fn && strstr(line, " call ") && !strstr(line, "@__spec_rt_") &&
			    !strstr(line, "@ptr_apply.v0"))
				indirect = true;
		}
		fclose(f);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
	assert_true(found);
	assert_false(indirect);
	assert_false(other);
	assert_int_equal(pick(1, 7), ptr_pick(1, 7));
	assert_int_equal(pick(0, 7), ptr_pick(0, 7));
}

static void test_ptr_target_learned_from_samples(void **state)
{
	long (*f)(int, long) = (long (*)(int, long))spec_runtime__handler(rt, "ptr_pick");
	const struct spec_point_info *pi;
	struct spec_space *sp;
	int64_t hot;
	int i;

	(void)state;
	spec_runtime__reset_counters(rt);
	assert_int_equal(tu_specialize(rt, "picked~1"), 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(f(i % 10 != 0, i), ptr_pick(i % 10 != 0, i));
	sp = spec_runtime__space(rt);
	pi = spec_space__find(sp, "picked");
	assert_non_null(pi);
	assert_int_equal(pi->nr_observed, 2);
	hot = pi->observed[0].value; /* the static ptr_square, in JIT code */
	spec_space__free(sp);
	assert_int_equal(set_ptr("picked", (const void *)(uintptr_t)hot, true), 0);
	for (i = 0; i < 200; i++)
		assert_int_equal(f(i % 3 != 0, i), ptr_pick(i % 3 != 0, i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ptr_guarded_identity_answers_for_every_target),
		cmocka_unit_test(test_ptr_constant_is_compiled_in),
		cmocka_unit_test(test_ptr_target_is_inlined),
		cmocka_unit_test(test_ptr_target_learned_from_samples),
	};

	return cmocka_run_group_tests_name("ptr", tests, setup, teardown);
}
