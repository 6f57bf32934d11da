// SPDX-License-Identifier: GPL-2.0
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <errno.h>
#include <cmocka.h>

#include "fake_tree.h"
#include "rdt_info.h"

static void tree_path(char *path, size_t len, const char *root, const char *rel)
{
	int n = snprintf(path, len, "%s/%s", root, rel);

	assert_true(n > 0 && (size_t)n < len);
}

void fake_tree_make(char *root, size_t len, const char *name)
{
	int n = snprintf(root, len, "/tmp/%s.XXXXXX", name);

	assert_true(n > 0 && (size_t)n < len);
	assert_non_null(mkdtemp(root));
}

void fake_tree_resctrl(char *root, size_t len, const char *name)
{
	fake_tree_make(root, len, name);
	fake_tree_resctrl_info(root);
	fake_tree_put(root, "schemata", "L3:0=7ff;1=7ff\n");
}

int fake_tree_write(const char *path, const char *data)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(data, f);
	return fclose(f) ? -errno : 0;
}

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

struct rdt *fake_tree_rdt_open(const char *root, const char *family, rdt_write_fn write, void *arg)
{
	char err[512] = "";
	struct rdt_opts o = {
		.sz = sizeof(o),
		.root = root,
		.prefix = "iocad-s0-",
		.family = family,
		.cache_id = 0,
		.write = write,
		.rmdir = fake_tree_rmdir_group,
		.fs_arg = arg,
		.print = quiet,
	};
	struct rdt *r = rdt_open(&o, err, sizeof(err));

	if (!r)
		fail_msg("rdt_open: %s", err);
	return r;
}

void fake_tree_put(const char *root, const char *rel, const char *text)
{
	char path[256];
	FILE *f;

	tree_path(path, sizeof(path), root, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

void fake_tree_put_deep(const char *root, const char *rel, const char *text)
{
	char dir[256];

	for (const char *p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		int n = snprintf(dir, sizeof(dir), "%s/%.*s", root, (int)(p - rel), rel);

		assert_true(n > 0 && (size_t)n < sizeof(dir));
		assert_true(!mkdir(dir, 0755) || errno == EEXIST);
	}
	fake_tree_put(root, rel, text);
}

void fake_tree_get(const char *root, const char *rel, char *buf, size_t len)
{
	char path[256];

	tree_path(path, sizeof(path), root, rel);
	assert_int_equal(rdt_info_read_file(path, buf, len), 0);
}

bool fake_tree_exists(const char *root, const char *rel)
{
	char path[256];
	struct stat st;

	tree_path(path, sizeof(path), root, rel);
	return !stat(path, &st);
}

void fake_tree_mkdir(const char *root, const char *rel)
{
	char path[256];

	tree_path(path, sizeof(path), root, rel);
	assert_int_equal(mkdir(path, 0755), 0);
}

bool fake_tree_ends(const char *path, const char *tail)
{
	size_t n = strlen(path), m = strlen(tail);

	return n >= m && !strcmp(path + n - m, tail);
}

void fake_tree_resctrl_info(const char *root)
{
	fake_tree_mkdir(root, "info");
	fake_tree_mkdir(root, "info/L3");
	fake_tree_put(root, "info/L3/cbm_mask", "7ff\n");
	fake_tree_put(root, "info/L3/min_cbm_bits", "1\n");
	fake_tree_put(root, "info/L3/num_closids", "4\n");
	fake_tree_put(root, "info/L3/shareable_bits", "600\n");
	fake_tree_put(root, "info/last_cmd_status", "ok\n");
}

int fake_tree_rmdir_group(void *arg, const char *path)
{
	char f[256];

	(void)arg;
	snprintf(f, sizeof(f), "%s/schemata", path);
	unlink(f);
	snprintf(f, sizeof(f), "%s/cpus_list", path);
	unlink(f);
	return rmdir(path) ? -errno : 0;
}

void fake_tree_remove(const char *root)
{
	char cmd[300];

	assert_non_null(strchr(root, '/'));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

void fake_tree_remove_sub(const char *root, const char *rel)
{
	char path[256];

	tree_path(path, sizeof(path), root, rel);
	fake_tree_remove(path);
}

int fake_tree_teardown(void **state)
{
	fake_tree_remove(*state);
	free(*state);
	return 0;
}

void fake_tree_assert(const char *root, const char *rel, const char *want)
{
	char buf[512];

	fake_tree_get(root, rel, buf, sizeof(buf));
	assert_string_equal(buf, want);
}
