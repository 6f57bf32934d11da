/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A temporary directory tree standing in for a sysfs-like one
 * (/sys/fs/resctrl, a cgroup root) in host-side tests: files are written
 * and read by path relative to the tree's root, and a failure is the
 * test's (cmocka asserts).
 */
#ifndef IOCAD_TESTS_FAKE_TREE_H
#define IOCAD_TESTS_FAKE_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "rdt.h"

/* A new empty tree: @root (@len bytes) gets /tmp/@name.XXXXXX, made. */
void fake_tree_make(char *root, size_t len, const char *name);
/*
 * fake_tree_make with fake_tree_resctrl_info and the root group's schemata
 * over two L3 domains (L3:0=7ff;1=7ff).
 */
void fake_tree_resctrl(char *root, size_t len, const char *name);
/* @data into the file @path as write(2) takes it: 0 or -errno (a write hook's plain case). */
int fake_tree_write(const char *path, const char *data);
/*
 * rdt_open on the tree @root for socket 0 (prefix iocad-s0-, cache id 0,
 * @family or NULL): writes through @write(@arg), rmdir as resctrl does
 * (fake_tree_rmdir_group), messages dropped. A failure is the test's.
 */
struct rdt *fake_tree_rdt_open(const char *root, const char *family, rdt_write_fn write, void *arg);

/* @root/@rel holds exactly @text. */
void fake_tree_put(const char *root, const char *rel, const char *text);
/* As fake_tree_put(), making @rel's missing parent directories first. */
void fake_tree_put_deep(const char *root, const char *rel, const char *text);
/* @buf gets @root/@rel as rdt_info_read_file() reads it. */
void fake_tree_get(const char *root, const char *rel, char *buf, size_t len);
bool fake_tree_exists(const char *root, const char *rel);
void fake_tree_mkdir(const char *root, const char *rel);
/* Whether @path ends with @tail (a write hook's way to tell files apart). */
bool fake_tree_ends(const char *path, const char *tail);
/*
 * A resctrl info/ skeleton under @root: an 11-way L3 (cbm_mask 7ff,
 * min_cbm_bits 1, 4 CLOSIDs, shareable_bits 600), last_cmd_status "ok".
 */
void fake_tree_resctrl_info(const char *root);
/* rmdir of a group as resctrl does it: its files go with it (an rdt_opts hook). */
int fake_tree_rmdir_group(void *arg, const char *path);
/* Removes @root/@rel and everything below it. */
void fake_tree_remove_sub(const char *root, const char *rel);
/* Removes @root and everything below it. */
void fake_tree_remove(const char *root);
/* A cmocka teardown: the fixture *@state starts with its tree's root (char root[]). */
int fake_tree_teardown(void **state);
/* @root/@rel reads back exactly @want. */
void fake_tree_assert(const char *root, const char *rel, const char *want);

#endif
