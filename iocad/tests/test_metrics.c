// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics registry and its text: counters are the sums of the
 * intervals, gauges the latest interval's values, transitions counted by
 * reason, tenants that leave lose their series, the simulator's trace
 * columns become ioca_sim_* in base units, and every sample belongs to a
 * family with HELP and TYPE.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "metrics/metrics.h"
#include "metrics_fx.h"

#define assert_near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

static const char cfg_text[] = "[platform]\nmodel = slicing\nllc_ways = 11\nsocket = 1\n"
			       "interval_ms = 500\n"
			       "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			       "[tenant be]\ncpus = 1\nways = 3\n";

static int setup(void **state)
{
	struct metrics_fx *x = metrics_fx_new(cfg_text);
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	metrics_fx_free(*state);
	return 0;
}

static void tenant(struct loop_record *r, const char *name, enum config_prio prio, uint32_t mask,
		   double ipc, uint64_t refs, uint64_t misses)
{
	struct loop_tenant_record *t = &r->tenant[r->ntenants++];

	snprintf(t->name, sizeof(t->name), "%s", name);
	t->prio = prio;
	t->mask = mask;
	t->ways = (unsigned int)__builtin_popcount(mask);
	t->ipc = ipc;
	t->llc_refs = refs;
	t->llc_misses = misses;
}

/* Interval @idx at @t_s seconds: DDIO @mask, both tenants. */
static void interval(struct metrics_fx *x, uint64_t idx, double t_s, uint32_t ddio, uint64_t hits,
		     uint64_t misses)
{
	struct loop_record *r = &x->r;

	memset(r, 0, sizeof(*r));
	r->index = idx;
	r->t_ns = (uint64_t)(t_s * 1e9);
	r->prev_state = r->state = FSM_LOW_KEEP;
	r->decision.reason = DECIDE_R_STABLE;
	r->ddio_mask = ddio;
	r->ddio_ways = (unsigned int)__builtin_popcount(ddio);
	r->ddio_hits = hits;
	r->ddio_misses = misses;
	tenant(r, "vf", CONFIG_PRIO_PS, 0x7, 1.5 + (double)idx, 1000 * (idx + 1), 100);
	tenant(r, "be", CONFIG_PRIO_BE, 0x38, 0.25, 10, 5 * (idx + 1));
}

/* A plain interval recorded, then the text (the test frees it). */
static char *record_one(struct metrics_fx *x, uint64_t idx, double t_s)
{
	interval(x, idx, t_s, 0x600, 0, 0);
	metrics_record(&x->m, 0, &x->r);
	return metrics_fx_render(&x->m);
}

static void test_metrics_counters_sum_intervals_and_gauges_take_the_latest(void **state)
{
	struct metrics_fx *x = *state;
	char *t;

	interval(x, 0, 1.0, 0x600, 100, 7);
	metrics_record(&x->m, 0, &x->r);
	interval(x, 1, 1.5, 0x700, 50, 3);
	x->r.lost_samples = 2;
	x->r.apply_failed = true;
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_intervals_total{socket=\"1\"}"), 2);
	assert_int_equal(metrics_fx_value(t, "ioca_interval_index{socket=\"1\"}"), 1);
	assert_int_equal(metrics_fx_value(t, "ioca_ddio_hits_total{socket=\"1\"}"), 150);
	assert_int_equal(metrics_fx_value(t, "ioca_ddio_misses_total{socket=\"1\"}"), 10);
	assert_int_equal(metrics_fx_value(t, "ioca_ddio_llc_ways{socket=\"1\"}"), 3);
	assert_int_equal(metrics_fx_value(t, "ioca_ddio_way_mask{socket=\"1\"}"), 0x700);
	assert_int_equal(metrics_fx_value(t, "ioca_lost_samples_total{socket=\"1\"}"), 2);
	assert_int_equal(metrics_fx_value(t, "ioca_apply_errors_total{socket=\"1\"}"), 1);
	assert_int_equal(metrics_fx_value(t, "ioca_llc_ways{socket=\"1\"}"), 11);
	assert_near(metrics_fx_value(t, "ioca_platform_time_seconds{socket=\"1\"}"), 1.5, 1e-12);
	/* 0.5 s apart with interval_ms = 500: on time */
	assert_near(metrics_fx_value(t, "ioca_interval_duration_seconds{socket=\"1\"}"), 0.5,
		    1e-12);
	assert_near(metrics_fx_value(t, "ioca_interval_lag_seconds{socket=\"1\"}"), 0, 1e-12);
	assert_near(metrics_fx_value(t, "ioca_tenant_ipc{socket=\"1\",tenant=\"vf\"}"), 2.5, 1e-12);
	assert_int_equal(metrics_fx_value(t, "ioca_tenant_llc_references_total{socket=\"1\",tenant="
					     "\"vf\"}"),
			 3000);
	assert_int_equal(
		metrics_fx_value(t, "ioca_tenant_llc_misses_total{socket=\"1\",tenant=\"be\"}"),
		15);
	assert_int_equal(metrics_fx_value(t, "ioca_tenant_way_mask{socket=\"1\",tenant=\"be\"}"),
			 0x38);
	assert_int_equal(metrics_fx_value(t, "ioca_tenant_llc_ways{socket=\"1\",tenant=\"be\"}"),
			 3);
	/* the way map: one sample per way of each mask */
	assert_true(metrics_fx_has(t, "ioca_ddio_llc_way{socket=\"1\",way=\"8\"}"));
	assert_false(metrics_fx_has(t, "ioca_ddio_llc_way{socket=\"1\",way=\"7\"}"));
	assert_true(metrics_fx_has(t, "ioca_tenant_llc_way{socket=\"1\",tenant=\"be\",way=\"5\"}"));
	assert_false(
		metrics_fx_has(t, "ioca_tenant_llc_way{socket=\"1\",tenant=\"be\",way=\"6\"}"));
	free(t);
}

