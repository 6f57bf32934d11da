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
#include "planner.h"

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

/* Fold f->s with socket 0's DDIO counts (@have, @hit, @miss) and none for the others. */
static uint64_t fold(struct fx *f, bool have, uint64_t hit, uint64_t miss)
{
	struct host_ddio_counts d[PLATFORM_MAX_SOCKETS] = {{0}};

	d[0] = (struct host_ddio_counts){.have = have, .hit = hit, .miss = miss};
	return host_counters_fold(&f->hc, &f->s, d, &f->out);
}

static void test_host_counters_fold_maps_events_by_index(void **state)
{
	struct fx *f = *state;

	f->s.seq = 7;
	f->s.time_ns = 1000;
	cpu(&f->s, 3, 100, 0);
	assert_int_equal(fold(f, true, 5, 6), 0);
	assert_int_equal(f->out.seq, 1);
	assert_int_equal(f->out.t_ns, 1000);
	assert_int_equal(f->out.ncpus, 4);
	assert_true(f->out.cpu[3].online);
	assert_int_equal(f->out.cpu[3].instructions, 100);
	assert_int_equal(f->out.cpu[3].cycles, 200);
	assert_int_equal(f->out.cpu[3].llc_refs, 300);
	assert_int_equal(f->out.cpu[3].llc_misses, 400);
	assert_int_equal(f->out.socket[0].ddio_hits, 5);
	assert_int_equal(f->out.socket[0].ddio_misses, 6);
	assert_false(f->out.cpu[0].online);
}

static void test_host_counters_lost_samples_advance_seq(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 100, 0);
	fold(f, false, 0, 0);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 400, 0);
	f->s.lost = 2;
	assert_int_equal(fold(f, false, 0, 0), 2);
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
	fold(f, true, 50, 50);
	/* CPU 0 came back online (generation 2), CPU 1's counter wrapped */
	f->s.ncpus = 0;
	cpu(&f->s, 0, 10, 2);
	cpu(&f->s, 1, 20, 1);
	fold(f, true, 60, 70);
	assert_int_equal(f->out.cpu[0].instructions, 1010);
	assert_int_equal(f->out.cpu[1].instructions, 1020);
	/* a new sampler configuration restarts everything from zero */
	host_counters_new_epoch(&f->hc);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 5000, 2);
	cpu(&f->s, 1, 5000, 1);
	fold(f, true, 1, 2);
	assert_int_equal(f->out.cpu[0].instructions, 6010);
	assert_int_equal(f->out.socket[0].ddio_hits, 61);
	assert_int_equal(f->out.socket[0].ddio_misses, 72);
}

static void test_host_counters_missing_cpu_keeps_its_counts(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 100, 0);
	cpu(&f->s, 1, 100, 0);
	fold(f, false, 0, 0);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 300, 0);
	fold(f, false, 0, 0);
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

/* A socket's DDIO counts missing from a sample: marked, its last counts kept. */
static void test_host_counters_ddio_per_socket(void **state)
{
	struct fx *f = *state;
	struct host_ddio_counts d[PLATFORM_MAX_SOCKETS] = {{0}};

	cpu(&f->s, 0, 100, 0);
	d[0] = (struct host_ddio_counts){.have = true, .hit = 10, .miss = 1};
	d[1] = (struct host_ddio_counts){.have = true, .hit = 20, .miss = 2};
	host_counters_fold(&f->hc, &f->s, d, &f->out);
	assert_int_equal(f->out.socket[1].ddio_hits, 20);
	d[0].hit = 15;
	d[1].have = false;
	host_counters_fold(&f->hc, &f->s, d, &f->out);
	assert_int_equal(f->out.socket[0].ddio_hits, 15);
	assert_false(f->out.socket[0].ddio_missing);
	assert_true(f->out.socket[1].ddio_missing);
	assert_int_equal(f->out.socket[1].ddio_hits, 20);
	assert_int_equal(f->out.socket[1].ddio_misses, 2);
	assert_true(f->out.socket[2].ddio_missing);
}

/* The loop's plan for a config group is one resctrl group: one mask, the members' CPUs. */
static void test_host_cat_groups_from_the_plan(void **state)
{
	struct config *c = parse(groups_cfg);
	struct rdt_group *g = calloc(RDT_MAX_GROUPS, sizeof(*g));
	struct platform_plan *p = calloc(1, sizeof(*p));
	struct planner_alloc a = {.llc_ways = 11, .ddio_ways = 2, .ntenants = 4};
	uint32_t cpus[PLATFORM_MAX_CPUS];

	(void)state;
	assert_non_null(g);
	assert_non_null(p);
	a.ways[0] = 2;
	a.ways[1] = a.ways[2] = 3;
	a.ways[3] = 1;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), 0);
	p->nsockets = 1;
	planner_socket_plan(c, &a, &p->socket[0]);
	assert_int_equal(p->socket[0].ngroups, 3);
	assert_int_equal(host_cat_groups(&p->socket[0], g), 3);
	assert_string_equal(g[1].name, "pmd");
	assert_int_equal(g[1].ncpus, 2);
	assert_int_equal(g[1].cpus[0], 2);
	assert_int_equal(g[1].cpus[1], 4);
	assert_int_equal(g[1].mask, a.mask[1]);
	assert_int_equal(g[1].mask, a.mask[2]);
	assert_int_equal(host_cat_cpus(p, cpus), 5);
	assert_int_equal(cpus[4], 5);
	free(p);
	free(g);
	free(c);
}

static void test_config_group_name_clash_is_refused(void **state)
{
	struct config *c = malloc(sizeof(*c));
	char err[256] = "";

	(void)state;
	assert_non_null(c);
	assert_int_equal(config_parse_string("[tenant pmd]\ncpus = 0\nways = 1\n"
					     "[tenant a]\ncpus = 1\nways = 1\ngroup = pmd\n",
					     "t.ini", c, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "t.ini:7: [tenant a] group: pmd is also a tenant's name (line "
				 "1); rename one");
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
		cmocka_unit_test_setup_teardown(test_host_counters_ddio_per_socket, setup,
						teardown),
		cmocka_unit_test(test_host_cat_groups_from_the_plan),
		cmocka_unit_test(test_config_group_name_clash_is_refused),
		cmocka_unit_test(test_config_ddio_counters_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
