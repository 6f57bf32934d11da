// SPDX-License-Identifier: GPL-2.0
/*
 * The persistent code cache: a second runtime (as after a restart: its
 * point records, tables and data at other addresses) gets its variants
 * from the directory and they answer like the native build for its own
 * addresses; a change of any key part is a miss that compiles the right
 * code; damaged files are rejected; the directory stays under its bound;
 * several processes share it.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "cache/cache_fixture.h"
#include "libspec/gen.h"
#include "testutil.h"

/* ---- fixture ------------------------------------------------------------ */

static char dir[64];
static long data_a[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static struct cc_table tab_a;

/* A runtime on the test's directory, or the test fails saying why. */
static struct spec_runtime *open_dir(void)
{
	struct spec_runtime *rt = cct_open(tu_ir("code_cache"), dir, 0);

	if (!rt)
		fail_msg("open with the code cache in %s: %s", dir, tu_last_msg());
	return rt;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/libspec-cc-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	cct_table(&tab_a, 1);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	unsetenv("LIBSPEC_CACHE_TEST_KEY");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* A first runtime that stored the generic variant and (8, data_a, tab_a). */
static void baseline(void)
{
	struct spec_runtime *rt = open_dir();
	struct spec_runtime_stats s;

	assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
	assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
	s = cct_stats(rt);
	assert_int_equal(s.disk_stores, 2);
	assert_int_equal(s.disk_hits, 0);
	assert_int_equal(s.disk_bypassed, 0);
	spec_runtime__close(rt);
}

/*
 * A second runtime's generic and variant loads: @hits expected from the
 * cache, @rejected damaged files; its answers must be right either way.
 */
static void second(long k, const long *tab, const struct cc_table *t, uint64_t hits,
		   uint64_t rejected)
{
	struct spec_runtime *rt = open_dir();
	struct spec_runtime_stats s;

	assert_int_equal(cct_specialize(rt, k, tab, t), 0);
	assert_int_equal(cct_mismatches(rt, k, tab, t), 0);
	s = cct_stats(rt);
	assert_int_equal(s.disk_hits, hits);
	assert_int_equal(s.disk_hits + s.disk_stores, 2);
	assert_int_equal(s.disk_rejected, rejected);
	spec_runtime__close(rt);
}

/* ---- tests -------------------------------------------------------------- */

static void test_cache_is_off_unless_asked(void **state)
{
	struct spec_runtime *rt = tu_open_loaded("code_cache", NULL);
	struct spec_runtime_stats s;

	(void)state;
	spec_runtime__add_gen(rt, "find", gen_find, NULL);
	assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
	s = cct_stats(rt);
	assert_int_equal(s.disk_hits + s.disk_stores + s.disk_bypassed + s.disk_rejected, 0);
	spec_runtime__close(rt);
}

static void test_cache_bad_directory_fails_the_open(void **state)
{
	char buf[256] = "";
	LIBSPEC_OPTS(spec_runtime_opts, o, .code_cache_dir = "/nonexistent-libspec/cache",
		     .errbuf = buf, .errbuf_sz = sizeof(buf), .print = tu_print);

	(void)state;
	tu_capture();
	assert_null(spec_runtime__open(tu_ir("code_cache"), &o));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(buf, "/nonexistent-libspec/cache"));
}

/* Kept open, the first runtime's records and tables stay where they are:
 * the second one's are elsewhere, and the loaded code must use those.
 */
static void test_cache_restart_gets_code_rebound_to_its_addresses(void **state)
{
	struct spec_runtime *rt1 = open_dir(), *rt2;
	long data_b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
	struct cc_table *tab_b = malloc(sizeof(*tab_b));
	uint64_t fails1 = 0, fails2 = 0;
	struct spec_runtime_stats s;

	(void)state;
	assert_non_null(tab_b);
	*tab_b = tab_a; /* same contents (the key), another address */
	assert_int_equal(cct_specialize(rt1, 8, data_a, &tab_a), 0);
	rt2 = open_dir();
	assert_int_equal(cct_specialize(rt2, 8, data_b, tab_b), 0);
	s = cct_stats(rt2);
	assert_int_equal(s.disk_hits, 2);
	assert_int_equal(s.compiles, 2);
	assert_int_equal(s.last_optimize_ns, 0);
	assert_int_equal(cct_mismatches(rt2, 8, data_b, tab_b), 0);
	assert_int_equal(cct_mismatches(rt1, 8, data_a, &tab_a), 0);
	/* Guard failures reach the loading runtime's record, not the first's. */
	spec_runtime__reset_counters(rt1);
	spec_runtime__reset_counters(rt2);
	assert_int_equal(cct_mismatches(rt2, 8, data_b, tab_b), 0);
	spec_runtime__guard_failures(rt1, "k", &fails1);
	spec_runtime__guard_failures(rt2, "k", &fails2);
	assert_int_equal(fails1, 0);
	assert_true(fails2 > 0);
	spec_runtime__close(rt2);
	spec_runtime__close(rt1);
	free(tab_b);
}

/*
 * Two configurations whose code differs only in an address (the pointer
 * point's data) share a key: the second, while the first is live, gets
 * its own copy with its own address.
 */
static void test_cache_twin_of_a_live_variant_gets_its_own_code(void **state)
{
	long data_b[8] = {-9, 8, -7, 6, -5, 4, -3, 2};
	struct spec_runtime *rt;
	struct spec_runtime_stats s;
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		rt = open_dir();
		assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
		assert_int_equal(cct_specialize(rt, 8, data_b, &tab_a), 0);
		assert_int_equal(cct_mismatches(rt, 8, data_b, &tab_a), 0);
		assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
		assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
		s = cct_stats(rt);
		/* the generic and the first from disk after a restart */
		assert_int_equal(s.disk_hits, round ? 2 : 0);
		assert_int_equal(s.disk_stores, round ? 0 : 2);
		assert_int_equal(s.disk_bypassed, 1);
		spec_runtime__close(rt);
	}
}

