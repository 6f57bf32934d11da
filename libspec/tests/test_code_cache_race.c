// SPDX-License-Identifier: GPL-2.0
/*
 * Two users of one cache directory meet at a corrupt entry: one reads it
 * and removes it while the other has already compiled the variant and
 * renamed a fresh entry over it. The fresh entry must survive the removal;
 * the corrupt one must not. The interleaving is made exact, not hoped for:
 * this test defines renameat(), renameat2() and unlinkat() (the
 * executable's definitions win over libc's for the statically linked code
 * cache), and the first time the cache acts to remove an entry's name, the
 * other user's step runs first.
 */
#include <dirent.h>
#include <dlfcn.h>
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
#include <unistd.h>

#include <cmocka.h>

#include "code_cache.h"
#include "log.h"
#include "testutil.h"

static const char key[] = "key of one variant";
static const char old_code[] = "the payload stored first";
static const char fresh_code[] = "the payload the other process compiled";

static char dir[64];
static struct libspec_log log_ = {.fn = tu_print};
static struct code_cache *mine, *other;

/* What the other user does at the moment this one starts removing. */
enum step { NONE, STORE_FRESH, LOAD_CORRUPT, READ_ONLY /* the move fails: EROFS */ };
static enum step armed;
static int other_ret;

static void other_step(void)
{
	enum step s = armed;
	void *p = NULL;
	size_t len;

	armed = NONE; /* its own renames and unlinks pass through */
	if (s == STORE_FRESH)
		other_ret =
			code_cache_store(other, key, sizeof(key), fresh_code, sizeof(fresh_code));
	else if (s == LOAD_CORRUPT)
		other_ret = code_cache_load(other, key, sizeof(key), &p, &len);
	free(p);
}

/* A cache entry's name ("<digest>.spo"), not a temporary one. */
static bool entry_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".spo");
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	int (*real)(int, const char *, int, const char *) =
		(int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");

	if (armed != NONE && entry_name(oldpath))
		other_step();
	return real(olddirfd, oldpath, newdirfd, newpath);
}

/* The cache moves an entry aside with renameat2 (RENAME_NOREPLACE). */
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath,
	      unsigned int flags)
{
	int (*real)(int, const char *, int, const char *, unsigned int) =
		(int (*)(int, const char *, int, const char *, unsigned int))dlsym(RTLD_NEXT,
										   "renameat2");

	if (armed == READ_ONLY && entry_name(oldpath)) {
		armed = NONE;
		errno = EROFS;
		return -1;
	}
	if (armed != NONE && entry_name(oldpath))
		other_step();
	return real(olddirfd, oldpath, newdirfd, newpath, flags);
}

int unlinkat(int dirfd, const char *path, int flags)
{
	int (*real)(int, const char *, int) =
		(int (*)(int, const char *, int))dlsym(RTLD_NEXT, "unlinkat");

	if (armed != NONE && entry_name(path))
		other_step();
	return real(dirfd, path, flags);
}

/* Names in the directory: entries and temporaries (the .lock file aside). */
static void count_files(int *entries, int *tmps)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	*entries = *tmps = 0;
	while ((e = readdir(d))) {
		if (entry_name(e->d_name))
			++*entries;
		else if (!strncmp(e->d_name, ".tmp-", 5))
			++*tmps;
	}
	closedir(d);
}

/* Flip a byte of the only entry's payload (its last byte). */
static void corrupt_entry(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[sizeof(dir) + 256 + 2];
	int fd = -1;
	char c;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (entry_name(e->d_name)) {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			fd = open(path, O_RDWR);
			break;
		}
	closedir(d);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &c, 1, lseek(fd, -1, SEEK_END)), 1);
	c ^= 0x5a;
	assert_int_equal(pwrite(fd, &c, 1, lseek(fd, -1, SEEK_END)), 1);
	close(fd);
}

