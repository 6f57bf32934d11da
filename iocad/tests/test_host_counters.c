// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's pure parts: samples folded into cumulative
 * platform_samples (lost samples lengthen an interval, restarts never make
 * a delta negative, a CPU missing from a sample keeps its counts), and
 * plans turned into resctrl groups (config groups share one, members'
 * CPUs merge, names clash loudly), plus the degraded-mode config key.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "host_cat.h"
#include "host_counters.h"

struct fx {
	struct host_counters hc;
	struct ioca_sample s;
	struct platform_sample out;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	host_counters_init(&f->hc);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

/* CPU @id reports @v for every event (instructions = v, cycles = 2v, ...). */
static void cpu(struct ioca_sample *s, uint32_t id, uint64_t v, uint32_t gen)
{
	struct ioca_cpu_sample *c = &s->cpus[s->ncpus++];

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->online = true;
	c->generation = gen;
	c->ncounters = HOST_NR_CPU_EVENTS;
	for (uint32_t k = 0; k < HOST_NR_CPU_EVENTS; k++) {
		c->counters[k].index = k;
		c->counters[k].value = v * (k + 1);
	}
}

static void test_host_counters_fold_maps_events_by_index(void **state)
{
	struct fx *f = *state;

	f->s.seq = 7;
	f->s.time_ns = 1000;
	cpu(&f->s, 3, 100, 0);
	assert_int_equal(host_counters_fold(&f->hc, &f->s, true, 5, 6, &f->out), 0);
	assert_int_equal(f->out.seq, 1);
	assert_int_equal(f->out.t_ns, 1000);
	assert_int_equal(f->out.ncpus, 4);
	assert_true(f->out.cpu[3].online);
	assert_int_equal(f->out.cpu[3].instructions, 100);
	assert_int_equal(f->out.cpu[3].cycles, 200);
	assert_int_equal(f->out.cpu[3].llc_refs, 300);
	assert_int_equal(f->out.cpu[3].llc_misses, 400);
	assert_int_equal(f->out.ddio_hits, 5);
	assert_int_equal(f->out.ddio_misses, 6);
	assert_false(f->out.cpu[0].online);
}

static void test_host_counters_lost_samples_advance_seq(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 100, 0);
	host_counters_fold(&f->hc, &f->s, false, 0, 0, &f->out);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 400, 0);
	f->s.lost = 2;
	assert_int_equal(host_counters_fold(&f->hc, &f->s, false, 0, 0, &f->out), 2);
	/* one longer interval: seq 1 -> 4, the counts cover it all */
	assert_int_equal(f->out.seq, 4);
	assert_int_equal(f->out.cpu[0].instructions, 400);
	assert_int_equal(f->hc.lost, 2);
}

static void test_host_counters_restarts_never_go_backwards(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 1000, 1);
	cpu(&f->s, 1, 1000, 1);
	host_counters_fold(&f->hc, &f->s, true, 50, 50, &f->out);
	/* CPU 0 came back online (generation 2), CPU 1's counter wrapped */
	f->s.ncpus = 0;
	cpu(&f->s, 0, 10, 2);
	cpu(&f->s, 1, 20, 1);
	host_counters_fold(&f->hc, &f->s, true, 60, 70, &f->out);
	assert_int_equal(f->out.cpu[0].instructions, 1010);
	assert_int_equal(f->out.cpu[1].instructions, 1020);
	/* a new sampler configuration restarts everything from zero */
	host_counters_new_epoch(&f->hc);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 5000, 2);
	cpu(&f->s, 1, 5000, 1);
	host_counters_fold(&f->hc, &f->s, true, 1, 2, &f->out);
	assert_int_equal(f->out.cpu[0].instructions, 6010);
	assert_int_equal(f->out.ddio_hits, 61);
	assert_int_equal(f->out.ddio_misses, 72);
}

static void test_host_counters_missing_cpu_keeps_its_counts(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 100, 0);
	cpu(&f->s, 1, 100, 0);
	host_counters_fold(&f->hc, &f->s, false, 0, 0, &f->out);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 300, 0);
	host_counters_fold(&f->hc, &f->s, false, 0, 0, &f->out);
	assert_false(f->out.cpu[1].online);
	assert_int_equal(f->out.cpu[1].instructions, 100);
	assert_int_equal(f->out.ncpus, 2);
}