static void test_metrics_lag_is_the_interval_past_interval_ms(void **state)
{
	struct metrics_fx *x = *state;
	char *t;

	t = record_one(x, 0, 1.0);
	/* the first interval's start is not known: no duration, no lag yet */
	assert_false(metrics_fx_has(t, "ioca_interval_lag_seconds{socket=\"1\"}"));
	free(t);
	t = record_one(x, 1, 2.25);
	assert_near(metrics_fx_value(t, "ioca_interval_lag_seconds{socket=\"1\"}"), 0.75, 1e-12);
	free(t);
}

static void test_metrics_fsm_state_and_transitions_by_reason(void **state)
{
	struct metrics_fx *x = *state;
	char *t;

	interval(x, 0, 1, 0x600, 0, 0);
	x->r.decision.reason = DECIDE_R_FIRST;
	metrics_record(&x->m, 0, &x->r);
	interval(x, 1, 2, 0x600, 0, 0);
	x->r.state = FSM_IO_DEMAND;
	x->r.decision.reason = DECIDE_R_FSM;
	x->r.decision.fsm_reason = FSM_R_IO_PRESSURE;
	metrics_record(&x->m, 0, &x->r);
	interval(x, 2, 3, 0x700, 0, 0);
	x->r.prev_state = x->r.state = FSM_IO_DEMAND;
	x->r.decision.reason = DECIDE_R_FSM;
	x->r.decision.fsm_reason = FSM_R_STILL_MISSING;
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_fsm_state{socket=\"1\",state=\"io_demand\"}"),
			 1);
	assert_int_equal(metrics_fx_value(t, "ioca_fsm_state{socket=\"1\",state=\"low_keep\"}"), 0);
	assert_int_equal(
		metrics_fx_value(t, "ioca_fsm_transitions_total{socket=\"1\",from=\"low_keep\","
				    "to=\"io_demand\",reason=\"io_pressure\"}"),
		1);
	/* staying in a state is a decision, not a transition */
	assert_false(strstr(t, "to=\"io_demand\",reason=\"still_missing\""));
	assert_int_equal(
		metrics_fx_value(t,
				 "ioca_fsm_decisions_total{socket=\"1\",reason=\"still_missing\"}"),
		1);
	assert_int_equal(
		metrics_fx_value(t, "ioca_fsm_decisions_total{socket=\"1\",reason=\"first\"}"), 1);
	/* every reason is there from the start, at 0 */
	assert_int_equal(
		metrics_fx_value(t, "ioca_fsm_decisions_total{socket=\"1\",reason=\"shuffle\"}"),
		0);
	free(t);
}

