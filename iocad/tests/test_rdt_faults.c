// SPDX-License-Identifier: GPL-2.0
/*
 * resctrl faults iocad must survive, against a temporary tree shaped like
 * /sys/fs/resctrl: a remount (iocad's groups gone), a runtime's class
 * that vanishes and comes back, CLOSIDs counted at an apply's peak, CPUs
 * of groups iocad did not create never taken (hotplug fix-ups, rollback),
 * a staged apply going back without making any group again (its
 * monitoring groups stay), and a refused write at every step of an apply
 * leaving the tree exactly as it was.
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

#include "fake_tree.h"
#include "rdt.h"
#include "rdt_watch.h"

struct tree {
	char root[64];
	int calls;	      /* mkdir and write calls so far */
	int fail_at;	      /* refuse this call (1 = the first), 0 never */
	unsigned int closids; /* mkdir beyond this many groups: ENOSPC (0: no limit) */
};

/* Counts one mkdir or write; whether the test wants it refused. */
static bool refuse(struct tree *t)
{
	return ++t->calls == t->fail_at;
}

static int tree_write(void *arg, const char *path, const char *data)
{
	struct tree *t = arg;

	if (refuse(t)) {
		fake_tree_put(t->root, "info/last_cmd_status", "Injected failure\n");
		return -EIO;
	}
	return fake_tree_write(path, data);
}

/* Groups at the root, the default one included: what holds a CLOSID. */
static unsigned int closids_used(const char *root)
{
	char cmd[256];
	unsigned int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "find %s -mindepth 1 -maxdepth 1 -type d ! -name info | wc -l",
		 root);
	f = popen(cmd, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%u", &n), 1);
	pclose(f);
	return n + 1;
}

static int tree_mkdir(void *arg, const char *path)
{
	struct tree *t = arg;

	if (refuse(t))
		return -EIO;
	if (t->closids && closids_used(t->root) >= t->closids)
		return -ENOSPC;
	return mkdir(path, 0755) ? -errno : 0;
}

static void quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

static struct rdt *open_tree(struct tree *t)
{
	char err[512] = "";
	struct rdt_opts o = {
		.sz = sizeof(o),
		.root = t->root,
		.prefix = "iocad-s0-",
		.family = "iocad-",
		.write = tree_write,
		.rmdir = fake_tree_rmdir_group,
		.mkdir = tree_mkdir,
		.fs_arg = t,
		.print = quiet,
	};
	struct rdt *r = rdt_open(&o, err, sizeof(err));

	if (!r)
		fail_msg("rdt_open: %s", err);
	return r;
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	assert_non_null(t);
	fake_tree_resctrl(t->root, sizeof(t->root), "iocad-rdtfaults");
	/* a runtime's class with a task, and an operator's group with a CPU */
	fake_tree_mkdir(t->root, "gold");
	fake_tree_put(t->root, "gold/schemata", "L3:0=7ff;1=7ff\n");
	fake_tree_put(t->root, "gold/tasks", "4242\n");
	fake_tree_mkdir(t->root, "ops");
	fake_tree_put(t->root, "ops/schemata", "L3:0=00f;1=00f\n");
	fake_tree_put(t->root, "ops/cpus_list", "7\n");
	fake_tree_put(t->root, "ops/tasks", "77\n");
	*state = t;
	return 0;
}

static struct rdt_group grp(const char *name, const char *cpus, uint32_t mask)
{
	struct rdt_group g = {.mask = mask};
	struct platform_cpuset set;

	snprintf(g.name, sizeof(g.name), "%s", name);
	assert_int_equal(rdt_parse_cpus(cpus, &set), 0);
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		if (platform_cpuset_has(&set, c))
			g.cpus[g.ncpus++] = c;
	return g;
}

static struct rdt_group cls(const char *name, uint32_t mask)
{
	struct rdt_group g = {.mask = mask, .shared = true};

	snprintf(g.name, sizeof(g.name), "%s", name);
	return g;
}

/* Every directory and file under the tree with its text, but the kernel's last status. */
static char *snapshot(const char *root)
{
	char cmd[256], *buf = calloc(1, 65536);
	size_t n;
	FILE *f;

	assert_non_null(buf);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && find . ! -name last_cmd_status | sort | while read -r p; do "
		 "echo \"$p\"; [ -f \"$p\" ] && cat \"$p\"; done",
		 root);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(buf, 1, 65535, f);
	pclose(f);
	buf[n] = '\0';
	return buf;
}

