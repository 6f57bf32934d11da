// SPDX-License-Identifier: GPL-2.0
/*
 * A code cache whose disk fails: full (ENOSPC) or read-only (EROFS). The
 * service gets the right code (compiled), every failed store is counted,
 * and the log says so once per run of failures, not once per variant.
 * Run as root: the disk is a small tmpfs mounted over a temporary
 * directory (skipped where mount(2) is not allowed). And a process that
 * stops while it trims the shared directory does not stop others' stores.
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
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/cache_fixture.h"
#include "testutil.h"

/* Variants compiled while the disk fails: each a failed store. */
#define FAILING 6
/* A store that waited for the lock holder would stop the test here. */
#define LOCK_ALARM_S 120

static char top[64], dir[96], fill[96];
static long data_a[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static struct cc_table tab_a;

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/libspec-ccd-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(dir, sizeof(dir), "%s/cache", top);
	snprintf(fill, sizeof(fill), "%s/fill", top);
	cct_table(&tab_a, 1);
	cct_cache_lines(NULL);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	alarm(0);
	umount2(top, MNT_DETACH);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

/* A 512 KiB tmpfs on top holding the cache directory, or skip. */
static void small_disk(void)
{
	if (geteuid() || mount("ccd", top, "tmpfs", 0, "size=512k,mode=0700"))
		skip();
	assert_int_equal(mkdir(dir, 0700), 0);
}

/* Take every free block of the disk. */
static void fill_disk(void)
{
	static const char block[4096];
	int fd = open(fill, O_WRONLY | O_CREAT | O_APPEND, 0600);

	assert_true(fd >= 0);
	while (write(fd, block, sizeof(block)) > 0)
		;
	assert_int_equal(errno, ENOSPC);
	close(fd);
}

/* @n variants from @k on: right code, each store failed, @lines lines. */
static void compile_failing(struct spec_runtime *rt, long k, int n, int lines, const char *what)
{
	struct spec_runtime_stats s0 = cct_stats(rt), s;
	const char *last;
	int i, got;

	for (i = 0; i < n; i++) {
		assert_int_equal(cct_specialize(rt, k + i, data_a, &tab_a), 0);
		assert_int_equal(cct_mismatches(rt, k + i, data_a, &tab_a), 0);
	}
	s = cct_stats(rt);
	assert_int_equal(s.disk_store_failures - s0.disk_store_failures, n);
	assert_int_equal(s.disk_stores, s0.disk_stores);
	got = cct_cache_lines(&last);
	if (got != lines || (lines && !strstr(last, what)))
		fail_msg("%d code cache lines (want %d naming \"%s\"), last: %s", got, lines, what,
			 last);
}

static void test_disk_full_is_said_once_per_run_of_failures(void **state)
{
	struct spec_runtime *rt;

	(void)state;
	small_disk();
	rt = cct_open(tu_ir("code_cache"), dir, 0);
	assert_non_null(rt);
	assert_int_equal(cct_stats(rt).disk_stores, 1); /* the generic variant */
	fill_disk();
	compile_failing(rt, 10, FAILING, 1, "No space left on device");
	/* Space again: stored, quietly. */
	assert_int_equal(unlink(fill), 0);
	assert_int_equal(cct_specialize(rt, 100, data_a, &tab_a), 0);
	assert_int_equal(cct_stats(rt).disk_stores, 2);
	assert_int_equal(cct_cache_lines(NULL), 0);
	/* Full again: a new run, said again. */
	fill_disk();
	compile_failing(rt, 200, FAILING, 1, "No space left on device");
	spec_runtime__close(rt);
}

static void test_read_only_disk_is_said_once(void **state)
{
	struct spec_runtime *rt;

	(void)state;
	small_disk();
	assert_int_equal(mount(NULL, top, NULL, MS_REMOUNT | MS_RDONLY, NULL), 0);
	rt = cct_open(tu_ir("code_cache"), dir, 0);
	assert_non_null(rt);
	compile_failing(rt, 10, FAILING, 1, "Read-only file system");
	spec_runtime__close(rt);
}

/* As a process of the same owner stopped (SIGSTOP, a debugger) in its trim. */
static void test_store_does_not_wait_for_a_stopped_trimmer(void **state)
{
	struct spec_runtime *rt;
	char lock[128];
	int fd;

	(void)state;
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(lock, sizeof(lock), "%s/.lock", dir);
	fd = open(lock, O_RDWR | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX), 0);
	alarm(LOCK_ALARM_S);
	rt = cct_open(tu_ir("code_cache"), dir, 0);
	assert_non_null(rt);
	assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
	alarm(0);
	assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
	assert_int_equal(cct_stats(rt).disk_stores, 2);
	assert_int_equal(cct_cache_lines(NULL), 0);
	spec_runtime__close(rt);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_disk_full_is_said_once_per_run_of_failures,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_disk_is_said_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_store_does_not_wait_for_a_stopped_trimmer,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
