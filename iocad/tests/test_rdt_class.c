// SPDX-License-Identifier: GPL-2.0
/*
 * rdt_class: a tenant's group is a container runtime's existing resctrl
 * group. Against a temporary tree shaped like /sys/fs/resctrl: iocad writes
 * only that group's L3 mask on its own domain, never its CPUs or tasks,
 * never creates or removes it, puts back the mask it found when it lets
 * go, and counts it among the groups of others for CLOSIDs.
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

#include "config/config.h"
#include "host_cat.h"
#include "rdt.h"
#include "fake_tree.h"
#include "rdt_info.h"

struct tree {
	char root[64];
	int writes;
	char last_write[256];
};

/* resctrl applies a partial schemata line to the domains it names */
static int tree_write(void *arg, const char *path, const char *data)
{
	struct tree *t = arg;

	t->writes++;
	snprintf(t->last_write, sizeof(t->last_write), "%s", path);
	return fake_tree_write(path, data);
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	fake_tree_resctrl(t->root, sizeof(t->root), "iocad-rdtclass");
	/* the runtime's class, with a container's task in it */
	fake_tree_mkdir(t->root, "gold");
	fake_tree_put(t->root, "gold/schemata", "L3:0=7ff;1=7ff\n");
	fake_tree_put(t->root, "gold/cpus_list", "\n");
	fake_tree_put(t->root, "gold/tasks", "4242\n");
	*state = t;
	return 0;
}

static struct rdt *open_tree(struct tree *t)
{
	return fake_tree_rdt_open(t->root, "iocad-", tree_write, t);
}

static struct rdt_group grp(const char *name, bool shared, unsigned int cpu, uint32_t mask)
{
	struct rdt_group g = {.mask = mask, .shared = shared};

	snprintf(g.name, sizeof(g.name), "%s", name);
	g.cpus[g.ncpus++] = cpu;
	return g;
}

static void test_rdt_class_only_its_mask_is_written(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", false, 1, 0x3), grp("gold", true, 2, 0x1c)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "gold/schemata",
			 "L3:0=1c\n"); /* our domain only: a partial line */
	fake_tree_assert(t->root, "gold/cpus_list", "\n");
	fake_tree_assert(t->root, "gold/tasks", "4242\n");
	assert_false(fake_tree_exists(t->root, "iocad-s0-gold"));
	assert_true(fake_tree_exists(t->root, "iocad-s0-web/cpus_list"));
	/* a new mask: one write, the schemata */
	t->writes = 0;
	g[1].mask = 0x38;
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(t->writes, 1);
	assert_non_null(strstr(t->last_write, "/gold/schemata"));
	rdt_close(r);
}

static void test_rdt_class_let_go_gets_its_mask_back_never_removed(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", false, 1, 0x3), grp("gold", true, 2, 0x1c)};
	char err[512] = "";

	fake_tree_put(t->root, "gold/schemata", "L3:0=7f0;1=7ff\n");
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	/* the tenant leaves: the class gets the mask it had, and stays */
	assert_int_equal(rdt_apply(r, g, 1, err, sizeof(err)), 0);
	assert_true(fake_tree_exists(t->root, "gold/tasks"));
	fake_tree_assert(t->root, "gold/schemata", "L3:0=7f0\n");
	/* and at exit */
	fake_tree_put(t->root, "gold/schemata", "L3:0=7f0;1=7ff\n");
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_remove_all(r), 0);
	assert_true(fake_tree_exists(t->root, "gold/tasks"));
	assert_false(fake_tree_exists(t->root, "iocad-s0-web"));
	fake_tree_assert(t->root, "gold/schemata", "L3:0=7f0\n");
	rdt_close(r);
}

static void test_rdt_class_missing_waits_never_created(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", false, 1, 0x3), grp("silver", true, 2, 0x1c)};
	const struct rdt_group *cur;
	char err[512] = "";

	assert_int_equal(rdt_check_shared(r, "silver", err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "iocad never creates a runtime's class"));
	assert_int_equal(rdt_check_shared(r, "gold", err, sizeof(err)), 0);
	assert_int_equal(rdt_check_shared(r, "iocad-s1-x", err, sizeof(err)), -EINVAL);
	/* a class not there (yet): its tenant waits, the others are applied */
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_false(fake_tree_exists(t->root, "silver"));
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=3\n");
	assert_int_equal(rdt_groups(r, &cur), 2);
	assert_true(cur[1].missing);
	rdt_close(r);
}