static void test_metrics_tenant_that_leaves_loses_its_series_and_keeps_its_counter(void **state)
{
	struct metrics_fx *x = *state;
	const char *refs = "ioca_tenant_llc_references_total{socket=\"1\",tenant=\"be\"}";
	char *t;

	interval(x, 0, 1, 0x600, 0, 0);
	metrics_record(&x->m, 0, &x->r);
	interval(x, 1, 2, 0x600, 0, 0);
	x->r.ntenants = 1; /* a reload removed be */
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_false(strstr(t, "tenant=\"be\""));
	assert_true(metrics_fx_has(t, "ioca_tenant_ipc{socket=\"1\",tenant=\"vf\"}"));
	free(t);
	t = record_one(x, 2, 3); /* and back */
	assert_int_equal(metrics_fx_value(t, refs), 20);
	free(t);
}

/* Device @addr of the record: its setting, the mode in force, refused or not. */
static void device(struct loop_record *r, const char *addr, int setting, int mode, bool refused)
{
	struct loop_device_record *d = &r->dev[r->ndev++];

	snprintf(d->addr, sizeof(d->addr), "%s", addr);
	d->setting = setting;
	d->mode = mode;
	d->refused = refused;
}

#define MODE "ioca_device_ddio_mode"
#define REFUSED "ioca_device_ddio_refused"

/* Per device: one series per mode (1 for the one in force), and whether it was refused. */
static void test_metrics_device_ddio_mode_and_refusal(void **state)
{
	struct metrics_fx *x = *state;
	const char *ssd = "{socket=\"1\",device=\"0000:5e:00.0\",setting=\"auto\"";
	const char *nic = "{socket=\"1\",device=\"0000:3b:00.0\",setting=\"off\"";
	char *t;

	interval(x, 0, 1, 0x600, 0, 0);
	device(&x->r, "0000:5e:00.0", CONFIG_DEV_DDIO_AUTO, PLATFORM_DEV_DDIO_ON, false);
	device(&x->r, "0000:3b:00.0", CONFIG_DEV_DDIO_OFF, 0, true);
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_device(t, MODE, ssd, "on"), 1);
	assert_int_equal(metrics_fx_device(t, MODE, ssd, "off"), 0);
	assert_int_equal(metrics_fx_device(t, REFUSED, ssd, NULL), 0);
	/* refused: never set by iocad */
	assert_int_equal(metrics_fx_device(t, MODE, nic, "untouched"), 1);
	assert_int_equal(metrics_fx_device(t, MODE, nic, "off"), 0);
	assert_int_equal(metrics_fx_device(t, REFUSED, nic, NULL), 1);
	free(t);

	/* auto turned the SSD off; a reload removed the NIC */
	interval(x, 1, 2, 0x600, 0, 0);
	device(&x->r, "0000:5e:00.0", CONFIG_DEV_DDIO_AUTO, PLATFORM_DEV_DDIO_OFF, false);
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_device(t, MODE, ssd, "off"), 1);
	assert_int_equal(metrics_fx_device(t, MODE, ssd, "on"), 0);
	assert_null(strstr(t, "0000:3b:00.0"));
	free(t);
}

static void test_metrics_tenant_slots_are_bounded(void **state)
{
	struct metrics_fx *x = *state;
	char name[16];
	char *t;

	/* 3 x 64 different tenants over time: never more than 64 slots */
	for (unsigned int round = 0; round < 3; round++) {
		memset(&x->r, 0, sizeof(x->r));
		x->r.index = round;
		x->r.t_ns = (round + 1) * 1000000000ull;
		for (unsigned int i = 0; i < PLATFORM_MAX_TENANTS; i++) {
			snprintf(name, sizeof(name), "t%u_%u", round, i);
			tenant(&x->r, name, CONFIG_PRIO_BE, 1, 1, 1, 1);
		}
		metrics_record(&x->m, 0, &x->r);
	}
	t = metrics_fx_render(&x->m);
	assert_true(metrics_fx_has(t, "ioca_tenant_ipc{socket=\"1\",tenant=\"t2_63\"}"));
	assert_false(strstr(t, "tenant=\"t1_"));
	/* a reused slot started over */
	assert_int_equal(metrics_fx_value(t, "ioca_tenant_llc_references_total{socket=\"1\","
					     "tenant=\"t2_0\"}"),
			 1);
	free(t);
}

/* A platform with the simulator's trace columns, values fixed by the test. */
static const char *sim_row;

static int cols(void *ctx, bool header, char *buf, size_t len)
{
	(void)ctx;
	snprintf(buf, len, "%s",
		 header ? ",sim_mem_bytes_s,sim_a_b_pkts_s,sim_a_b_drops_s,sim_a_b_cycles_per_pkt,"
			  "sim_a_b_lat_ns,sim_a_b_refs_s,other"
			: sim_row);
	return 0;
}