static void test_cache_unrebindable_code_is_compiled_without_it(void **state)
{
	static int nested = 1;
	struct spec_runtime *rt;
	struct spec_runtime_stats s;
	int round;

	(void)state;
	for (round = 0; round < 2; round++) {
		rt = open_dir();
		assert_int_equal(spec_runtime__add_gen(rt, "find", gen_find, &nested), 0);
		assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
		assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
		s = cct_stats(rt);
		assert_int_equal(s.disk_bypassed, 1);
		assert_int_equal(s.disk_hits, round ? 1 : 0); /* the generic variant */
		assert_int_equal(s.disk_stores, round ? 0 : 1);
		spec_runtime__close(rt);
	}
}

static uint64_t samples_of_k(struct spec_runtime *rt)
{
	struct spec_space *sp = spec_runtime__space(rt);
	const struct spec_point_info *p = sp ? spec_space__find(sp, "k") : NULL;
	uint64_t n = p ? p->samples : UINT64_MAX;

	spec_space__free(sp);
	return n;
}

/*
 * Sampling code checks the thread's record against its runtime's epoch
 * domain, whose number differs between runtimes: another runtime still
 * gets the variant from disk, and the samples are its own.
 */
static void test_cache_sampling_variant_serves_another_runtime(void **state)
{
	struct spec_runtime *rt1 = open_dir(), *rt2;
	long (*scale)(long, long);
	struct spec_runtime_stats s;
	int i;

	(void)state;
	assert_int_equal(cct_specialize_every(rt1, 8, data_a, &tab_a, 1), 0);
	rt2 = open_dir();
	assert_int_equal(cct_specialize_every(rt2, 8, data_a, &tab_a, 1), 0);
	s = cct_stats(rt2);
	assert_int_equal(s.disk_hits, 2);
	assert_int_equal(cct_mismatches(rt2, 8, data_a, &tab_a), 0);
	spec_runtime__reset_counters(rt1);
	spec_runtime__reset_counters(rt2);
	scale = (long (*)(long, long))spec_runtime__handler(rt2, "cc_scale");
	for (i = 0; i < 100; i++)
		assert_int_equal(scale(i, 8), cc_scale(i, 8));
	assert_true(samples_of_k(rt2) >= 100);
	assert_int_equal(samples_of_k(rt1), 0);
	spec_runtime__close(rt2);
	spec_runtime__close(rt1);
}

