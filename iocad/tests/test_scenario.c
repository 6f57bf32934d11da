// SPDX-License-Identifier: GPL-2.0
/* Scenario files: values, events, and an error with file:line for each mistake. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenario.h"
#include "sim_keys.h"
#include "sim_rng.h"

static const char good[] = "# a comment\n"
			   "[platform]\n"
			   "ways = 12\n"
			   "way_size = 1.5M   ; trailing comment\n"
			   "miss_penalty = 180\n"
			   "ghz = 2.0\n"
			   "inclusive_mask = 0x7\n"
			   "seed = 0x2a\n"
			   "noise = 0.02\n"
			   "duration = 1500ms\n"
			   "ddio_mask = 0xc00\n"
			   "\n"
			   "[tenant ovs]\n"
			   "cpus = 0-1,4\n"
			   "ws = 512K\n"
			   "rate = 3.5M\n"
			   "pkt = 1500B\n"
			   "ring = 512\n"
			   "queues = 2\n"
			   "flows = 20K\n"
			   "[tenant be.1]\n"
			   "cpus = 2\n"
			   "active = no\n"
			   "[events]\n"
			   "at 1s leave ovs\n"
			   "at 500ms traffic ovs rate=1M pkt=64\n"
			   "at 0.5s join be.1\n"
			   "at 1s ddio 0xe00\n"
			   "at 1200ms flows ovs 100K\n"
			   "at 1.4s workload be.1 ws=8M rpi=0.02\n";

static struct scenario *parse(const char *text, char *err, size_t len)
{
	return scenario_parse_string(text, "t.scn", err, len);
}

/* Found by fuzz/fuzz_scenario: a size past 4 GiB was converted to unsigned as well. */
static void test_scenario_keeps_a_working_set_past_4g(void **state)
{
	char err[256] = "";
	struct scenario *s = parse("[tenant big]\nws = 5122M\n", err, sizeof(err));

	(void)state;
	assert_non_null(s);
	assert_float_equal(s->tenant[0].w.ws, 5122.0 * 1024 * 1024, 0);
	scenario_free(s);
}

static void test_scenario_parses_every_key(void **state)
{
	char err[256];
	struct scenario *s = parse(good, err, sizeof(err));
	const struct scenario_tenant *t;

	(void)state;
	assert_non_null(s);
	assert_int_equal(s->params.ways, 12);
	assert_float_equal(s->params.way_bytes, 1.5 * 1024 * 1024, 0);
	assert_float_equal(s->params.miss_penalty, 180, 0);
	assert_float_equal(s->params.ghz, 2.0, 0);
	assert_int_equal(s->params.incl_mask, 0x7);
	assert_int_equal(s->seed, 42);
	assert_float_equal(s->noise, 0.02, 0);
	assert_int_equal(s->duration_ns, 1500000000ULL);
	assert_int_equal(s->ddio_mask, 0xc00);
	assert_int_equal(s->ntenants, 2);
	t = &s->tenant[0];
	assert_string_equal(t->name, "ovs");
	assert_int_equal(t->ncpus, 3);
	assert_int_equal(t->cpus[2], 4);
	assert_float_equal(t->w.ws, 512 * 1024, 0);
	assert_float_equal(t->w.rate, 3.5e6, 0);
	assert_float_equal(t->w.pkt, 1500, 0);
	assert_int_equal(t->w.ring, 512);
	assert_int_equal(t->w.queues, 2);
	assert_float_equal(t->w.flows, 20000, 0);
	assert_int_equal(t->rate_line, 16);
	assert_false(s->tenant[1].w.active);
	assert_true(s->tenant[1].w.cpi > 0); /* defaults fill what is not given */
	scenario_free(s);
}

static void test_scenario_sorts_events_by_time_then_line(void **state)
{
	char err[256];
	struct scenario *s = parse(good, err, sizeof(err));
	const struct scenario_event *ev;

	(void)state;
	assert_non_null(s);
	assert_int_equal(s->nevents, 6);
	ev = s->events;
	assert_int_equal(ev[0].t_ns, 500000000ULL);
	assert_int_equal(ev[0].kind, SCN_EV_SET);
	assert_int_equal(ev[0].nset, 2);
	assert_string_equal(sim_keys_name(ev[0].set[0].key), "rate");
	assert_float_equal(ev[0].set[0].value, 1e6, 0);
	assert_int_equal(ev[1].kind, SCN_EV_JOIN);
	assert_int_equal(ev[1].tenant, 1);
	assert_int_equal(ev[2].kind, SCN_EV_LEAVE);
	assert_int_equal(ev[3].kind, SCN_EV_DDIO);
	assert_int_equal(ev[3].mask, 0xe00);
	assert_string_equal(sim_keys_name(ev[4].set[0].key), "flows");
	assert_float_equal(ev[4].set[0].value, 1e5, 0);
	assert_int_equal(ev[5].nset, 2);
	assert_int_equal(ev[5].line, 30);
	scenario_free(s);
}