static void test_metrics_sim_columns_become_sim_metrics_in_base_units(void **state)
{
	static const struct platform_ops ops = {.name = "cols", .trace_columns = cols};
	struct platform pf = {.ops = &ops};
	struct metrics_fx *x = *state;
	char *t;
	int slot;

	slot = metrics_add_socket(&x->m, &x->cfg, &pf);
	assert_int_equal(slot, 1);
	sim_row = ",6400,2000000,10,175.5,21.74,0,99";
	interval(x, 0, 1, 0x600, 0, 0);
	metrics_record(&x->m, 1, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(
		metrics_fx_value(t, "ioca_sim_memory_traffic_bytes_per_second{socket=\"1\"}"),
		6400);
	/* a tenant name with underscores: the suffix decides */
	assert_int_equal(
		metrics_fx_value(t,
				 "ioca_sim_tenant_packets_per_second{socket=\"1\",tenant=\"a_b\"}"),
		2000000);
	assert_int_equal(metrics_fx_value(t, "ioca_sim_tenant_dropped_packets_per_second{socket="
					     "\"1\",tenant=\"a_b\"}"),
			 10);
	assert_near(metrics_fx_value(
			    t, "ioca_sim_tenant_cycles_per_packet{socket=\"1\",tenant=\"a_b\"}"),
		    175.5, 1e-12);
	assert_near(
		metrics_fx_value(t, "ioca_sim_tenant_latency_seconds{socket=\"1\",tenant=\"a_b\"}"),
		21.74e-9, 1e-20);
	assert_false(strstr(t, "other"));
	free(t);
}

static void test_metrics_without_sim_columns_no_sim_families(void **state)
{
	struct metrics_fx *x = *state;
	char *t;

	t = record_one(x, 0, 1);
	assert_false(strstr(t, "ioca_sim_"));
	free(t);
}

/* Each sample's family was announced with HELP and TYPE; counters end in _total. */
static void test_metrics_every_sample_has_help_and_type(void **state)
{
	struct metrics_fx *x = *state;
	char family[128] = "", type[16] = "";
	unsigned int samples = 0;
	char *t, *line, *save;

	interval(x, 0, 1, 0x600, 1, 1);
	metrics_record(&x->m, 0, &x->r);
	interval(x, 1, 2, 0x600, 1, 1);
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	for (line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (!strncmp(line, "# HELP ", 7)) {
			assert_int_equal(sscanf(line + 7, "%127s", family), 1);
			assert_true(strlen(line) > 8 + strlen(family));
			type[0] = '\0';
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			assert_int_equal(sscanf(line + 7, "%127s %15s", name, type), 2);
			assert_string_equal(name, family);
			assert_int_equal(strncmp(name, "ioca_", 5), 0);
			if (!strcmp(type, "counter"))
				assert_non_null(strstr(name, "_total"));
			else
				assert_string_equal(type, "gauge");
			continue;
		}
		assert_true(type[0]);
		assert_int_equal(sscanf(line, "%127[^{ ]", name), 1);
		assert_string_equal(name, family);
		/* every series but the build's is the socket's */
		if (strcmp(name, "ioca_build_info"))
			assert_non_null(strstr(line, "{socket=\"1\""));
		samples++;
	}
	assert_true(samples > 40);
	free(t);
}

/* Seen in the end-to-end test: a scrape before the first interval claimed row 0. */
static void test_metrics_no_latest_interval_before_the_first(void **state)
{
	struct metrics_fx *x = *state;
	char *t;

	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_intervals_total{socket=\"1\"}"), 0);
	assert_false(metrics_fx_has(t, "ioca_interval_index{socket=\"1\"}"));
	assert_false(metrics_fx_has(t, "ioca_platform_time_seconds{socket=\"1\"}"));
	free(t);
	interval(x, 0, 1.0, 0x600, 100, 7);
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_interval_index{socket=\"1\"}"), 0);
	free(t);
}