/* The tree reads as @before did (which is freed). */
static void assert_as_before(const char *root, char *before)
{
	char *now = snapshot(root);

	assert_string_equal(now, before);
	free(now);
	free(before);
}

/* A remount takes iocad's groups: found, and the plan makes them again. */
static void test_rdt_remount_found_and_groups_made_again(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", "0-1", 0x3), grp("batch", "2", 0x1c)};
	char err[512] = "", path[128];

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_verify(r), 0);
	/* umount: the groups go; a plain directory is left */
	snprintf(path, sizeof(path), "%s/iocad-s0-web", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	snprintf(path, sizeof(path), "%s/iocad-s0-batch", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	fake_tree_remove_sub(t->root, "info");
	assert_int_equal(rdt_verify(r), RDT_LOST);
	assert_int_equal(rdt_reset(r, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "not mounted"));
	/* mount again: the record is what is there (nothing of ours) */
	fake_tree_resctrl_info(t->root);
	assert_int_equal(rdt_reset(r, err, sizeof(err)), 0);
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=3\n");
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0-1\n");
	fake_tree_assert(t->root, "iocad-s0-batch/cpus_list", "2\n");
	assert_int_equal(rdt_verify(r), 0);
	/*
	 * someone removes one group (made again it would be another inode in
	 * resctrl, whose kernfs does not reuse one at once; a disk may)
	 */
	snprintf(path, sizeof(path), "%s/iocad-s0-batch", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	assert_int_equal(rdt_verify(r), RDT_LOST);
	rdt_close(r);
}

/*
 * The per-interval look: while nothing comes or goes in the root, no stat
 * per group (the full looks stay counted as they were); a group removed,
 * or a change found last time, makes the look a full one again.
 */
static void test_rdt_verify_quiet_root_stats_no_group(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", "0-1", 0x3), grp("batch", "2", 0x1c)};
	char err[512] = "", path[128];
	unsigned long looks;

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_verify(r), 0);
	looks = rdt_verify_looks(r);
	for (int i = 0; i < 5; i++)
		assert_int_equal(rdt_verify(r), 0);
	/* a mask written in a group is no change of the root */
	assert_int_equal(rdt_apply(r, (struct rdt_group[]){grp("web", "0-1", 0x7), g[1]}, 2, err,
				   sizeof(err)),
			 0);
	assert_int_equal(rdt_verify(r), 0);
	assert_int_equal(rdt_verify_looks(r), looks);
	snprintf(path, sizeof(path), "%s/iocad-s0-batch", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	assert_int_equal(rdt_verify(r), RDT_LOST);
	assert_int_equal(rdt_verify_looks(r), looks + 1);
	/* nothing new in the root, but the record is not held: a full look again */
	assert_int_equal(rdt_verify(r), RDT_LOST);
	assert_int_equal(rdt_verify_looks(r), looks + 2);
	rdt_close(r);
}

/* More events at @root than the inotify queue holds: it overflows. */
static void overflow_inotify(const char *root)
{
	unsigned int max = 16384;
	char a[128], b[128];
	FILE *f = fopen("/proc/sys/fs/inotify/max_queued_events", "r");

	if (f) {
		if (fscanf(f, "%u", &max) != 1)
			max = 16384;
		fclose(f);
	}
	/* a rename is two events (from, to) in one cheap call */
	snprintf(a, sizeof(a), "%s/churn-a", root);
	snprintf(b, sizeof(b), "%s/churn-b", root);
	fake_tree_put(root, "churn-a", "");
	for (unsigned int i = 0; i <= max / 2; i++)
		assert_int_equal(rename(i % 2 ? b : a, i % 2 ? a : b), 0);
}

/*
 * The root's watch overflowed (IN_Q_OVERFLOW) while the root went and came
 * back on the same device (resctrl's umount and mount take the same
 * anonymous one): the IN_IGNORED that said the watch ended was among the
 * events dropped. The watch is made again after an overflow, so a group
 * removed later is still found; before, the dead watch read quiet for good.
 */
static void test_rdt_verify_watch_made_again_after_an_overflow(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", "0-1", 0x3), grp("batch", "2", 0x1c)};
	char err[512] = "", path[128];

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_verify(r), 0);
	assert_int_equal(rdt_verify(r), 0);
	overflow_inotify(t->root);
	/* umount, mount: a new root with none of iocad's groups */
	fake_tree_remove(t->root);
	assert_int_equal(mkdir(t->root, 0755), 0);
	fake_tree_resctrl_info(t->root);
	assert_int_equal(rdt_verify(r), RDT_LOST);
	assert_int_equal(rdt_reset(r, err, sizeof(err)), 0);
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	assert_int_equal(rdt_verify(r), 0);
	assert_int_equal(rdt_verify(r), 0);
	snprintf(path, sizeof(path), "%s/iocad-s0-batch", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	assert_int_equal(rdt_verify(r), RDT_LOST);
	rdt_close(r);
}

/* A vanished class: only its tenant waits; back, it is managed again. */
static void test_rdt_class_vanished_only_its_tenant_waits(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", "0", 0x3), cls("gold", 0x1c)};
	char err[512] = "", path[128];

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "gold/schemata", "L3:0=1c\n");
	/* the runtime removes its class */
	snprintf(path, sizeof(path), "%s/gold/tasks", t->root);
	unlink(path);
	snprintf(path, sizeof(path), "%s/gold", t->root);
	assert_int_equal(fake_tree_rmdir_group(NULL, path), 0);
	assert_int_equal(rdt_verify(r), 0);
	/* the FSM moves both tenants: web's change is applied */
	g[0].mask = 0x7;
	g[1].mask = 0x38;
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "iocad-s0-web/schemata", "L3:0=7\n");
	assert_false(fake_tree_exists(t->root, "gold"));
	/* the class is made again: found, and its tenant's mask written */
	fake_tree_mkdir(t->root, "gold");
	fake_tree_put(t->root, "gold/schemata", "L3:0=7f0;1=7ff\n");
	assert_int_equal(rdt_verify(r), RDT_CLASS_BACK);
	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "gold/schemata", "L3:0=38\n");
	assert_int_equal(rdt_verify(r), 0);
	/* let go: the new class gets the mask it came with */
	assert_int_equal(rdt_apply(r, g, 1, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "gold/schemata", "L3:0=7f0\n");
	rdt_close(r);
}