static void test_cache_config_change_is_a_miss(void **state)
{
	(void)state;
	baseline();
	second(9, data_a, &tab_a, 1, 0);
	second(9, data_a, &tab_a, 2, 0);
}

static void test_cache_data_change_is_a_miss(void **state)
{
	struct cc_table t;

	(void)state;
	baseline();
	cct_table(&t, 2);
	second(8, data_a, &t, 1, 0);
	t = tab_a;
	second(8, data_a, &t, 2, 0);
}

static void test_cache_ir_change_is_a_miss(void **state)
{
	char ir[128], cmd[512];
	struct spec_runtime *rt;
	struct spec_runtime_stats s;

	(void)state;
	baseline();
	snprintf(ir, sizeof(ir), "%s/changed.ll", dir);
	snprintf(cmd, sizeof(cmd),
		 "cp '%s' '%s' && echo 'define i64 @cc_extra(i64 %%x) { ret i64 %%x }' >> '%s'",
		 tu_ir("code_cache"), ir, ir);
	assert_int_equal(system(cmd), 0);
	rt = cct_open(ir, dir, 0);
	if (!rt)
		fail_msg("open %s: %s", ir, tu_last_msg());
	assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
	assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
	s = cct_stats(rt);
	assert_int_equal(s.disk_hits, 0);
	assert_int_equal(s.disk_stores, 2);
	spec_runtime__close(rt);
}

/* The machine's and the builds' parts, as another host or build has them. */
static void test_cache_key_parts_of_the_host_and_builds_miss(void **state)
{
	static const char *const parts[] = {
		"cpu=znver9",	 "features=+avx512f,-sse2",	     "llvm=16.0.99",
		"libspec=0.0.1", "triple=aarch64-unknown-linux-gnu",
	};
	size_t i;

	(void)state;
	baseline();
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		setenv("LIBSPEC_CACHE_TEST_KEY", parts[i], 1);
		second(8, data_a, &tab_a, 0, 0);
		unsetenv("LIBSPEC_CACHE_TEST_KEY");
		second(8, data_a, &tab_a, 2, 0);
	}
}

/* Complement the byte at @off of @path. */
static void flip(const char *path, off_t off)
{
	int fd = open(path, O_RDWR);
	unsigned char c;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, off), 1);
	c = (unsigned char)~c;
	assert_int_equal(pwrite(fd, &c, 1, off), 1);
	close(fd);
}

/* Change every cache file: @how 't' truncates, 'p' changes a payload
 * byte, 'k' a byte of the key.
 */