static void test_rdt_class_counts_among_others_for_closids(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	char err[512] = "";

	/* 4 CLOSIDs: the default group, gold (the runtime's), two left for iocad */
	assert_int_equal(rdt_check_closids(r, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_check_closids(r, 3, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "1 group(s) iocad did not create"));
	rdt_close(r);
}

static void test_rdt_class_plan_group_maps_to_the_class(void **state)
{
	static struct platform_socket_plan sp;
	static struct rdt_group out[RDT_MAX_GROUPS];

	(void)state;
	memset(&sp, 0, sizeof(sp));
	sp.ngroups = 2;
	snprintf(sp.group[0].name, sizeof(sp.group[0].name), "web");
	sp.group[0].mask = 0x3;
	snprintf(sp.group[1].name, sizeof(sp.group[1].name), "db");
	snprintf(sp.group[1].rdt_class, sizeof(sp.group[1].rdt_class), "gold");
	sp.group[1].mask = 0x1c;
	platform_cpuset_add(&sp.group[1].cpus, 5);
	assert_int_equal(host_cat_groups(&sp, NULL, out), 2);
	assert_false(out[0].shared);
	assert_string_equal(out[0].name, "web");
	assert_true(out[1].shared);
	assert_string_equal(out[1].name, "gold");
	assert_int_equal(out[1].mask, 0x1c);
}

static void test_config_rdt_class_rules(void **state)
{
	static struct config c;
	char err[512] = "";

	(void)state;
	assert_int_equal(config_parse_string("[tenant db]\ncpus = 1\nways = 2\nrdt_class = gold\n",
					     "r.ini", &c, err, sizeof(err)),
			 0);
	assert_string_equal(c.tenant[0].rdt_class, "gold");
	/* a tenant named after its class is that class */
	assert_int_equal(
		config_parse_string("[tenant gold]\ncpus = 1\nways = 2\nrdt_class = gold\n",
				    "r.ini", &c, err, sizeof(err)),
		0);
	assert_int_equal(config_parse_string("[tenant db]\ncpus = 1\nways = 2\n"
					     "rdt_class = iocad-s0-x\n",
					     "r.ini", &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "r.ini:4: [tenant db] rdt_class: bad value 'iocad-s0-x'"));
	assert_int_equal(config_parse_string("[tenant a]\ncpus = 1\nways = 2\nrdt_class = gold\n"
					     "[tenant b]\ncpus = 2\nways = 2\nrdt_class = gold\n",
					     "r.ini", &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "r.ini:8: [tenant b] rdt_class: 'gold' is also tenant a's "
				    "(line 4)"));
	/* one group naming one class is one class of service */
	assert_int_equal(config_parse_string("[tenant a]\ncpus = 1\nways = 2\nrdt_class = gold\n"
					     "group = g\n[tenant b]\ncpus = 2\nways = 2\n"
					     "rdt_class = gold\ngroup = g\n",
					     "r.ini", &c, err, sizeof(err)),
			 0);
	assert_int_equal(config_parse_string("[tenant a]\ncpus = 1\nways = 2\nrdt_class = b\n"
					     "[tenant b]\ncpus = 2\nways = 2\n",
					     "r.ini", &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "r.ini:4: [tenant a] rdt_class: 'b' is also the name of"));
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, fake_tree_teardown)
	const struct CMUnitTest tests[] = {
		T(test_rdt_class_only_its_mask_is_written),
		T(test_rdt_class_let_go_gets_its_mask_back_never_removed),
		T(test_rdt_class_missing_waits_never_created),
		T(test_rdt_class_counts_among_others_for_closids),
		cmocka_unit_test(test_rdt_class_plan_group_maps_to_the_class),
		cmocka_unit_test(test_config_rdt_class_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