/* num_closids 4: default, gold, ops and one of ours; a rename needs two at once. */
static void test_rdt_closids_counted_at_the_peak(void **state)
{
	struct tree *t = *state;
	struct rdt *r;
	struct rdt_group a[1] = {grp("web", "0", 0x3)};
	struct rdt_group b[1] = {grp("www", "0", 0x3)};
	char err[512] = "", *before;

	fake_tree_put(t->root, "info/L3/num_closids", "4\n");
	t->closids = 4;
	r = open_tree(t);
	assert_int_equal(rdt_check_closids_peak(r, 1, rdt_peak(r, a, 1), err, sizeof(err)), 0);
	assert_int_equal(rdt_apply(r, a, 1, err, sizeof(err)), 0);
	assert_int_equal(rdt_peak(r, a, 1), 1);
	assert_int_equal(rdt_peak(r, b, 1), 2);
	assert_int_equal(rdt_check_closids_peak(r, 1, rdt_peak(r, b, 1), err, sizeof(err)),
			 -ENOSPC);
	assert_non_null(strstr(err, "1 tenant groups need 2 CLOSIDs (2 of them at once"));
	assert_non_null(strstr(err, "leaving 1"));
	/* what the check saves the apply from: mkdir refused, nothing changed */
	before = snapshot(t->root);
	assert_int_equal(rdt_apply(r, b, 1, err, sizeof(err)), -ENOSPC);
	assert_as_before(t->root, before);
	rdt_close(r);
}

/*
 * An operator's group takes CPU 1 from web; CPU 2 comes online and the
 * fix-up writes web's CPUs: CPU 1 stays the operator's, also when the
 * apply is put back.
 */
