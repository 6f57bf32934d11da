// SPDX-License-Identifier: GPL-2.0
/*
 * The code cache trusts only its owner: a directory or entry another user
 * owns or could write, a symbolic link, a FIFO, an oversized, truncated or
 * changed file is refused with one log line naming it and the reason, and
 * the service still gets the right code (compiled). The key names the
 * builds of libspec and LLVM, and only the tests' build reads the key
 * override. Run as root: other owners are made with chown(2) to nobody.
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
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "cache/cache_fixture.h"
#include "testutil.h"

#define NOBODY 65534
/* A FIFO that blocked the open would stop the test here, not hang it. */
#define FIFO_ALARM_S 120

static char top[64], dir[96];
static long data_a[8] = {3, 1, 4, 1, 5, 9, 2, 6};
static struct cc_table tab_a;

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/libspec-cct-XXXXXX");
	if (!mkdtemp(top))
		return -1;
	snprintf(dir, sizeof(dir), "%s/cache", top);
	cct_table(&tab_a, 1);
	cct_cache_lines(NULL);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd);
}

static void need_root(void)
{
	if (geteuid())
		skip();
}

/*
 * A runtime on @d specializes and answers right; @lines cache warnings,
 * the last naming @what; its stats into *@s.
 */
static void run(const char *d, int lines, const char *what, struct spec_runtime_stats *s)
{
	struct spec_runtime *rt = cct_open(tu_ir("code_cache"), d, 0);
	const char *last;
	int n;

	if (!rt)
		fail_msg("open with the code cache in %s: %s", d, tu_last_msg());
	assert_int_equal(cct_specialize(rt, 8, data_a, &tab_a), 0);
	assert_int_equal(cct_mismatches(rt, 8, data_a, &tab_a), 0);
	*s = cct_stats(rt);
	spec_runtime__close(rt);
	n = cct_cache_lines(&last);
	if (n != lines || (what && !strstr(last, what)))
		fail_msg("%d code cache lines (want %d naming \"%s\"), last: %s", n, lines,
			 what ? what : "", last);
}

/* @d is refused at open (one line naming @why) and nothing is stored. */
static void refused_dir(const char *d, const char *why)
{
	struct spec_runtime_stats s;

	run(d, 1, why, &s);
	assert_int_equal(s.disk_hits + s.disk_stores + s.disk_rejected, 0);
	assert_int_equal(cct_count(d, ".spo"), 0);
}

static void used_dir(const char *d)
{
	struct spec_runtime_stats s;

	run(d, 0, NULL, &s);
	assert_int_equal(s.disk_stores, 2);
}

static void test_trust_new_directory_is_private(void **state)
{
	struct stat st;

	(void)state;
	used_dir(dir);
	assert_int_equal(lstat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, geteuid());
}

static void test_trust_directory_of_another_user_is_not_used(void **state)
{
	(void)state;
	need_root();
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(chown(dir, NOBODY, NOBODY), 0);
	refused_dir(dir, "owned by uid 65534, not 0");
}

static void test_trust_world_writable_directory_is_not_used(void **state)
{
	(void)state;
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(chmod(dir, 0777), 0);
	refused_dir(dir, "writable by group or others (mode 0777)");
	assert_int_equal(chmod(dir, 0775), 0);
	refused_dir(dir, "writable by group or others (mode 0775)");
}

/* Anyone could rename the cache away and put theirs in its place. */
static void test_trust_parent_writable_without_sticky_bit_is_not_used(void **state)
{
	char why[160];

	(void)state;
	assert_int_equal(chmod(top, 0777), 0);
	snprintf(why, sizeof(why), "parent %s is writable by group or others without the sticky",
		 top);
	refused_dir(dir, why);
	/* As /tmp: others cannot rename or remove what they do not own. */
	assert_int_equal(chmod(top, 01777), 0);
	used_dir(dir);
}

static void test_trust_parent_of_another_user_is_not_used(void **state)
{
	char why[160];

	(void)state;
	need_root();
	assert_int_equal(chown(top, NOBODY, NOBODY), 0);
	snprintf(why, sizeof(why), "parent %s is owned by uid 65534", top);
	refused_dir(dir, why);
}

static void test_trust_symlinked_directory_is_not_used(void **state)
{
	char real[128];

	(void)state;
	snprintf(real, sizeof(real), "%s/real", top);
	assert_int_equal(mkdir(real, 0700), 0);
	assert_int_equal(symlink(real, dir), 0);
	refused_dir(dir, "a symbolic link");
	assert_int_equal(cct_count(real, ".spo"), 0);
}

/* Paths of the cache's entries (the generic variant and one other). */
static int entries(char paths[2][400])
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(dp);
	while ((e = readdir(dp))) {
		if (strstr(e->d_name, ".spo") && n < 2)
			snprintf(paths[n++], sizeof(paths[0]), "%s/%s", dir, e->d_name);
	}
	closedir(dp);
	return n;
}