static const char groups_cfg[] = "[tenant ovs]\ncpus = 0-1\nways = 2\n"
				 "[tenant pmd1]\ncpus = 2\nways = 3\ngroup = pmd\n"
				 "[tenant pmd2]\ncpus = 4\nways = 3\ngroup = pmd\n"
				 "[tenant batch]\ncpus = 5\nways = 1\n";

static struct config *parse(const char *text)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	assert_non_null(c);
	if (config_parse_string(text, "t.ini", c, err, sizeof(err)))
		fail_msg("%s", err);
	return c;
}

static void plan_add(struct platform_plan *p, const char *name, uint32_t mask)
{
	snprintf(p->tenant[p->ntenants].name, PLATFORM_NAME_LEN, "%s", name);
	p->tenant[p->ntenants++].mask = mask;
}

static void test_host_cat_groups_merge_config_groups(void **state)
{
	struct config *c = parse(groups_cfg);
	struct host_cat_table *tab = malloc(sizeof(*tab));
	struct rdt_group *g = calloc(RDT_MAX_GROUPS, sizeof(*g));
	struct platform_plan p = {0};
	unsigned int n = 0;
	uint32_t cpus[PLATFORM_MAX_CPUS];
	char err[256] = "";

	(void)state;
	assert_non_null(tab);
	assert_non_null(g);
	host_cat_table_set(tab, c);
	assert_int_equal(host_cat_ngroups(c), 3);
	plan_add(&p, "ovs", 0x3);
	plan_add(&p, "pmd1", 0x1c);
	plan_add(&p, "pmd2", 0x1c);
	plan_add(&p, "batch", 0x20);
	assert_int_equal(host_cat_groups(tab, &p, g, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(g[1].name, "pmd");
	assert_int_equal(g[1].ncpus, 2);
	assert_int_equal(g[1].cpus[0], 2);
	assert_int_equal(g[1].cpus[1], 4);
	assert_int_equal(g[1].mask, 0x1c);
	assert_int_equal(host_cat_cpus(tab, cpus), 5);
	assert_int_equal(cpus[4], 5);
	/* members of one group must agree on the mask */
	p.tenant[2].mask = 0x38;
	assert_int_equal(host_cat_groups(tab, &p, g, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "group pmd"));
	/* a tenant the table does not know */
	p.tenant[2].mask = 0x1c;
	plan_add(&p, "ghost", 0x40);
	assert_int_equal(host_cat_groups(tab, &p, g, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ghost"));
	free(g);
	free(tab);
	free(c);
}

static void test_host_cat_group_name_clash_is_refused(void **state)
{
	struct config *c = parse("[tenant pmd]\ncpus = 0\nways = 1\n"
				 "[tenant a]\ncpus = 1\nways = 1\ngroup = pmd\n");
	struct host_cat_table *tab = malloc(sizeof(*tab));
	struct rdt_group *g = calloc(RDT_MAX_GROUPS, sizeof(*g));
	struct platform_plan p = {0};
	unsigned int n;
	char err[256] = "";

	(void)state;
	assert_non_null(tab);
	assert_non_null(g);
	host_cat_table_set(tab, c);
	plan_add(&p, "pmd", 0x1);
	plan_add(&p, "a", 0x2);
	assert_int_equal(host_cat_groups(tab, &p, g, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "both a tenant and a group"));
	free(g);
	free(tab);
	free(c);
}

static void test_config_ddio_counters_key(void **state)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)state;
	assert_non_null(c);
	assert_int_equal(config_parse_string("[platform]\nddio_counters = optional\n"
					     "[tenant a]\ncpus = 0\nways = 1\n",
					     "d.ini", c, err, sizeof(err)),
			 0);
	assert_true(c->ddio_counters_optional);
	assert_int_equal(config_parse_string("[tenant a]\ncpus = 0\nways = 1\n", "d.ini", c, err,
					     sizeof(err)),
			 0);
	assert_false(c->ddio_counters_optional);
	assert_int_equal(config_parse_string("[platform]\nddio_counters = maybe\n"
					     "[tenant a]\ncpus = 0\nways = 1\n",
					     "d.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "d.ini:2: [platform] ddio_counters: bad value 'maybe': expected "
				 "required or optional");
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_host_counters_fold_maps_events_by_index, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_lost_samples_advance_seq, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_restarts_never_go_backwards,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_missing_cpu_keeps_its_counts,
						setup, teardown),
		cmocka_unit_test(test_host_cat_groups_merge_config_groups),
		cmocka_unit_test(test_host_cat_group_name_clash_is_refused),
		cmocka_unit_test(test_config_ddio_counters_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
