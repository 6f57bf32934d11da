// SPDX-License-Identifier: GPL-2.0
/*
 * Drop-in tenants (dropin.c, dropin_watch.c) and cgroup tenants
 * (cgroup_cpus.c, cgroup_watch.c) against temporary directories: a
 * tenants_dir with files added, broken and removed, and a fake cgroup v2
 * root whose cpuset.cpus.effective changes.
 */
#include <errno.h>
#include <poll.h>
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

#include "config/cgroup_cpus.h"
#include "watch/cgroup_watch.h"
#include "config/config.h"
#include "config/dropin.h"
#include "watch/dropin_watch.h"
#include "fake_platform.h"

struct fx {
	char dir[64];	 /* the test's root */
	char tdir[96];	 /* tenants_dir */
	char cgroot[96]; /* fake cgroup v2 root */
	char ini[96];
	char log[4096]; /* what the drop-ins said */
	struct dropin d;
	struct config *main, *out;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void putf(const struct fx *f, const char *name, const char *text)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", f->tdir, name);
	put(path, text);
}

static void rmf(const struct fx *f, const char *name)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/%s", f->tdir, name);
	assert_int_equal(unlink(path), 0);
}

static void logit(void *arg, const char *msg)
{
	struct fx *f = arg;
	size_t n = strlen(f->log);

	snprintf(f->log + n, sizeof(f->log) - n, "%s\n", msg);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char cg[160];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/iocad-dropin.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->tdir, sizeof(f->tdir), "%s/tenants.d", f->dir);
	snprintf(f->cgroot, sizeof(f->cgroot), "%s/cgroup", f->dir);
	snprintf(f->ini, sizeof(f->ini), "%s/iocad.ini", f->dir);
	assert_int_equal(mkdir(f->tdir, 0755), 0);
	assert_int_equal(mkdir(f->cgroot, 0755), 0);
	snprintf(cg, sizeof(cg), "%s/pod1", f->cgroot);
	assert_int_equal(mkdir(cg, 0755), 0);
	snprintf(cg, sizeof(cg), "%s/pod1/cpuset.cpus.effective", f->cgroot);
	put(cg, "4-5\n");
	f->main = malloc(sizeof(*f->main));
	f->out = malloc(sizeof(*f->out));
	assert_non_null(f->main);
	assert_non_null(f->out);
	f->d.log = logit;
	f->d.log_arg = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	char cmd[128];

	dropin_clear(&f->d);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f->main);
	free(f->out);
	free(f);
	return 0;
}

/* The main file: [platform] with tenants_dir (and cgroup_root), then @tenants. */
static void main_cfg(struct fx *f, const char *tenants)
{
	char text[2048], err[512] = "";

	snprintf(text, sizeof(text),
		 "[platform]\nllc_ways = 11\ntenants_dir = %s\ncgroup_root = %s\n%s", f->tdir,
		 f->cgroot, tenants);
	put(f->ini, text);
	if (config_parse_file(f->ini, f->main, err, sizeof(err)))
		fail_msg("main config: %s", err);
}

static int compose(struct fx *f, unsigned int *bad)
{
	char err[512] = "";

	f->log[0] = '\0';
	return dropin_compose(&f->d, f->main, NULL, f->out, bad, err, sizeof(err));
}

static void test_dropin_files_join_in_name_order_others_ignored(void **state)
{
	struct fx *f = *state;
	unsigned int bad = 9;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "20-b.ini", "[tenant b]\ncpus = 2\nways = 1\n");
	putf(f, "10-a.conf", "[tenant a]\ncpus = 1\nways = 1\n");
	putf(f, ".hidden.ini", "[tenant h]\ncpus = 3\nways = 1\n");
	putf(f, "notes.txt", "[tenant t]\ncpus = 3\nways = 1\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(f->out->ntenants, 3);
	assert_string_equal(f->out->tenant[0].name, "sys");
	assert_string_equal(f->out->tenant[1].name, "a");
	assert_string_equal(f->out->tenant[2].name, "b");
	/* the composed config is named by the main file */
	assert_string_equal(f->out->path, f->ini);
}