/* Damage @path as @how says (the outside copy of a link target: @i). */
static void damage(const char *path, char how, int i)
{
	char other[160];
	struct stat st;
	int fd = -1;

	if (how == 'o' || how == 'p' || how == 'w')
		fd = open(path, O_RDWR);
	switch (how) {
	case 'o':
		assert_int_equal(fchown(fd, NOBODY, NOBODY), 0);
		break;
	case 'w':
		assert_int_equal(fchmod(fd, 0666), 0);
		break;
	case 'p': /* one payload bit */
		assert_int_equal(fstat(fd, &st), 0);
		assert_int_equal(pwrite(fd, "\x01", 1, st.st_size - 40), 1);
		break;
	case 't':
		assert_int_equal(lstat(path, &st), 0);
		assert_int_equal(truncate(path, st.st_size / 2), 0);
		break;
	case 's': /* sparse: beyond the 64 MiB bound */
		assert_int_equal(truncate(path, (64 << 20) + 1), 0);
		break;
	case 'l': /* the same valid bytes, through a link */
		snprintf(other, sizeof(other), "%s/outside-%d", top, i);
		assert_int_equal(rename(path, other), 0);
		assert_int_equal(symlink(other, path), 0);
		break;
	case 'f':
		assert_int_equal(unlink(path), 0);
		assert_int_equal(mkfifo(path, 0600), 0);
		break;
	}
	if (fd >= 0)
		close(fd);
}

static const struct {
	char how;
	const char *why;
	int rejected; /* each with its line */
} entry_cases[] = {
	{'o', "refused, owned by uid 65534, not 0", 2},
	{'w', "refused, writable by group or others (mode 0666)", 2},
	{'l', "refused, a symbolic link", 2},
	{'f', "refused, not a regular file", 2},
	/* The first store evicts the other: its size counts against the bound. */
	{'s', "refused, 67108865 bytes, more than", 1},
	{'t', "truncated or corrupt, removed", 2},
	{'p', "truncated or corrupt, removed", 2},
};

static void test_trust_untrusted_entries_are_refused_and_replaced(void **state)
{
	struct spec_runtime_stats s;
	char paths[2][400];
	size_t c;
	int i;

	(void)state;
	used_dir(dir);
	for (c = 0; c < sizeof(entry_cases) / sizeof(entry_cases[0]); c++) {
		if (entry_cases[c].how == 'o' && geteuid())
			continue;
		assert_int_equal(entries(paths), 2);
		for (i = 0; i < 2; i++)
			damage(paths[i], entry_cases[c].how, i);
		alarm(FIFO_ALARM_S);
		run(dir, entry_cases[c].rejected, entry_cases[c].why, &s);
		alarm(0);
		assert_int_equal(s.disk_rejected, entry_cases[c].rejected);
		assert_int_equal(s.disk_hits, 0);
		assert_int_equal(s.disk_stores, 2);
		/* Replaced by the stores: trusted again. */
		run(dir, 0, NULL, &s);
		assert_int_equal(s.disk_hits, 2);
	}
}

/* The build ids of the object holding libspec (this test: statically
 * linked) and of LLVM are in every key.
 */
static void test_trust_key_names_the_builds(void **state)
{
	char paths[2][400], id[128] = "", want[160], *buf, *line;
	char cmd[128];
	size_t n;
	FILE *f;

	(void)state;
	snprintf(cmd, sizeof(cmd),
		 "readelf -n /proc/%d/exe 2>/dev/null | sed -n 's/.*Build ID: //p'", (int)getpid());
	f = popen(cmd, "r");
	if (!f || !fgets(id, sizeof(id), f) || !id[0]) {
		if (f)
			pclose(f);
		skip();
	}
	pclose(f);
	id[strcspn(id, "\n")] = '\0';
	used_dir(dir);
	assert_int_equal(entries(paths), 2);
	f = fopen(paths[0], "rb");
	assert_non_null(f);
	buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	assert_true(n > 0);
	line = memmem(buf, n, "\nlibspec ", 9);
	assert_non_null(line);
	line[strcspn(line + 1, "\n") + 1] = '\0';
	snprintf(want, sizeof(want), " build %s", id);
	if (!strstr(line, want))
		fail_msg("key line \"%s\" lacks \"%s\"", line + 1, want);
	assert_non_null(memmem(line + strlen(line) + 1, 64, "llvm ", 5));
	assert_null(memmem(buf, n, "build unknown", 13));
	free(buf);
}

/* Only the tests' build reads LIBSPEC_CACHE_TEST_KEY. */
static void test_trust_production_library_has_no_key_override(void **state)
{
	static const char *const libs[] = {LIBSPEC_DIR "/build/libspec.so.1",
					   LIBSPEC_DIR "/build/obj/jit/jit_cache.o"};
	const char *needle = "LIBSPEC_CACHE_TEST_KEY";
	size_t i, n;
	char *buf;
	FILE *f;

	(void)state;
	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		f = fopen(libs[i], "rb");
		if (!f)
			skip();
		buf = malloc(256 << 20);
		assert_non_null(buf);
		n = fread(buf, 1, 256 << 20, f);
		fclose(f);
		if (memmem(buf, n, needle, strlen(needle)))
			fail_msg("%s reads %s", libs[i], needle);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_trust_new_directory_is_private, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_trust_directory_of_another_user_is_not_used,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_trust_world_writable_directory_is_not_used,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_trust_parent_writable_without_sticky_bit_is_not_used, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trust_parent_of_another_user_is_not_used,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_trust_symlinked_directory_is_not_used, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_trust_untrusted_entries_are_refused_and_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trust_key_names_the_builds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_trust_production_library_has_no_key_override,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