/* The loop's turns: ioca_waiting while the platform waits (a sampler that will not start). */
static void test_metrics_waiting_gauge_follows_the_loop_status(void **state)
{
	struct metrics_fx *x = *state;
	struct loop_status st = {.turns = 7, .waiting = "the sampler to start"};
	struct timespec ts;
	char *t;

	t = metrics_fx_render(&x->m);
	assert_false(metrics_fx_has(t, "ioca_waiting"));
	free(t);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	st.waiting_since_ns = ((uint64_t)ts.tv_sec - 3) * 1000000000ull + (uint64_t)ts.tv_nsec;
	metrics_status(&x->m, &st);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_waiting"), 1);
	assert_true(metrics_fx_value(t, "ioca_waiting_seconds") >= 3);
	assert_int_equal(metrics_fx_value(t, "ioca_loop_turns_total"), 7);
	free(t);
	st = (struct loop_status){.turns = 8, .waiting = ""};
	metrics_status(&x->m, &st);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, "ioca_waiting"), 0);
	assert_int_equal(metrics_fx_value(t, "ioca_waiting_seconds"), 0);
	free(t);
}

/* CAT's wait while samples come: one series per what, 1 while it waits for that. */
static void test_metrics_cat_waiting_says_for_what(void **state)
{
	struct metrics_fx *x = *state;
	struct loop_status st = {.turns = 3, .waiting = ""};
	const char *res = "ioca_cat_waiting{what=\"resctrl\"}";
	const char *cls = "ioca_cat_waiting{what=\"rdt_class\"}";
	char *t;

	metrics_status(&x->m, &st);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, res), 0);
	assert_int_equal(metrics_fx_value(t, cls), 0);
	free(t);
	st.cat_waits = PLATFORM_CAT_WAIT_RESCTRL;
	st.cat_waiting = "resctrl is not mounted";
	metrics_status(&x->m, &st);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, res), 1);
	assert_int_equal(metrics_fx_value(t, cls), 0);
	assert_int_equal(metrics_fx_value(t, "ioca_waiting"), 0);
	free(t);
	st.cat_waits = PLATFORM_CAT_WAIT_CLASS;
	metrics_status(&x->m, &st);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, res), 0);
	assert_int_equal(metrics_fx_value(t, cls), 1);
	free(t);
}

/* A PS->BE change starts no new series but the info metric's (rate() runs through it). */
static void test_metrics_priority_lives_in_the_tenant_info_metric_only(void **state)
{
	struct metrics_fx *x = *state;
	const char *misses = "ioca_tenant_llc_misses_total{socket=\"1\",tenant=\"vf\"}";
	char *t;

	t = record_one(x, 0, 1);
	assert_int_equal(metrics_fx_value(t, misses), 100);
	assert_int_equal(
		metrics_fx_value(t, "ioca_tenant_info{socket=\"1\",tenant=\"vf\",priority=\"PS\"}"),
		1);
	assert_int_equal(
		metrics_fx_value(t, "ioca_tenant_info{socket=\"1\",tenant=\"be\",priority=\"BE\"}"),
		1);
	assert_null(strstr(strstr(t, "ioca_tenant_llc_ways"), "priority="));
	free(t);
	interval(x, 1, 2, 0x600, 0, 0);
	x->r.tenant[0].prio = CONFIG_PRIO_BE; /* a reload made vf BE */
	metrics_record(&x->m, 0, &x->r);
	t = metrics_fx_render(&x->m);
	assert_int_equal(metrics_fx_value(t, misses), 200);
	assert_int_equal(
		metrics_fx_value(t, "ioca_tenant_info{socket=\"1\",tenant=\"vf\",priority=\"BE\"}"),
		1);
	assert_false(strstr(t, "priority=\"PS\""));
	free(t);
}

static void test_metrics_build_info_names_the_version(void **state)
{
	struct metrics_fx *x = *state;
	char *t, want[64];

	t = metrics_fx_render(&x->m);
	snprintf(want, sizeof(want), "ioca_build_info{version=\"%s\"}", IOCA_VERSION);
	assert_int_equal(metrics_fx_value(t, want), 1);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_metrics_waiting_gauge_follows_the_loop_status,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_cat_waiting_says_for_what, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_priority_lives_in_the_tenant_info_metric_only, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_metrics_build_info_names_the_version, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_counters_sum_intervals_and_gauges_take_the_latest, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_metrics_lag_is_the_interval_past_interval_ms,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_fsm_state_and_transitions_by_reason,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_tenant_that_leaves_loses_its_series_and_keeps_its_counter,
			setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_device_ddio_mode_and_refusal, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_metrics_tenant_slots_are_bounded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_metrics_sim_columns_become_sim_metrics_in_base_units, setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_without_sim_columns_no_sim_families,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_metrics_every_sample_has_help_and_type, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_metrics_no_latest_interval_before_the_first,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
