// SPDX-License-Identifier: GPL-2.0
/* Tenant selection in both network models, and the reclaim choice. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "decide/select.h"

static const char agg[] = "[platform]\nmodel = aggregation\nllc_ways = 11\n"
			  "[tenant ovs]\ncpus = 0\nways = 2\nvswitch = yes\n"
			  "[tenant ps]\ncpus = 1\nways = 3\npriority = PS\nnetworking = yes\n"
			  "[tenant be]\ncpus = 2\nways = 2\n";
static const char slc[] = "[platform]\nmodel = slicing\nllc_ways = 11\n"
			  "[tenant vf0]\ncpus = 0\nways = 2\nnetworking = yes\n"
			  "[tenant vf1]\ncpus = 1\nways = 2\nnetworking = yes\n"
			  "[tenant be]\ncpus = 2\nways = 2\n";

struct fx {
	struct config cfg;
	struct planner_alloc a;
	struct tenant_delta d;
};

static struct fx *load(const char *text)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(config_parse_string(text, "x.ini", &f->cfg, err, sizeof(err)), 0);
	f->a.llc_ways = 11;
	f->a.ddio_ways = 2;
	f->a.ntenants = f->cfg.ntenants;
	for (unsigned int i = 0; i < f->cfg.ntenants; i++) {
		f->a.ways[i] = f->cfg.tenant[i].ways;
		f->d.prev.tenant[i].miss_rate = 0.1;
		f->d.cur.tenant[i].miss_rate = 0.1;
		f->d.cur.tenant[i].llc_refs = 1e6;
	}
	f->d.have_prev = true;
	return f;
}

static void test_select_aggregation_grows_vswitch_first(void **u)
{
	struct fx *f = load(agg);

	(void)u;
	f->d.cur.tenant[1].miss_rate = 0.9; /* a bigger jump elsewhere does not matter */
	assert_int_equal(select_grow(&f->cfg, &f->a, &f->d), 0);
	free(f);
}

static void test_select_slicing_grows_largest_miss_rate_increase(void **u)
{
	struct fx *f = load(slc);

	(void)u;
	f->d.cur.tenant[0].miss_rate = 0.3;
	f->d.cur.tenant[1].miss_rate = 0.5;
	f->d.cur.tenant[2].miss_rate = 0.9; /* not networking: never chosen */
	assert_int_equal(select_grow(&f->cfg, &f->a, &f->d), 1);
	/* it is the increase, not the level, that counts */
	f->d.prev.tenant[1].miss_rate = 0.45;
	assert_int_equal(select_grow(&f->cfg, &f->a, &f->d), 0);
	free(f);
}

static void test_select_grow_needs_a_free_way(void **u)
{
	struct fx *f = load(slc);

	(void)u;
	f->a.ways[2] = 7; /* 2 + 2 + 7 = all 11 ways */
	assert_int_equal(select_grow(&f->cfg, &f->a, &f->d), -1);
	free(f);
}

static void test_select_reclaim_takes_idle_tenant_way(void **u)
{
	struct fx *f = load(slc);
	struct select_reclaim r;

	(void)u;
	f->a.ways[1] = 4; /* grown by two */
	f->a.grant_refs[1] = 2e6;
	f->d.cur.tenant[1].llc_refs = 1.9e6; /* demand still there: keep */
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_NONE);
	f->d.cur.tenant[1].llc_refs = 5e5; /* demand gone */
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_TENANT);
	assert_int_equal(r.tenant, 1);
	free(f);
}

static void test_select_reclaim_prefers_vswitch_in_aggregation(void **u)
{
	struct fx *f = load(agg);
	struct select_reclaim r;

	(void)u;
	f->a.ways[0] = 4;
	f->a.ways[2] = 3;
	f->a.grant_refs[0] = 2e6;
	f->a.grant_refs[2] = 2e6;
	f->d.cur.tenant[0].llc_refs = 1.5e6;
	f->d.cur.tenant[2].llc_refs = 1e5; /* more slack, but the vswitch goes first */
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_TENANT);
	assert_int_equal(r.tenant, 0);
	free(f);
}

static void test_select_reclaim_ddio_when_traffic_fell(void **u)
{
	struct fx *f = load(slc);
	struct select_reclaim r;

	(void)u;
	f->a.ddio_ways = 5;
	f->a.ddio_grant_ways = 5;
	f->a.ddio_grant_traffic = 1e7;
	f->d.cur.ddio_hits = 7.5e6; /* would not fit in 4 ways at the grant's load */
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_NONE);
	f->d.cur.ddio_hits = 3e6;
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_DDIO);
	/* a tenant with more slack goes first */
	f->a.ways[0] = 3;
	f->a.grant_refs[0] = 1e7;
	f->d.cur.tenant[0].llc_refs = 1e5;
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_TENANT);
	assert_int_equal(r.tenant, 0);
	/* never below DDIO_WAYS_MIN */
	f->a.ways[0] = 2;
	f->a.ddio_ways = 2;
	select_reclaim(&f->cfg, &f->a, &f->d, &r);
	assert_int_equal(r.kind, SELECT_RECLAIM_NONE);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_select_aggregation_grows_vswitch_first),
		cmocka_unit_test(test_select_slicing_grows_largest_miss_rate_increase),
		cmocka_unit_test(test_select_grow_needs_a_free_way),
		cmocka_unit_test(test_select_reclaim_takes_idle_tenant_way),
		cmocka_unit_test(test_select_reclaim_prefers_vswitch_in_aggregation),
		cmocka_unit_test(test_select_reclaim_ddio_when_traffic_fell),
	};

	return cmocka_run_group_tests_name("select", tests, NULL, NULL);
}
