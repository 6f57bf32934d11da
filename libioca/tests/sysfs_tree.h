/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Fake sysfs trees for the preset tests: a fixture file
 * (tests/fixtures/<name>.tree) written out below a temp directory.
 * Lines: "path: text" (a file holding text and a newline), "path -> target"
 * (a symlink), "# ..." (a comment). Paths are relative to the tree's root.
 */
#ifndef LIBIOCA_TESTS_SYSFS_TREE_H
#define LIBIOCA_TESTS_SYSFS_TREE_H

/* Writes fixture @name below @root; asserts on any failure. */
void t_tree_load(const char *root, const char *name);

/* Writes @text (as is) into @root/@rel, creating directories. */
void t_tree_put(const char *root, const char *rel, const char *text);

/* Removes @root/@rel (a file, a link or a whole directory). */
void t_tree_rm(const char *root, const char *rel);

#endif