static void test_scenario_defaults_ddio_to_the_top_two_ways(void **state)
{
	char err[256];
	struct scenario *s =
		parse("[platform]\nways = 20\n[tenant a]\ncpus = 0\n", err, sizeof(err));

	(void)state;
	assert_non_null(s);
	assert_int_equal(s->ddio_mask, 0xc0000);
	assert_int_equal(s->nevents, 0);
	/* six channels of DDR4-2666 */
	assert_float_equal(s->params.mem_bw, 127.968e9, 1e3);
	assert_float_equal(s->params.mem_slope, 0.2, 0);
	scenario_free(s);
	s = parse("[platform]\nmem_bw = 64G\nmem_slope = 0.4\n[tenant a]\ncpus = 0\n", err,
		  sizeof(err));
	assert_non_null(s);
	assert_float_equal(s->params.mem_bw, 64e9, 0);
	assert_float_equal(s->params.mem_slope, 0.4, 0);
	scenario_free(s);
	/* the loss model's stall and burst; a forwarding share */
	s = parse("[platform]\n[tenant a]\ncpus = 0\n", err, sizeof(err));
	assert_non_null(s);
	assert_float_equal(s->params.stall, 50e-6, 1e-12);
	assert_float_equal(s->params.rx_burst, 32, 0);
	assert_float_equal(s->tenant[0].w.tx, 0, 0);
	scenario_free(s);
	s = parse("[platform]\nstall = 200us\nrx_burst = 64\n[tenant a]\ncpus = 0\ntx = 0.5\n", err,
		  sizeof(err));
	assert_non_null(s);
	assert_float_equal(s->params.stall, 200e-6, 1e-12);
	assert_float_equal(s->params.rx_burst, 64, 0);
	assert_float_equal(s->tenant[0].w.tx, 0.5, 0);
	scenario_free(s);
}

struct bad_case {
	const char *desc;
	const char *text;
	const char *msg; /* expected error, file:line included */
};

static const struct bad_case bad[] = {
	{"unknown platform key", "[platform]\nwayz = 3\n", "t.scn:2: unknown key 'wayz'"},
	{"bad size", "[tenant a]\nws = 12Q\n", "t.scn:2: ws: bad value '12Q'"},
	{"out of range", "[tenant a]\nrpi = 2\n", "t.scn:2: rpi: 2 is out of range"},
	{"whole number", "[tenant a]\nring = 10.5\n", "t.scn:2: ring: bad value '10.5'"},
	{"unknown tenant key", "[tenant a]\nrat = 1\n", "t.scn:2: unknown tenant key 'rat'"},
	{"unknown section", "[tenants a]\n", "t.scn:1: unknown section [tenants a]"},
	{"unclosed section", "[platform\n", "t.scn:1: section header '[platform' lacks"},
	{"duplicate tenant", "[tenant a]\n[tenant a]\n", "t.scn:2: tenant 'a' is defined twice"},
	{"bad tenant name", "[tenant a/b]\n", "t.scn:1: tenant name 'a/b'"},
	{"no equals", "[platform]\nways 3\n", "t.scn:2: expected key = value"},
	{"key before section", "ways = 3\n", "t.scn:1: key 'ways' outside any section"},
	{"bad cpus", "[tenant a]\ncpus = 3-1\n", "t.scn:2: cpus: bad CPU list '3-1'"},
	{"no tenants", "[platform]\nways = 3\n", "t.scn: no [tenant NAME] section"},
	{"ddio out of ways", "[platform]\nways = 8\nddio_mask = 0x300\n[tenant a]\n",
	 "t.scn:3: ddio_mask: 0x300 is not a contiguous mask within 8 ways"},
	{"ddio not contiguous", "[platform]\nddio_mask = 0x500\n[tenant a]\n",
	 "t.scn:2: ddio_mask: 0x500 is not a contiguous"},
	{"bad duration", "[platform]\nduration = 0s\n", "t.scn:2: duration: bad value '0s'"},
	{"stall too long", "[platform]\nstall = 2s\n", "t.scn:2: stall: bad value '2s'"},
	{"tx above one", "[tenant a]\ntx = 1.5\n", "t.scn:2: tx: 1.5 is out of range"},
	{"duration without unit", "[platform]\nduration = 60\n",
	 "t.scn:2: duration: bad value '60': a bare number has no unit: write it with one"},
	{"event time without unit", "[tenant a]\n[events]\nat 5 leave a\n",
	 "t.scn:3: bad event time '5': a bare number has no unit"},
	{"cpus listed twice", "[tenant a]\ncpus = 1,0-2\n",
	 "t.scn:2: cpus: bad CPU list '1,0-2': CPU 1 listed twice"},
	{"event without at", "[tenant a]\n[events]\nin 5s leave a\n",
	 "t.scn:3: expected 'at TIME VERB ...'"},
	{"bad event time", "[tenant a]\n[events]\nat soon leave a\n",
	 "t.scn:3: bad event time 'soon'"},
	{"unknown verb", "[tenant a]\n[events]\nat 1s explode a\n",
	 "t.scn:3: unknown event 'explode'"},
	{"unknown event tenant", "[tenant a]\n[events]\nat 1s leave b\n",
	 "t.scn:3: no tenant 'b' in this scenario"},
	{"event after the end",
	 "[platform]\nduration = 10s\n[tenant a]\n[events]\nat 10s leave a\n",
	 "t.scn:5: event at 10.000s is not before the end of the run"},
	{"traffic with a workload key", "[tenant a]\n[events]\nat 1s traffic a ws=3M\n",
	 "t.scn:3: key 'ws' cannot be changed by this event"},
	{"set without changes", "[tenant a]\n[events]\nat 1s set a\n",
	 "t.scn:3: event changes nothing"},
	{"set without key=value", "[tenant a]\n[events]\nat 1s set a rate\n",
	 "t.scn:3: 'rate' is not key=value"},
	{"flows without count", "[tenant a]\n[events]\nat 1s flows a\n",
	 "t.scn:3: expected 'at TIME flows TENANT COUNT'"},
	{"bad event mask", "[tenant a]\n[events]\nat 1s ddio 0x5\n",
	 "t.scn:3: ddio: 0x5 is not a contiguous mask"},
};

