// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl parsing and planning against a temporary directory tree shaped
 * like /sys/fs/resctrl: info/L3 values, mask rules, schemata lines, group
 * creation, CPU and mask writes, rollback on a refused write, stale-group
 * cleanup, CLOSID accounting, and that other groups are never touched.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "rdt.h"
#include "rdt_apply.h"
#include "fake_tree.h"
#include "rdt_info.h"

struct tree {
	char root[64];
	/* refuse the write whose path ends with this, as the kernel would */
	const char *refuse;
	int writes;
};

/* The kernel makes these files in every new group; a plain dir has none. */
static int tree_write(void *arg, const char *path, const char *data)
{
	struct tree *t = arg;

	t->writes++;
	if (t->refuse && fake_tree_ends(path, t->refuse)) {
		fake_tree_put(t->root, "info/last_cmd_status", "Mask out of range\n");
		return -EINVAL;
	}
	return fake_tree_write(path, data);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	fake_tree_resctrl(t->root, sizeof(t->root), "iocad-rdt");
	*state = t;
	return 0;
}

static struct rdt *open_tree(struct tree *t)
{
	return fake_tree_rdt_open(t->root, NULL, tree_write, t);
}

static struct rdt_group grp(const char *name, unsigned int lo, unsigned int hi, uint32_t mask)
{
	struct rdt_group g = {.mask = mask};

	snprintf(g.name, sizeof(g.name), "%s", name);
	for (unsigned int c = lo; c <= hi; c++)
		g.cpus[g.ncpus++] = c;
	return g;
}

static void test_rdt_info_reads_l3_values(void **state)
{
	struct tree *t = *state;
	struct rdt_l3_info i;
	char err[256] = "";

	assert_int_equal(rdt_info_read(t->root, &i, err, sizeof(err)), 0);
	assert_int_equal(i.cbm_mask, 0x7ff);
	assert_int_equal(i.cbm_len, 11);
	assert_int_equal(i.min_cbm_bits, 1);
	assert_int_equal(i.num_closids, 4);
	assert_int_equal(i.shareable_bits, 0x600);
}

static void test_rdt_info_not_mounted_says_how_to_mount(void **state)
{
	struct tree *t = *state;
	struct rdt_l3_info i;
	char err[512] = "", root[128];

	snprintf(root, sizeof(root), "%s/schemata.d", t->root);
	fake_tree_mkdir(t->root, "schemata.d");
	assert_int_equal(rdt_info_read(root, &i, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "not mounted"));
	assert_non_null(strstr(err, "mount -t resctrl resctrl"));
}

static void test_rdt_info_bad_value_is_named(void **state)
{
	struct tree *t = *state;
	struct rdt_l3_info i;
	char err[512] = "";

	fake_tree_put(t->root, "info/L3/num_closids", "four\n");
	assert_int_equal(rdt_info_read(t->root, &i, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "num_closids"));
	assert_non_null(strstr(err, "four"));
}