static void test_rdt_cpu_of_others_never_taken(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[1] = {grp("web", "0-1", 0x3)};
	struct rdt_group h[1] = {grp("web", "0-2", 0x3)};
	char err[512] = "";

	assert_int_equal(rdt_apply(r, g, 1, err, sizeof(err)), 0);
	/* as the kernel does: writing ops' list takes CPU 1 out of web */
	fake_tree_put(t->root, "ops/cpus_list", "1,7\n");
	fake_tree_put(t->root, "iocad-s0-web/cpus_list", "0\n");
	assert_int_equal(rdt_stage(r, h, 1, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0,2\n");
	/* a later step refused: web's CPUs as they were, still without CPU 1 */
	rdt_unstage(r);
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0\n");
	assert_int_equal(rdt_apply(r, h, 1, err, sizeof(err)), 0);
	fake_tree_assert(t->root, "iocad-s0-web/cpus_list", "0,2\n");
	fake_tree_assert(t->root, "ops/cpus_list", "1,7\n");
	rdt_close(r);
}

/*
 * A reload that drops web is staged, then a later step (DDIO) is refused:
 * web was never removed, so it keeps its tasks and monitoring group.
 */
static void test_rdt_unstage_makes_no_group_again(void **state)
{
	struct tree *t = *state;
	struct rdt *r = open_tree(t);
	struct rdt_group g[2] = {grp("web", "0", 0x3), grp("batch", "1", 0xc)};
	struct rdt_group h[2] = {grp("batch", "1", 0x1c), grp("db", "2", 0x60)};
	char err[512] = "", *before;

	assert_int_equal(rdt_apply(r, g, 2, err, sizeof(err)), 0);
	fake_tree_put(t->root, "iocad-s0-web/tasks", "99\n");
	fake_tree_put_deep(t->root, "iocad-s0-web/mon_groups/m1/tasks", "99\n");
	before = snapshot(t->root);
	assert_int_equal(rdt_stage(r, h, 2, err, sizeof(err)), 0);
	assert_true(fake_tree_exists(t->root, "iocad-s0-web/mon_groups/m1"));
	assert_true(fake_tree_exists(t->root, "iocad-s0-db"));
	rdt_unstage(r);
	assert_as_before(t->root, before);
	rdt_close(r);
}

/*
 * A reload that adds, drops, reshapes a group and moves a runtime's class,
 * refused at its Nth mkdir or write, for every N: the tree is exactly as
 * before. Past the last write it is staged; put back, exactly as before.
 */
static void test_rdt_refused_nth_write_changes_nothing(void **state)
{
	struct tree *t = *state;
	struct rdt_group g[3] = {grp("web", "0-1", 0x3), grp("batch", "2-3", 0x1c),
				 cls("gold", 0x60)};
	struct rdt_group h[3] = {grp("web", "0", 0x7), grp("db", "1,3", 0x8), cls("gold", 0x70)};
	int n;

	for (n = 1;; n++) {
		struct rdt *r = open_tree(t);
		char err[512] = "", *before, *now;
		int e;

		t->fail_at = 0;
		assert_int_equal(rdt_apply(r, g, 3, err, sizeof(err)), 0);
		before = snapshot(t->root);
		t->calls = 0;
		t->fail_at = n;
		e = rdt_stage(r, h, 3, err, sizeof(err));
		t->fail_at = 0;
		if (!e)
			rdt_unstage(r);
		else
			assert_non_null(strstr(err, "resctrl: "));
		now = snapshot(t->root);
		if (strcmp(now, before))
			fail_msg("refused at write %d (%s): the tree changed", n, err);
		free(now);
		free(before);
		assert_int_equal(rdt_remove_all(r), 0);
		rdt_close(r);
		if (!e)
			break;
	}
	/* mkdir db, masks of web, db, gold, CPUs of web, db: 6 steps refused */
	assert_int_equal(n, 7);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, fake_tree_teardown)
	const struct CMUnitTest tests[] = {
		T(test_rdt_remount_found_and_groups_made_again),
		T(test_rdt_verify_quiet_root_stats_no_group),
		T(test_rdt_verify_watch_made_again_after_an_overflow),
		T(test_rdt_class_vanished_only_its_tenant_waits),
		T(test_rdt_closids_counted_at_the_peak),
		T(test_rdt_cpu_of_others_never_taken),
		T(test_rdt_unstage_makes_no_group_again),
		T(test_rdt_refused_nth_write_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
