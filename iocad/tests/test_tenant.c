// SPDX-License-Identifier: GPL-2.0
/* Per-tenant aggregation of per-core counters, and interval deltas. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config/config.h"
#include "decide/tenant.h"

static const char text[] = "[platform]\nllc_ways = 11\n"
			   "[tenant a]\ncpus = 0,2\nways = 2\n"
			   "[tenant b]\ncpus = 1\nways = 2\n";

struct fx {
	struct config cfg;
	struct platform_sample s0, s1;
	struct tenant_interval iv;
	struct tenant_delta d;
};

static struct fx *load(void)
{
	struct fx *f = calloc(1, sizeof(*f));
	char err[256];

	assert_non_null(f);
	assert_int_equal(config_parse_string(text, "t.ini", &f->cfg, err, sizeof(err)), 0);
	f->s0.ncpus = f->s1.ncpus = 4;
	f->s0.t_ns = 1000000000u;
	f->s1.t_ns = 1500000000u; /* a half-second interval */
	for (int c = 0; c < 4; c++) {
		f->s0.cpu[c] = (struct platform_cpu_counters){.online = true,
							      .instructions = 1000,
							      .cycles = 1000,
							      .llc_refs = 100,
							      .llc_misses = 10,
							      .l2_refs = 1000,
							      .l2_misses = 100};
		f->s1.cpu[c] = (struct platform_cpu_counters){.online = true,
							      .instructions = 3000,
							      .cycles = 2000,
							      .llc_refs = 600,
							      .llc_misses = 110,
							      .l2_refs = 2000,
							      .l2_misses = 600};
	}
	f->s0.socket[0].ddio_hits = 50;
	f->s1.socket[0].ddio_hits = 550;
	f->s1.socket[0].ddio_misses = 25;
	return f;
}

static void test_tenant_aggregates_cores_as_rates(void **u)
{
	struct fx *f = load();

	(void)u;
	f->s1.cpu[2].instructions = 1000 + 500; /* tenant a: 2000 + 500 ins, 2000 cycles */
	assert_int_equal(tenant_interval(&f->cfg, &f->s0, &f->s1, &f->iv), 0);
	assert_int_equal(f->iv.ntenants, 2);
	assert_true(f->iv.dt_ns == 500000000u);
	assert_true(f->iv.tenant[0].ipc > 1.249 && f->iv.tenant[0].ipc < 1.251);
	assert_true(f->iv.tenant[1].ipc > 1.999 && f->iv.tenant[1].ipc < 2.001);
	assert_int_equal(f->iv.llc_refs_n[0], 1000);
	assert_int_equal(f->iv.llc_misses_n[0], 200);
	assert_true(f->iv.tenant[0].llc_refs > 1999.9 && f->iv.tenant[0].llc_refs < 2000.1);
	assert_true(f->iv.tenant[0].miss_rate > 0.199 && f->iv.tenant[0].miss_rate < 0.201);
	/* two CPUs, 1000 L2 requests and 500 misses each in half a second */
	assert_true(f->iv.tenant[0].l2_refs > 3999.9 && f->iv.tenant[0].l2_refs < 4000.1);
	assert_true(f->iv.tenant[0].l2_misses > 1999.9 && f->iv.tenant[0].l2_misses < 2000.1);
	assert_int_equal(f->iv.ddio_hits_n, 500);
	assert_int_equal(f->iv.ddio_misses_n, 25);
	assert_true(f->iv.ddio_hits > 999.9 && f->iv.ddio_hits < 1000.1);
	assert_true(f->iv.llc_refs > 2999.9 && f->iv.llc_refs < 3000.1);
	free(f);
}

static void test_tenant_skips_offline_and_reset_counters(void **u)
{
	struct fx *f = load();

	(void)u;
	f->s1.cpu[2].online = false;
	f->s1.cpu[1].llc_refs = 5; /* went backwards: a reset, not a huge delta */
	assert_int_equal(tenant_interval(&f->cfg, &f->s0, &f->s1, &f->iv), 0);
	assert_int_equal(f->iv.llc_refs_n[0], 500);
	assert_int_equal(f->iv.llc_refs_n[1], 0);
	f->s1.t_ns = f->s0.t_ns;
	assert_int_equal(tenant_interval(&f->cfg, &f->s0, &f->s1, &f->iv), -22);
	free(f);
}

static void test_tenant_delta_keeps_previous_interval(void **u)
{
	struct fx *f = load();
	struct tenant_interval a = {.dt_ns = 1, .ddio_hits = 1}, b = {.dt_ns = 1, .ddio_hits = 2};

	(void)u;
	tenant_delta_push(&f->d, &a);
	assert_false(f->d.have_prev);
	tenant_delta_push(&f->d, &b);
	assert_true(f->d.have_prev);
	assert_true(f->d.prev.ddio_hits == 1 && f->d.cur.ddio_hits == 2);
	free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tenant_aggregates_cores_as_rates),
		cmocka_unit_test(test_tenant_skips_offline_and_reset_counters),
		cmocka_unit_test(test_tenant_delta_keeps_previous_interval),
	};

	return cmocka_run_group_tests_name("tenant", tests, NULL, NULL);
}