static void test_rdt_info_mask_rules(void **state)
{
	struct rdt_l3_info i = {.cbm_mask = 0x7ff, .cbm_len = 11, .min_cbm_bits = 2};
	char why[128];

	(void)state;
	assert_int_equal(rdt_info_check_mask(&i, 0x3, why, sizeof(why)), 0);
	assert_int_equal(rdt_info_check_mask(&i, 0x600, why, sizeof(why)), 0);
	assert_int_equal(rdt_info_check_mask(&i, 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(rdt_info_check_mask(&i, 0x5, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "contiguous"));
	assert_int_equal(rdt_info_check_mask(&i, 0x4, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "min_cbm_bits"));
	assert_int_equal(rdt_info_check_mask(&i, 0xc00, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "cbm_mask"));
}

static void test_rdt_info_schemata_line(void **state)
{
	uint32_t m = 0;

	(void)state;
	assert_int_equal(rdt_info_schemata_l3("MB:0=100;1=100\nL3:0=7ff;1=03c\n", 1, &m), 0);
	assert_int_equal(m, 0x3c);
	assert_int_equal(rdt_info_schemata_l3("    L3:0=7ff;1=03c\n", 0, &m), 0);
	assert_int_equal(m, 0x7ff);
	assert_int_equal(rdt_info_schemata_l3("L3:0=7ff\n", 2, &m), -ENOENT);
	assert_int_equal(rdt_info_schemata_l3("MB:0=100\n", 0, &m), -ENOENT);
	assert_int_equal(rdt_info_schemata_l3("L3:0=zz\n", 0, &m), -EINVAL);
}

static void test_rdt_apply_creates_groups_with_cpus_and_masks(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", 0, 1, 0x3), grp("batch", 2, 4, 0x1c)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=3\n");
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0-1\n");
	fake_tree_assert(t->root, "iocad-s0-batch/schemata", "L3:0=1c\n");
	fake_tree_assert(t->root, "iocad-s0-batch/cpus_list", "2-4\n");
	rdt_close(r);
}

static void test_rdt_apply_writes_only_what_changed(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", 0, 1, 0x3), grp("batch", 2, 4, 0x1c)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	t->writes = 0;
	g[1].mask = 0x3c;
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(t->writes, 1);
	rdt_close(r);
}

static void test_rdt_apply_refused_write_puts_every_mask_back(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", 0, 1, 0x3), grp("batch", 2, 4, 0x1c)};
	struct rdt_group h[3] = {grp("web", 0, 1, 0x7), grp("batch", 2, 4, 0x38),
				 grp("db", 5, 5, 0x40)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	t->refuse = "iocad-s0-batch/schemata";
	assert_int_equal(rdt_apply(r, h, 3, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "iocad-s0-batch"));
	assert_non_null(strstr(err, "last_cmd_status: Mask out of range"));
	t->refuse = NULL;
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=3\n");
	fake_tree_assert(t->root, "iocad-s0-batch/schemata", "L3:0=1c\n");
	/* the group this apply created is gone again; ours are as they were */
	assert_false(fake_tree_exists(t->root, "iocad-s0-db"));
	const struct rdt_group *now;
	assert_int_equal(rdt_groups(r, &now), 2);
	assert_int_equal(now[1].mask, 0x1c);
	rdt_close(r);
}

static void test_rdt_apply_refused_cpus_write_rolls_back(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[1] = {grp("web", 0, 1, 0x3)};
	struct rdt_group h[2] = {grp("web", 0, 0, 0x7), grp("db", 1, 1, 0x8)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 1, err, sizeof(err)), 0);
	t->refuse = "iocad-s0-db/cpus_list";
	assert_int_equal(rdt_apply(r, h, 2, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "assigning CPUs"));
	t->refuse = NULL;
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=3\n");
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0-1\n");
	assert_false(fake_tree_exists(t->root, "iocad-s0-db"));
	rdt_close(r);
}

static void test_rdt_apply_bad_mask_changes_nothing(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", 0, 1, 0x3), grp("batch", 2, 4, 0x5)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "iocad-s0-batch"));
	assert_non_null(strstr(err, "not contiguous"));
	assert_int_equal(t->writes, 0);
	assert_false(fake_tree_exists(t->root, "iocad-s0-web"));
	rdt_close(r);
}

static void test_rdt_apply_drops_removed_groups_only_ours(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", 0, 1, 0x3), grp("batch", 2, 4, 0x1c)};
	char err[512] = "";

	fake_tree_mkdir(t->root, "operator-group");
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_apply(r, g, 1, err, sizeof(err)), 0);
	assert_true(fake_tree_exists(t->root, "iocad-s0-web"));
	assert_false(fake_tree_exists(t->root, "iocad-s0-batch"));
	assert_int_equal(rdt_remove_all(r), 0);
	assert_false(fake_tree_exists(t->root, "iocad-s0-web"));
	assert_true(fake_tree_exists(t->root, "operator-group"));
	rdt_close(r);
}

static void test_rdt_stale_groups_found_and_removed(void **state)
{
	struct tree *t = *state;
	char names[4][PLATFORM_NAME_LEN + RDT_PREFIX_LEN];
	struct rdt *r = open_tree(t);
	char err[512] = "";

	fake_tree_mkdir(t->root, "iocad-s0-old");
	fake_tree_mkdir(t->root, "iocad-s1-other-socket");
	fake_tree_mkdir(t->root, "operator-group");
	assert_int_equal(rdt_find_stale(r, names, 4), 1);
	assert_string_equal(names[0], "iocad-s0-old");
	assert_int_equal(rdt_remove_stale(r, err, sizeof(err)), 1);
	assert_false(fake_tree_exists(t->root, "iocad-s0-old"));
	assert_true(fake_tree_exists(t->root, "iocad-s1-other-socket"));
	assert_true(fake_tree_exists(t->root, "operator-group"));
	rdt_close(r);
}

