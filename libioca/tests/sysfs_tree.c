// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "sysfs_tree.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#ifndef IOCA_FIXTURES
#error "IOCA_FIXTURES names the fixtures directory (the Makefile sets it)"
#endif

static void mkparents(const char *path)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
}

void t_tree_put(const char *root, const char *rel, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkparents(path);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

void t_tree_rm(const char *root, const char *rel)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static void one_line(const char *root, char *line, const char *file, int lineno)
{
	char path[2200], text[1100], *sep;

	line[strcspn(line, "\n")] = '\0';
	if (!*line || *line == '#')
		return;
	sep = strstr(line, " -> ");
	if (sep) {
		*sep = '\0';
		snprintf(path, sizeof(path), "%s/%s", root, line);
		mkparents(path);
		assert_int_equal(symlink(sep + 4, path), 0);
		return;
	}
	sep = strstr(line, ": ");
	if (!sep) {
		sep = line + strlen(line) - 1;
		if (*sep != ':')
			fail_msg("%s:%d: neither \"path: text\" nor \"path -> target\"", file,
				 lineno);
		*sep = '\0';
		snprintf(text, sizeof(text), "\n");
	} else {
		*sep = '\0';
		snprintf(text, sizeof(text), "%s\n", sep + 2);
	}
	t_tree_put(root, line, text);
}

void t_tree_load(const char *root, const char *name)
{
	char file[512], line[1024];
	int lineno = 0;
	FILE *f;

	snprintf(file, sizeof(file), "%s/%s.tree", IOCA_FIXTURES, name);
	f = fopen(file, "r");
	if (!f)
		fail_msg("%s: cannot open", file);
	while (fgets(line, sizeof(line), f))
		one_line(root, line, file, ++lineno);
	fclose(f);
}