static void test_dropin_bad_file_is_refused_alone_with_file_line(void **state)
{
	struct fx *f = *state;
	unsigned int bad = 0;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	putf(f, "b.ini", "[tenant b]\ncpus = 2\n\nwayz = 1\n");
	putf(f, "c.ini", "[tenant c]\ncpus = 3\nways = 1\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 1);
	assert_int_equal(f->out->ntenants, 3);
	assert_int_equal(config_tenant_index(f->out, "b"), -1);
	assert_true(config_tenant_index(f->out, "c") >= 0);
	assert_non_null(strstr(f->log, "/b.ini:4: [tenant b] wayz: unknown key; file refused"));
}

static void test_dropin_conflict_blames_the_later_file(void **state)
{
	struct fx *f = *state;
	unsigned int bad = 0;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	putf(f, "b.ini", "[tenant b]\nways = 1\ncpus = 1\n");
	putf(f, "c.ini", "[tenant a]\ncpus = 3\nways = 1\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 2);
	assert_int_equal(f->out->ntenants, 2);
	assert_non_null(strstr(f->log, "/b.ini:3: [tenant b] cpus: CPU 1 is also in tenant a"));
	assert_non_null(strstr(f->log, "/c.ini:1: [tenant a] given twice"));
}

static void test_dropin_main_sections_refused_in_a_tenant_file(void **state)
{
	struct fx *f = *state;
	unsigned int bad = 0;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "p.ini", "[tenant a]\ncpus = 1\nways = 1\n[platform]\nllc_ways = 20\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 1);
	assert_int_equal(f->out->llc_ways, 11);
	assert_int_equal(f->out->ntenants, 1);
	assert_non_null(strstr(f->log, "/p.ini:4: [platform]: a tenant file (tenants_dir) holds "
				       "only [tenant NAME] sections"));
}

static void test_dropin_broken_edit_keeps_previous_version(void **state)
{
	struct fx *f = *state;
	unsigned int bad = 0;
	int i;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "web.ini", "[tenant web]\ncpus = 1-2\nways = 3\npriority = PS\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(f->out->ntenants, 2);
	putf(f, "web.ini", "[tenant web]\ncpus = 1-2\nways = 99\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 1);
	i = config_tenant_index(f->out, "web");
	assert_true(i >= 0);
	assert_int_equal(f->out->tenant[i].ways, 3);
	assert_int_equal(f->out->tenant[i].prio, CONFIG_PRIO_PS);
	assert_non_null(strstr(f->log, "/web.ini:3: [tenant web] ways: bad value '99'"));
	assert_non_null(strstr(f->log, "keeping its previous version (1 tenant(s))"));
	/* fixed: the new version is taken */
	putf(f, "web.ini", "[tenant web]\ncpus = 1-2\nways = 4\n");
	assert_int_equal(compose(f, &bad), 0);
	assert_int_equal(bad, 0);
	assert_int_equal(f->out->tenant[config_tenant_index(f->out, "web")].ways, 4);
}

static void test_dropin_removed_file_leaves(void **state)
{
	struct fx *f = *state;

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "web.ini", "[tenant web]\ncpus = 1\nways = 3\n");
	assert_int_equal(compose(f, NULL), 0);
	assert_int_equal(f->out->ntenants, 2);
	rmf(f, "web.ini");
	assert_int_equal(compose(f, NULL), 0);
	assert_int_equal(f->out->ntenants, 1);
	assert_int_equal(f->d.nfiles, 0);
	/* and a broken file that comes back has no old version to keep */
	putf(f, "web.ini", "[tenant web]\ncpus = x\nways = 3\n");
	assert_int_equal(compose(f, NULL), 0);
	assert_int_equal(f->out->ntenants, 1);
	assert_non_null(strstr(f->log, "its tenants are not managed"));
}

static void test_dropin_main_may_leave_every_tenant_to_the_files(void **state)
{
	struct fx *f = *state;
	char err[512] = "";

	main_cfg(f, "");
	assert_int_equal(f->main->ntenants, 0);
	assert_int_equal(dropin_compose(&f->d, f->main, NULL, f->out, NULL, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no tenant"));
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	assert_int_equal(compose(f, NULL), 0);
	assert_int_equal(f->out->ntenants, 1);
	/* without tenants_dir a main file with no tenant is still refused */
	assert_int_equal(config_parse_string("[platform]\nllc_ways = 11\n", "n.ini", f->out, err,
					     sizeof(err)),
			 -EINVAL);
}

static void test_dropin_placed_on_the_platform_refused_alone(void **state)
{
	struct fx *f = *state;
	struct platform_info *pi = calloc(1, sizeof(*pi));
	unsigned int bad = 0;
	char err[512] = "";

	assert_non_null(pi);
	pi->ncpus = 4;
	pi->socket[0] =
		(struct platform_socket_info){.present = true, .llc_ways = 11, .ddio_mask = 0x600};
	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	putf(f, "b.ini", "[tenant b]\n\ncpus = 7\nways = 1\n");
	assert_int_equal(dropin_compose(&f->d, f->main, pi, f->out, &bad, err, sizeof(err)), 0);
	assert_int_equal(bad, 1);
	assert_int_equal(f->out->ntenants, 2);
	assert_non_null(strstr(f->log, "/b.ini:3: [tenant b] cpus: CPU 7"));
	free(pi);
}

static void test_config_tenants_dir_repeats_up_to_four(void **state)
{
	struct fx *f = *state;
	char err[512] = "";

	(void)f;
	assert_int_equal(config_parse_string("[platform]\ntenants_dir = /a\ntenants_dir = /b\n",
					     "t.ini", f->out, err, sizeof(err)),
			 0);
	assert_int_equal(f->out->ntenants_dirs, 2);
	assert_string_equal(f->out->tenants_dir[1], "/b");
	assert_int_equal(
		config_parse_string("[platform]\ntenants_dir = /a\ntenants_dir = /b\n"
				    "tenants_dir = /c\ntenants_dir = /d\ntenants_dir = /e\n",
				    "t.ini", f->out, err, sizeof(err)),
		-EINVAL);
	assert_non_null(
		strstr(err, "t.ini:6: [platform] tenants_dir: bad value '/e': more than 4"));
	assert_int_equal(config_parse_string("[platform]\ntenants_dir = rel/d\n", "t.ini", f->out,
					     err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "t.ini:2: [platform] tenants_dir: bad value 'rel/d': expected "
				    "an absolute path"));
}

static void test_cgroup_tenant_takes_cpuset_cpus_effective(void **state)
{
	struct fx *f = *state;

	main_cfg(f, "[tenant pod1]\ncgroup = /pod1\nways = 2\n");
	assert_int_equal(f->main->ntenants, 1);
	assert_string_equal(f->main->tenant[0].cgroup, "/pod1");
	assert_int_equal(f->main->tenant[0].ncpus, 2);
	assert_int_equal(f->main->tenant[0].cpus[0], 4);
	assert_int_equal(f->main->tenant[0].cpus[1], 5);
	assert_int_equal(f->main->tenant[0].cpus_line, 6);
}

static void test_cgroup_tenant_errors_name_line_and_file(void **state)
{
	struct fx *f = *state;
	char text[1024], err[768] = "";

	snprintf(text, sizeof(text),
		 "[platform]\ncgroup_root = %s\n[tenant p]\ncgroup = gone\nways = 1\n", f->cgroot);
	assert_int_equal(config_parse_string(text, "c.ini", f->out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "c.ini:4: [tenant p] cgroup: cannot read "));
	assert_non_null(strstr(err, "/gone/cpuset.cpus.effective: No such file"));
	assert_non_null(strstr(err, "cpuset controller"));

	snprintf(text, sizeof(text),
		 "[platform]\ncgroup_root = %s\n[tenant p]\ncpus = 1\ncgroup = pod1\nways = 1\n",
		 f->cgroot);
	assert_int_equal(config_parse_string(text, "c.ini", f->out, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "c.ini:5: [tenant p] cgroup: cpus is given too (line 4)"));

	assert_int_equal(config_parse_string("[tenant p]\ncgroup = a/../../etc\nways = 1\n",
					     "c.ini", f->out, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "c.ini:2: [tenant p] cgroup: bad value 'a/../../etc': '..'"));
}

static void test_cgroup_cpus_bad_contents_are_named(void **state)
{
	struct fx *f = *state;
	unsigned int cpus[PLATFORM_MAX_CPUS], n;
	char path[160], why[512];

	snprintf(path, sizeof(path), "%s/pod1/cpuset.cpus.effective", f->cgroot);
	put(path, "\n");
	assert_int_equal(cgroup_cpus_read(f->cgroot, "pod1", cpus, &n, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "is empty"));
	put(path, "3-1\n");
	assert_int_equal(cgroup_cpus_read(f->cgroot, "pod1", cpus, &n, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "holds '3-1'"));
	put(path, "0-2,7\n");
	assert_int_equal(cgroup_cpus_read(f->cgroot, "pod1", cpus, &n, why, sizeof(why)), 0);
	assert_int_equal(n, 4);
	assert_int_equal(cpus[3], 7);
}

/* The wrapper's wait(): a drop-in event raises the reload flag, nothing else does. */
static int nop_wait(void *ctx, uint64_t ns)
{
	(void)ctx;
	(void)ns;
	return 0;
}

static void test_cgroup_watch_wait_raises_reload_on_dropin_events(void **state)
{
	struct fx *f = *state;
	static struct cgroup_watch w;
	static const struct platform_ops ops = {.name = "nop", .wait = nop_wait};
	struct platform pf = {.ops = &ops};
	volatile sig_atomic_t reload = 0;
	char err[256] = "";

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	cgroup_watch_wrap(&w, &pf, &reload, NULL, NULL);
	cgroup_watch_set(&w, f->main);
	w.dropins = dropin_watch_open(err, sizeof(err));
	assert_non_null(w.dropins);
	assert_int_equal(dropin_watch_set(w.dropins, f->main, NULL, NULL), 0);
	assert_int_equal(pf.ops->wait(pf.ctx, 1000), 0);
	assert_int_equal(reload, 0);
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	assert_int_equal(pf.ops->wait(pf.ctx, 1000), 0);
	assert_int_equal(reload, 1);
	reload = 0;
	assert_int_equal(pf.ops->wait(pf.ctx, 1000), 0);
	assert_int_equal(reload, 0);
	dropin_watch_close(w.dropins);
}

/*
 * The wrapper hands each optional op its inner platform's context: what
 * the platform and CAT wait for reach the loop through it as the platform
 * says them (a copied op would be called with the wrapper's context).
 */
static void test_cgroup_watch_forwards_what_the_platform_waits_for(void **state)
{
	static struct fake_platform fp;
	static struct cgroup_watch w;
	struct platform pf;
	volatile sig_atomic_t reload = 0;
	char buf[128] = "x";

	(void)state;
	memset(&fp, 0, sizeof(fp));
	fake_platform_quiet(&fp);
	fake_platform_bind(&fp, &pf);
	fp.waiting = "the sampler to start";
	fp.cat_waits = PLATFORM_CAT_WAIT_CLASS;
	fp.cat_waiting = "rdt_class gold to be made";
	cgroup_watch_wrap(&w, &pf, &reload, NULL, NULL);
	assert_ptr_equal(pf.ctx, &w);
	assert_string_equal(pf.ops->waiting(pf.ctx), "the sampler to start");
	assert_int_equal(pf.ops->cat_waiting(pf.ctx, buf, sizeof(buf)), PLATFORM_CAT_WAIT_CLASS);
	assert_string_equal(buf, "rdt_class gold to be made");
	/* an op the platform lacks stays NULL (optional) */
	assert_null(pf.ops->device_ddio);
}

static void test_cgroup_watch_raises_reload_only_on_change(void **state)
{
	struct fx *f = *state;
	static struct cgroup_watch w;
	volatile sig_atomic_t reload = 0;
	char path[160];

	main_cfg(f, "[tenant pod1]\ncgroup = pod1\nways = 2\n[tenant b]\ncpus = 0\nways = 1\n");
	memset(&w, 0, sizeof(w));
	w.reload = &reload;
	cgroup_watch_set(&w, f->main);
	assert_int_equal(w.ntenants, 1);
	assert_int_equal(cgroup_watch_check(&w), 0);
	assert_int_equal(reload, 0);
	snprintf(path, sizeof(path), "%s/pod1/cpuset.cpus.effective", f->cgroot);
	put(path, "4-6\n"); /* the CPU manager gave the pod one more */
	assert_int_equal(cgroup_watch_check(&w), 1);
	assert_int_equal(reload, 1);
	reload = 0;
	/* said once: a refused reload is not retried every interval */
	assert_int_equal(cgroup_watch_check(&w), 0);
	assert_int_equal(reload, 0);
	/* the reload's config reads the new CPUs */
	main_cfg(f, "[tenant pod1]\ncgroup = pod1\nways = 2\n[tenant b]\ncpus = 0\nways = 1\n");
	assert_int_equal(f->main->tenant[0].ncpus, 3);
	/* the cgroup going away is a change too */
	snprintf(path, sizeof(path), "%s/pod1/cpuset.cpus.effective", f->cgroot);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(cgroup_watch_check(&w), 1);
}

static int events_within(struct dropin_watch *w, int ms)
{
	struct pollfd p = {.fd = dropin_watch_fd(w), .events = POLLIN};

	if (poll(&p, 1, ms) <= 0)
		return 0;
	return dropin_watch_drain(w);
}

static void test_dropin_watch_sees_files_and_a_late_directory(void **state)
{
	struct fx *f = *state;
	struct dropin_watch *w;
	char err[256] = "", late[160];

	main_cfg(f, "[tenant sys]\ncpus = 0\nways = 2\n");
	snprintf(late, sizeof(late), "%s/late.d", f->dir);
	snprintf(f->main->tenants_dir[f->main->ntenants_dirs++], CONFIG_PATH_LEN, "%s", late);
	w = dropin_watch_open(err, sizeof(err));
	assert_non_null(w);
	f->log[0] = '\0';
	assert_int_equal(dropin_watch_set(w, f->main, logit, f), 0);
	assert_non_null(strstr(f->log, "late.d: not there yet; its creation is watched"));
	assert_int_equal(events_within(w, 0), 0);
	/* in the parent of the missing directory only its creation counts */
	snprintf(late, sizeof(late), "%s/other", f->dir);
	assert_int_equal(mkdir(late, 0755), 0);
	assert_int_equal(events_within(w, 200), 0);
	snprintf(late, sizeof(late), "%s/late.d", f->dir);
	putf(f, "a.ini", "[tenant a]\ncpus = 1\nways = 1\n");
	assert_true(events_within(w, 1000) > 0);
	rmf(f, "a.ini");
	assert_true(events_within(w, 1000) > 0);
	assert_int_equal(mkdir(late, 0755), 0);
	assert_true(events_within(w, 1000) > 0);
	/* re-watched after the reload; the parent's watch going away is no event */
	assert_int_equal(dropin_watch_set(w, f->main, logit, f), 0);
	assert_int_equal(events_within(w, 100), 0);
	snprintf(late, sizeof(late), "%s/late.d/x.ini", f->dir);
	put(late, "[tenant x]\ncpus = 2\nways = 1\n");
	assert_true(events_within(w, 1000) > 0);
	dropin_watch_close(w);
}

int main(void)
{
#define T(x) cmocka_unit_test_setup_teardown(x, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_dropin_files_join_in_name_order_others_ignored),
		T(test_dropin_bad_file_is_refused_alone_with_file_line),
		T(test_dropin_conflict_blames_the_later_file),
		T(test_dropin_main_sections_refused_in_a_tenant_file),
		T(test_dropin_broken_edit_keeps_previous_version),
		T(test_dropin_removed_file_leaves),
		T(test_dropin_main_may_leave_every_tenant_to_the_files),
		T(test_dropin_placed_on_the_platform_refused_alone),
		T(test_config_tenants_dir_repeats_up_to_four),
		T(test_cgroup_tenant_takes_cpuset_cpus_effective),
		T(test_cgroup_tenant_errors_name_line_and_file),
		T(test_cgroup_cpus_bad_contents_are_named),
		T(test_cgroup_watch_raises_reload_only_on_change),
		T(test_cgroup_watch_forwards_what_the_platform_waits_for),
		T(test_cgroup_watch_wait_raises_reload_on_dropin_events),
		T(test_dropin_watch_sees_files_and_a_late_directory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
