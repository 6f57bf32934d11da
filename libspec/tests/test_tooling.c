// SPDX-License-Identifier: GPL-2.0
/*
 * What a new user meets first: spec-cc (annotations without an include,
 * wide integers refused at compile time), opening IR without points, the
 * default message printer, and what make install writes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

static char dir[] = "/tmp/libspec-tooling-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

/* Write @src to <dir>/<name>.c and run spec-cc on it; output in @out. */
static int spec_cc(const char *name, const char *src, char *out, size_t size)
{
	char path[300], cmd[1024];
	FILE *f;
	size_t n;
	int rc;

	snprintf(path, sizeof(path), "%s/%s.c", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -S %s -o %s/%s.ll > %s/%s.out 2>&1", SPEC_CC, path, dir,
		 name, dir, name);
	rc = system(cmd);
	snprintf(path, sizeof(path), "%s/%s.out", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	return rc;
}

static struct spec_runtime *open_ll(const char *name)
{
	LIBSPEC_OPTS(spec_runtime_opts, o, .print = tu_print);
	char path[300];

	snprintf(path, sizeof(path), "%s/%s.ll", dir, name);
	return spec_runtime__open(path, &o);
}

static void test_tooling_spec_cc_needs_no_include(void **state)
{
	char out[4096];
	struct spec_runtime *rt;
	struct spec_space *sp;

	(void)state;
	assert_int_equal(spec_cc("noinc", "long f(long n) { return spec_generic(\"n\", n) * 2; }\n",
				 out, sizeof(out)),
			 0);
	tu_capture();
	rt = open_ll("noinc");
	assert_non_null(rt);
	sp = spec_runtime__space(rt);
	assert_non_null(spec_space__find(sp, "n"));
	spec_space__free(sp);
	spec_runtime__close(rt);
}

static void test_tooling_wide_integer_point_is_refused_at_compile_time(void **state)
{
	char out[4096];

	(void)state;
	assert_int_not_equal(spec_cc("wide",
				     "__int128 f(__int128 x) { return spec_generic(\"x\", x); }\n",
				     out, sizeof(out)),
			     0);
	assert_non_null(strstr(out, "wider than 64 bits: use spec_gen()"));
}

static void test_tooling_ir_without_points_warns(void **state)
{
	char out[4096];
	struct spec_runtime *rt;

	(void)state;
	assert_int_equal(spec_cc("plain", "long f(long n) { return n * 2; }\n", out, sizeof(out)),
			 0);
	tu_capture();
	rt = open_ll("plain");
	assert_non_null(rt);
	assert_non_null(strstr(tu_last_msg(), "no specialization points"));
	spec_runtime__close(rt);
	assert_int_equal(spec_cc("empty", "\n", out, sizeof(out)), 0);
	tu_capture();
	rt = open_ll("empty");
	assert_non_null(rt);
	assert_non_null(strstr(tu_last_msg(), "defines no function"));
	spec_runtime__close(rt);
}

static void test_tooling_install_writes_prefix_and_public_headers(void **state)
{
	char cmd[1024], path[400], pc[2048] = "";
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd),
		 "make -s -C %s install PREFIX=/opt/spectest DESTDIR=%s/root > %s/install.out 2>&1",
		 LIBSPEC_DIR, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/root/opt/spectest/lib/pkgconfig/libspec.pc", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	pc[fread(pc, 1, sizeof(pc) - 1, f)] = '\0';
	fclose(f);
	assert_non_null(strstr(pc, "prefix=/opt/spectest\n"));
	assert_null(strstr(pc, "/usr/local"));
	snprintf(path, sizeof(path), "%s/root/opt/spectest/include/libspec/policy.h", dir);
	assert_int_equal(access(path, R_OK), 0);
	snprintf(path, sizeof(path), "%s/root/opt/spectest/include/libspec/gen.h", dir);
	assert_int_equal(access(path, R_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tooling_spec_cc_needs_no_include),
		cmocka_unit_test(test_tooling_wide_integer_point_is_refused_at_compile_time),
		cmocka_unit_test(test_tooling_ir_without_points_warns),
		cmocka_unit_test(test_tooling_install_writes_prefix_and_public_headers),
	};

	return cmocka_run_group_tests_name("tooling", tests, setup, teardown);
}