static void damage_files(char how)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	char path[512];
	struct stat st;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp))) {
		if (!strstr(e->d_name, ".spo"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(stat(path, &st), 0);
		if (how == 't')
			assert_int_equal(truncate(path, st.st_size - 16), 0);
		else
			flip(path, how == 'p' ? st.st_size - 40 : 70);
		n++;
	}
	closedir(dp);
	assert_int_equal(n, 2);
}

static void test_cache_damaged_files_are_rejected_and_replaced(void **state)
{
	static const char hows[] = {'t', 'p', 'k'};
	size_t i;

	(void)state;
	baseline();
	for (i = 0; i < sizeof(hows); i++) {
		damage_files(hows[i]);
		second(8, data_a, &tab_a, 0, 2);
		second(8, data_a, &tab_a, 2, 0);
	}
}

static void test_cache_stays_under_its_bound(void **state)
{
	struct spec_runtime *rt = open_dir();
	struct spec_runtime_stats s;
	uint64_t generic, variant, max, hits;
	long k;

	(void)state;
	generic = cct_dir_bytes(dir);
	assert_int_equal(cct_specialize(rt, 2, data_a, &tab_a), 0);
	variant = cct_dir_bytes(dir) - generic;
	spec_runtime__close(rt);
	/* Room for the generic variant and two and a half others. */
	max = generic + variant * 5 / 2;
	rt = cct_open(tu_ir("code_cache"), dir, max);
	assert_non_null(rt);
	for (k = 3; k < 10; k++) {
		assert_int_equal(cct_specialize(rt, k, data_a, &tab_a), 0);
		assert_true(cct_dir_bytes(dir) <= max);
	}
	assert_true(cct_count(dir, ".spo") < 9);
	spec_runtime__close(rt);
	rt = cct_open(tu_ir("code_cache"), dir, max);
	assert_non_null(rt);
	hits = cct_stats(rt).disk_hits; /* the generic variant: either */
	/* the newest kept, the oldest removed */
	assert_int_equal(cct_specialize(rt, 9, data_a, &tab_a), 0);
	assert_int_equal(cct_stats(rt).disk_hits, hits + 1);
	assert_int_equal(cct_specialize(rt, 3, data_a, &tab_a), 0);
	s = cct_stats(rt);
	assert_int_equal(s.disk_hits, hits + 1);
	assert_int_equal(s.disk_stores, 1 + !hits);
	assert_true(cct_dir_bytes(dir) <= max);
	assert_int_equal(cct_mismatches(rt, 3, data_a, &tab_a), 0);
	spec_runtime__close(rt);
}

#define NR_PROCS 4
#define NR_KS 6

/* Each child specializes the same six values in its own order. */
static int child(int n)
{
	struct spec_runtime *rt = cct_open(tu_ir("code_cache"), dir, 0);
	int i, bad = 0;

	if (!rt)
		return 100;
	for (i = 0; i < NR_KS; i++) {
		long k = 2 + (i + n) % NR_KS;

		bad += cct_specialize(rt, k, data_a, &tab_a) != 0;
		bad += cct_mismatches(rt, k, data_a, &tab_a);
	}
	spec_runtime__close(rt);
	return bad > 99 ? 99 : bad;
}

static void test_cache_is_shared_by_concurrent_processes(void **state)
{
	struct spec_runtime *rt;
	struct spec_runtime_stats s;
	int i, status;
	pid_t pids[NR_PROCS];
	long k;

	(void)state;
	for (i = 0; i < NR_PROCS; i++) {
		pids[i] = fork();
		assert_true(pids[i] >= 0);
		if (!pids[i])
			_exit(child(i));
	}
	for (i = 0; i < NR_PROCS; i++) {
		assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(cct_count(dir, ".tmp-"), 0);
	assert_int_equal(cct_count(dir, ".spo"), 1 + NR_KS);
	rt = open_dir();
	for (k = 2; k < 2 + NR_KS; k++) {
		assert_int_equal(cct_specialize(rt, k, data_a, &tab_a), 0);
		assert_int_equal(cct_mismatches(rt, k, data_a, &tab_a), 0);
	}
	s = cct_stats(rt);
	assert_int_equal(s.disk_hits, 1 + NR_KS);
	assert_int_equal(s.disk_rejected, 0);
	spec_runtime__close(rt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cache_is_off_unless_asked, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_bad_directory_fails_the_open, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_cache_restart_gets_code_rebound_to_its_addresses, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_twin_of_a_live_variant_gets_its_own_code,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_unrebindable_code_is_compiled_without_it,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_sampling_variant_serves_another_runtime,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_config_change_is_a_miss, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cache_data_change_is_a_miss, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_ir_change_is_a_miss, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_key_parts_of_the_host_and_builds_miss,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_damaged_files_are_rejected_and_replaced,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_stays_under_its_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cache_is_shared_by_concurrent_processes, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
