// SPDX-License-Identifier: GPL-2.0
/*
 * Tenants joining and leaving by reload on the simulator, with exact
 * timing: examples/iocad/join-leave.scn replaces iocad's config at 10s
 * (a tenant joins), 20s (a broken config) and 30s (a tenant leaves).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "log_buf.h"
#include "loop/loop.h"
#include "run_fx.h"
#include "sim_platform.h"

#define MAX_REC 64
#define SEC 1000000000ULL

struct run {
	struct config cfg;
	struct platform pf;
	struct loop_record rec[MAX_REC];
	size_t n;
	volatile sig_atomic_t reload;
	const char *ghost; /* reload with this config text instead of the scenario's file */
	char log[32768];
};

static void log_cb(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct run *r = arg;

	(void)lvl;
	log_buf_append(r->log, sizeof(r->log), msg);
}

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct run *r = arg;
	const char *path = sim_platform_reload_path(&r->pf);

	if (r->ghost)
		return config_parse_string(r->ghost, "ghost.ini", out, err, len);
	assert_non_null(path);
	return config_parse_file(path, out, err, len);
}

static struct run *run_join_leave(const char *ghost)
{
	struct run *r = calloc(1, sizeof(*r));
	char err[512] = "", scn[256];

	assert_non_null(r);
	r->ghost = ghost;
	if (config_parse_file(run_fx_example("join-leave.ini"), &r->cfg, err, sizeof(err)))
		fail_msg("%s", err);
	snprintf(scn, sizeof(scn), "%s", run_fx_example("join-leave.scn"));
	struct loop_opts lo = run_fx_loop_opts(&r->cfg, log_cb, &r->reload, reload_cb, r);

	run_fx_sim_loop(&lo, scn, &r->reload, &r->pf, r->rec, MAX_REC, &r->n);
	assert_int_equal(r->n, 39); /* 40 s, the first poll is the baseline */
	return r;
}

/* The record of the interval ending at @s seconds. */
static const struct loop_record *at_s(const struct run *r, unsigned int s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].t_ns == s * SEC)
			return &r->rec[i];
	fail_msg("no interval ends at %us", s);
	return NULL;
}

static int idx(const struct loop_record *rec, const char *name)
{
	for (unsigned int i = 0; i < rec->ntenants; i++)
		if (!strcmp(rec->tenant[i].name, name))
			return (int)i;
	return -1;
}

/*
 * web is described once, in join-leave.add.ini: the scenario gives only
 * its load (no cpus), and it runs on the CPUs of the group iocad names
 * after it from the reload on (a scenario that named its CPUs is no longer needed).
 */
static void test_sim_reload_tenants_join_and_leave_on_time(void **st)
{
	struct run *r = run_join_leave(NULL);
	const struct loop_record *rec;

	(void)st;
	/* the 10s reload fires in the interval ending at 11s, takes effect for the next */
	assert_int_equal(at_s(r, 11)->ntenants, 2);
	rec = at_s(r, 12);
	assert_int_equal(rec->ntenants, 3);
	assert_true(idx(rec, "web") >= 0);
	/* the interval after a reload still compares with the one before */
	assert_int_not_equal(rec->decision.reason, DECIDE_R_FIRST);
	for (unsigned int s = 12; s <= 40; s++) {
		int w = idx(at_s(r, s), "web");

		assert_true(w >= 0);
		assert_int_equal(at_s(r, s)->tenant[w].ways, 3);
		assert_int_equal(at_s(r, s)->tenant[w].mask & at_s(r, s)->ddio_mask, 0);
		assert_true(at_s(r, s)->tenant[w].ipc > 0);
	}
	/* the bad reload at 20s changes nothing */
	for (unsigned int s = 12; s <= 31; s++)
		assert_int_equal(at_s(r, s)->ntenants, 3);
	assert_non_null(strstr(r->log, "reload rejected, keeping the running config: "));
	assert_non_null(strstr(r->log, "join-leave.bad.ini:26: [tenant web] cpus: CPU 2 is also "
				       "in tenant BE1 (line 21)"));
	/* BE1 leaves with the 30s reload */
	rec = at_s(r, 32);
	assert_int_equal(rec->ntenants, 2);
	assert_int_equal(idx(rec, "BE1"), -1);
	assert_int_not_equal(rec->decision.reason, DECIDE_R_FIRST);
	assert_null(strstr(r->log, "apply failed"));
	/* exactly two reloads were taken */
	assert_non_null(strstr(r->log, "reload: socket 0: 3 tenants"));
	assert_non_null(strstr(r->log, "reload: socket 0: 2 tenants"));
	free(r);
}

static const char ghost_cfg[] =
	"[platform]\nmodel = slicing\n"
	"[tenant PS]\ncpus = 0-1\nways = 4\npriority = PS\nnetworking = yes\n"
	"[tenant BE1]\ncpus = 2\nways = 2\n"
	"[tenant ghost]\ncpus = 9\nways = 2\n";

/* A reload naming CPUs the platform does not have: the error names the tenant, nothing changes. */
static void test_sim_reload_unknown_tenant_is_named(void **st)
{
	struct run *r = run_join_leave(ghost_cfg);

	(void)st;
	assert_non_null(strstr(r->log, "reload rejected, keeping the running config: "));
	assert_non_null(strstr(r->log, "[tenant ghost] cpus: CPU 9 does not exist on this host"));
	for (size_t i = 0; i < r->n; i++) {
		assert_int_equal(r->rec[i].ntenants, 2);
		assert_int_not_equal(r->rec[i].decision.reason, i ? DECIDE_R_FIRST : -1);
	}
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_reload_tenants_join_and_leave_on_time),
		cmocka_unit_test(test_sim_reload_unknown_tenant_is_named),
	};

	return cmocka_run_group_tests_name("sim_reload", tests, NULL, NULL);
}