static int setup(void **state)
{
	char err[256];

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/libspec-ccr-XXXXXX");
	if (!mkdtemp(dir) || chmod(dir, 0700))
		return -1;
	if (code_cache_open(&mine, dir, 0, &log_, err, sizeof(err)) ||
	    code_cache_open(&other, dir, 0, &log_, err, sizeof(err)) || !mine || !other)
		return -1;
	armed = NONE;
	other_ret = 1;
	tu_capture();
	return code_cache_store(mine, key, sizeof(key), old_code, sizeof(old_code));
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	armed = NONE;
	code_cache_close(mine);
	code_cache_close(other);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* Alone, a corrupt entry is refused and removed, leaving nothing behind. */
static void test_corrupt_entry_is_removed(void **state)
{
	void *p = NULL;
	size_t len;
	int entries, tmps;

	(void)state;
	corrupt_entry();
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -EBADMSG);
	assert_non_null(strstr(tu_last_msg(), "truncated or corrupt, removed"));
	count_files(&entries, &tmps);
	assert_int_equal(entries, 0);
	assert_int_equal(tmps, 0);
}

/* The other process renames a fresh entry over the corrupt one after this
 * one read it and before it removes it: the fresh entry stays, and loads.
 */
static void test_fresh_entry_stored_meanwhile_survives_the_removal(void **state)
{
	void *p = NULL;
	size_t len = 0;
	int entries, tmps;
	bool msg_ok;

	(void)state;
	corrupt_entry();
	armed = STORE_FRESH;
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -EBADMSG);
	assert_int_equal(armed, NONE); /* the other step ran */
	assert_int_equal(other_ret, 0);
	msg_ok = strstr(tu_last_msg(), "replaced by another process") != NULL;
	tu_capture();
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), 0);
	assert_int_equal(len, sizeof(fresh_code));
	assert_memory_equal(p, fresh_code, len);
	free(p);
	assert_string_equal(tu_last_msg(), "");
	assert_true(msg_ok);
	count_files(&entries, &tmps);
	assert_int_equal(entries, 1);
	assert_int_equal(tmps, 0);
}

/* Both find the corrupt entry; the other removes it first: this one's
 * removal finds nothing to remove, and says so.
 */
static void test_two_readers_of_a_corrupt_entry_remove_it_once(void **state)
{
	void *p = NULL;
	size_t len;
	int entries, tmps;

	(void)state;
	corrupt_entry();
	armed = LOAD_CORRUPT;
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -EBADMSG);
	assert_int_equal(other_ret, -EBADMSG);
	assert_non_null(strstr(tu_last_msg(), "already removed"));
	count_files(&entries, &tmps);
	assert_int_equal(entries, 0);
	assert_int_equal(tmps, 0);
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -ENOENT);
}

/* Another pid namespace's process of this pid has moved entries aside
 * under the names this one would pick first: they are not replaced (the
 * first test run, so this process's sequence starts at 0).
 */
static void test_removal_never_replaces_a_private_name_in_use(void **state)
{
	char path[sizeof(dir) + 64], got[8];
	void *p = NULL;
	size_t len;
	int i, fd, entries, tmps;

	(void)state;
	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/.tmp-bad-%d-%d", dir, (int)getpid(), i);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, "theirs", 6), 6);
		close(fd);
	}
	corrupt_entry();
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -EBADMSG);
	assert_non_null(strstr(tu_last_msg(), "truncated or corrupt, removed"));
	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "%s/.tmp-bad-%d-%d", dir, (int)getpid(), i);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(read(fd, got, sizeof(got)), 6);
		assert_memory_equal(got, "theirs", 6);
		close(fd);
	}
	count_files(&entries, &tmps);
	assert_int_equal(entries, 0);
	assert_int_equal(tmps, 8);
}

/* A cache on a read-only file system: the corrupt entry stays, and the
 * line says why rather than "removed" or "already removed".
 */
static void test_a_removal_that_fails_says_why(void **state)
{
	void *p = NULL;
	size_t len;
	int entries, tmps;

	(void)state;
	corrupt_entry();
	armed = READ_ONLY;
	assert_int_equal(code_cache_load(mine, key, sizeof(key), &p, &len), -EBADMSG);
	assert_int_equal(armed, NONE);
	assert_non_null(strstr(tu_last_msg(), "not removed: Read-only file system"));
	count_files(&entries, &tmps);
	assert_int_equal(entries, 1);
	assert_int_equal(tmps, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_removal_never_replaces_a_private_name_in_use,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_a_removal_that_fails_says_why, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_entry_is_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_fresh_entry_stored_meanwhile_survives_the_removal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_readers_of_a_corrupt_entry_remove_it_once,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