static void test_rdt_closids_counted_with_numbers(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	char err[512] = "";

	/* num_closids 4: default + 3 */
	assert_int_equal(rdt_check_closids(r, 3, err, sizeof(err)), 0);
	fake_tree_mkdir(t->root, "operator-group");
	assert_int_equal(rdt_check_closids(r, 3, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "3 tenant groups need 3 CLOSIDs"));
	assert_non_null(strstr(err, "num_closids is 4"));
	assert_non_null(strstr(err, "leaving 2"));
	rdt_close(r);
}

/* This daemon's groups on other sockets are not others' CLOSIDs; a CPU of another's group is found.
 */
static void test_rdt_groups_of_others_hold_cpus_and_closids(void **state)
{
	struct tree *t = *state;
	struct rdt *r = fake_tree_rdt_open(t->root, "iocad-s", tree_write, t);
	struct platform_cpuset cpus = {{0}};
	char err[512] = "", name[64];
	unsigned int cpu = 0;

	fake_tree_mkdir(t->root, "iocad-s1-db");
	fake_tree_put(t->root, "iocad-s1-db/cpus_list", "4-5\n");
	fake_tree_mkdir(t->root, "ops");
	fake_tree_put(t->root, "ops/cpus_list", "2-3,9\n");
	/* num_closids 4: default, ops, and 2 for the daemon's groups of every socket */
	assert_int_equal(rdt_check_closids(r, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_check_closids(r, 3, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "1 group(s) iocad did not create exist, leaving 2"));
	platform_cpuset_add(&cpus, 4); /* the daemon's own group on socket 1: fine */
	platform_cpuset_add(&cpus, 8);
	assert_int_equal(rdt_foreign_cpus(r, &cpus, name, sizeof(name), &cpu), 0);
	platform_cpuset_add(&cpus, 9);
	assert_int_equal(rdt_foreign_cpus(r, &cpus, name, sizeof(name), &cpu), 1);
	assert_string_equal(name, "ops");
	assert_int_equal(cpu, 9);
	rdt_close(r);
}

/* After a failed write, what resctrl holds is read back: the next apply writes what differs. */
static void test_rdt_reread_takes_what_is_there(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("a", 0, 1, 0x3), grp("b", 2, 2, 0xc)};
	const struct rdt_group *cur;
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	/* behind iocad's back (a rollback that failed, say): b's mask and a's CPUs differ */
	fake_tree_put(t->root, "iocad-s0-b/schemata", "L3:0=030;1=7ff\n");
	fake_tree_put(t->root, "iocad-s0-a/cpus_list", "0\n");
	assert_int_equal(rdt_reread(r), 0);
	assert_int_equal(rdt_groups(r, &cur), 2);
	cur = rdt_find(cur, 2, "b");
	assert_non_null(cur);
	assert_int_equal(cur->mask, 0x30);
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_groups(r, &cur), 2);
	assert_int_equal(rdt_find(cur, 2, "b")->mask, 0xc);
	rdt_close(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rdt_info_reads_l3_values, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_info_not_mounted_says_how_to_mount, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_info_bad_value_is_named, setup,
						fake_tree_teardown),
		cmocka_unit_test(test_rdt_info_mask_rules),
		cmocka_unit_test(test_rdt_info_schemata_line),
		cmocka_unit_test_setup_teardown(test_rdt_apply_creates_groups_with_cpus_and_masks,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_apply_writes_only_what_changed, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_apply_refused_write_puts_every_mask_back,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_apply_refused_cpus_write_rolls_back, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_apply_bad_mask_changes_nothing, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_apply_drops_removed_groups_only_ours,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_stale_groups_found_and_removed, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_groups_of_others_hold_cpus_and_closids,
						setup, fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_reread_takes_what_is_there, setup,
						fake_tree_teardown),
		cmocka_unit_test_setup_teardown(test_rdt_closids_counted_with_numbers, setup,
						fake_tree_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