static void test_scenario_errors_name_file_line_and_key(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";
		struct scenario *s = parse(bad[i].text, err, sizeof(err));

		if (s || !strstr(err, bad[i].msg))
			fail_msg("%s: got '%s', want '%s'", bad[i].desc, err, bad[i].msg);
		assert_int_equal(errno, EINVAL);
	}
}

static void test_scenario_load_reports_missing_file(void **state)
{
	char err[256];

	(void)state;
	assert_null(scenario_load("/nonexistent/x.scn", err, sizeof(err)));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(err, "/nonexistent/x.scn"));
}

static void test_scenario_examples_parse(void **state)
{
	static const char *const names[] = {"fig7a-aggregation.scn", "fig7b-slicing.scn",
					    "latent-contender.scn"};
	static const char *const dirs[] = {"../examples/iocad/", "examples/iocad/"};
	size_t i, d;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct scenario *s = NULL;
		char path[256], err[256] = "";

		for (d = 0; d < 2 && !s; d++) {
			snprintf(path, sizeof(path), "%s%s", dirs[d], names[i]);
			s = scenario_load(path, err, sizeof(err));
		}
		if (!s)
			fail_msg("%s: %s", names[i], err);
		assert_true(s->nevents > 0);
		scenario_free(s);
	}
}

/* Random damage to a good file: every outcome is a scenario or a located error. */
static void test_scenario_survives_random_damage(void **state)
{
	static const char alphabet[] = "[]=#;,.-0x9aAZ_ \t\nKMGskms";
	char text[sizeof(good)];
	struct sim_rng r;
	int round, ok = 0;

	(void)state;
	sim_rng_seed(&r, 2024);
	for (round = 0; round < 3000; round++) {
		char err[256] = "";
		struct scenario *s;
		int k, hits = 1 + (int)(sim_rng_next(&r) % 3);

		memcpy(text, good, sizeof(good));
		for (k = 0; k < hits; k++)
			text[sim_rng_next(&r) % (sizeof(good) - 1)] =
				alphabet[sim_rng_next(&r) % (sizeof(alphabet) - 1)];
		s = parse(text, err, sizeof(err));
		if (s) {
			ok++;
			assert_true(s->ntenants >= 1);
			scenario_free(s);
			continue;
		}
		if (strncmp(err, "t.scn:", 6) || errno != EINVAL)
			fail_msg("round %d: error '%s' (errno %d) lacks file:line", round, err,
				 errno);
	}
	/* Some damage is harmless (comments, digits): both outcomes were seen. */
	assert_true(ok > 0 && ok < 3000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scenario_parses_every_key),
		cmocka_unit_test(test_scenario_sorts_events_by_time_then_line),
		cmocka_unit_test(test_scenario_defaults_ddio_to_the_top_two_ways),
		cmocka_unit_test(test_scenario_errors_name_file_line_and_key),
		cmocka_unit_test(test_scenario_load_reports_missing_file),
		cmocka_unit_test(test_scenario_examples_parse),
		cmocka_unit_test(test_scenario_survives_random_damage),
		cmocka_unit_test(test_scenario_keeps_a_working_set_past_4g),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
