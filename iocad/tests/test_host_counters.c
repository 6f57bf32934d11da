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

#include "config/config.h"
#include "host_cat.h"
#include "host_counters.h"
#include "decide/planner.h"

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

/*
 * iocad was late and two samples waited for one poll: folded into one
 * longer interval, none lost (the soak saw "lost 1 sample(s)" for this).
 */
static void test_host_counters_samples_folded_in_one_poll_are_not_lost(void **state)
{
	struct fx *f = *state;

	cpu(&f->s, 0, 100, 0);
	fold(f, false, 0, 0);
	assert_int_equal(host_counters_poll_seq(&f->hc, 0), 1);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 200, 0);
	assert_int_equal(fold(f, false, 0, 0), 0);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 300, 0);
	assert_int_equal(fold(f, false, 0, 0), 0);
	assert_int_equal(host_counters_poll_seq(&f->hc, 0), 2); /* no gap */
	assert_int_equal(f->out.cpu[0].instructions, 300);
	/* a poll after two lost samples: the gap says them */
	f->s.ncpus = 0;
	cpu(&f->s, 0, 600, 0);
	f->s.lost = 2;
	assert_int_equal(host_counters_poll_seq(&f->hc, fold(f, false, 0, 0)), 5);
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
	host_counters_new_epoch(&f->hc, false, 0);
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

/* What host_ops' poll does with each received sample: drop an old run's, fold the rest. */
static void poll_one(struct fx *f)
{
	struct host_ddio_counts d[PLATFORM_MAX_SOCKETS] = {{0}};

	if (!host_counters_stale(&f->hc, &f->s))
		host_counters_fold(&f->hc, &f->s, d, &f->out);
}

/*
 * A reload restarted the sampler (run epoch 4 -> 5) while the old run's
 * last sample was still queued: it is dropped, and the new run's first
 * interval holds the new run's counts only (the probe saw 101e9
 * instructions for 1e9).
 */
static void test_host_counters_old_run_sample_is_not_folded(void **state)
{
	struct fx *f = *state;
	uint64_t before;

	host_counters_new_epoch(&f->hc, false, 4);
	f->s.epoch = 4;
	cpu(&f->s, 0, 99000000000ull, 1);
	poll_one(f);
	before = f->out.cpu[0].instructions;
	/* the restart; then the old run's queued sample, then the new run's */
	host_counters_new_epoch(&f->hc, false, 5);
	f->s.ncpus = 0;
	cpu(&f->s, 0, 100000000000ull, 1);
	poll_one(f);
	assert_int_equal(f->hc.stale, 1);
	f->s.ncpus = 0;
	f->s.epoch = 5;
	cpu(&f->s, 0, 1000000000ull, 1);
	poll_one(f);
	assert_int_equal(f->out.cpu[0].instructions - before, 1000000000ull);
	/* a later run nobody told iocad of (someone restarted it) restarts the counts */
	before = f->out.cpu[0].instructions;
	f->s.ncpus = 0;
	f->s.epoch = 6;
	cpu(&f->s, 0, 500, 1);
	poll_one(f);
	assert_int_equal(f->hc.run_epoch, 6);
	assert_int_equal(f->out.cpu[0].instructions - before, 500);
	/* a module without epochs (0): every sample counts, as before epochs */
	host_counters_new_epoch(&f->hc, false, 0);
	f->s.epoch = 3;
	assert_false(host_counters_stale(&f->hc, &f->s));
}

/*
 * The DDIO probe: iocad wrote 0x600 (epoch 8) over 0x700; a sample
 * collected before the write (epoch 7) still says 0x700: it says nothing
 * new, not "changed outside". One collected after says what is there.
 */
static void test_host_counters_stale_ddio_mask_is_not_an_outside_change(void **state)
{
	struct ioca_socket_sample ss = {.id = 0, .ddio_mask = 0x700, .ddio_epoch = 7};

	(void)state;
	assert_int_equal(host_counters_seen_mask(&ss, 8), 0);
	ss.ddio_epoch = 8;
	ss.ddio_mask = 0x600;
	assert_int_equal(host_counters_seen_mask(&ss, 8), 0x600);
	/* someone else wrote after iocad: a later epoch, an outside change */
	ss.ddio_epoch = 9;
	ss.ddio_mask = 0x300;
	assert_int_equal(host_counters_seen_mask(&ss, 8), 0x300);
	/* a module without epochs: the mask as sent */
	ss.ddio_epoch = 0;
	assert_int_equal(host_counters_seen_mask(&ss, 8), 0x300);
}

/*
 * The same probe through a poll: the platform_sample the loop reads is
 * the one of the poll before (the loop keeps it). The last poll before
 * iocad's write read 0x700; the first after it folds only a sample
 * collected before the write, whose mask says nothing new. The mask the
 * loop sees must then be 0 ("nothing read"), not the 0x700 left from the
 * poll before, which the loop would adopt as an outside change.
 */
static void test_host_counters_fold_leaves_no_earlier_poll_mask(void **state)
{
	struct fx *f = *state;
	struct ioca_socket_sample ss = {.id = 0, .ddio_mask = 0x700, .ddio_epoch = 7};

	f->s.nsockets = 1;
	f->s.sockets[0] = ss;
	cpu(&f->s, 0, 100, 0);
	fold(f, true, 0, 0);
	f->out.socket[0].ddio_mask = host_counters_seen_mask(&f->s.sockets[0], 7);
	assert_int_equal(f->out.socket[0].ddio_mask, 0x700);
	/* iocad writes 0x600 (epoch 8); the next sample was collected before */
	fold(f, true, 0, 0);
	assert_int_equal(host_counters_seen_mask(&f->s.sockets[0], 8), 0);
	assert_int_equal(f->out.socket[0].ddio_mask, 0);
}

/* The L2 events: indexes 4 and 5 fold into l2_refs/l2_misses only when they are live. */
static void test_host_counters_l2_folds_only_when_live(void **state)
{
	struct fx *f = *state;
	struct ioca_cpu_sample *c;

	cpu(&f->s, 0, 100, 0);
	c = &f->s.cpus[0];
	c->ncounters = HOST_MAX_CPU_EVENTS;
	c->counters[4] = (struct ioca_counter){.index = 4, .value = 1000};
	c->counters[5] = (struct ioca_counter){.index = 5, .value = 900};
	host_counters_new_epoch(&f->hc, false, 0);
	fold(f, true, 0, 0);
	assert_int_equal(f->out.cpu[0].llc_misses, 400);
	assert_int_equal(f->out.cpu[0].l2_refs, 0);
	assert_int_equal(f->out.cpu[0].l2_misses, 0);
	host_counters_new_epoch(&f->hc, true, 0);
	fold(f, true, 0, 0);
	assert_int_equal(f->out.cpu[0].l2_refs, 1000);
	assert_int_equal(f->out.cpu[0].l2_misses, 900);
	/* a restart keeps them cumulative, like the others */
	c->counters[4].value = 10;
	c->counters[5].value = 5;
	fold(f, true, 0, 0);
	assert_int_equal(f->out.cpu[0].l2_refs, 1010);
	assert_int_equal(f->out.cpu[0].l2_misses, 905);
}

/* Which CPUs get the raw L2 events, and what they are. */
static void test_host_counters_l2_events_by_model(void **state)
{
	static const uint32_t yes[] = {0x55, 0x8f, 0xcf, 0xad, 0xae};
	struct ioca_event ev[HOST_NR_L2_EVENTS];
	char why[HOST_L2_WHY_LEN];

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		memset(ev, 0, sizeof(ev));
		assert_true(host_counters_l2_events(6, yes[i], ev, why, sizeof(why)));
		assert_int_equal(ev[0].kind, IOCA_EVENT_KIND_RAW);
		assert_int_equal(ev[0].type, 4); /* PERF_TYPE_RAW */
		assert_true(ev[0].has_type);
		assert_int_equal(ev[0].config, 0xff24); /* L2_RQSTS.REFERENCES */
		assert_int_equal(ev[1].kind, IOCA_EVENT_KIND_RAW);
		assert_int_equal(ev[1].config, 0x3f24); /* L2_RQSTS.MISS */
	}
	/* Ice Lake-SP's event list has neither; a client part; AMD */
	assert_false(host_counters_l2_events(6, 0x6a, ev, why, sizeof(why)));
	assert_non_null(strstr(why, "CPU family 6 model 0x6a: iocad knows L2_RQSTS.REFERENCES"));
	assert_false(host_counters_l2_events(6, 0x6c, ev, why, sizeof(why)));
	assert_false(host_counters_l2_events(6, 0x5e, ev, why, sizeof(why)));
	assert_false(host_counters_l2_events(0x19, 0x55, ev, why, sizeof(why)));
	assert_non_null(strstr(why, "family 25 model 0x55"));
}

/* The sampler's events 0-3 iocad's, 4-5 the L2 ones as the module reports them. */
static void sampler_info(struct ioca_sampler_info *si, const struct ioca_event *ev)
{
	memset(si, 0, sizeof(*si));
	si->nevents = HOST_MAX_CPU_EVENTS;
	for (uint32_t k = 0; k < HOST_NR_CPU_EVENTS; k++)
		si->events[k] =
			(struct ioca_event_info){.index = k, .kind = host_cpu_event_kinds[k]};
	for (uint32_t k = 0; k < HOST_NR_L2_EVENTS; k++)
		si->events[4 + k] = (struct ioca_event_info){.index = 4 + k,
							     .kind = ev[k].kind,
							     .type = ev[k].type,
							     .config = ev[k].config};
}

/* Never judged from a substitute: L2 counts only when INFO says both count as asked. */
static void test_host_counters_l2_live_needs_the_module_word(void **state)
{
	struct ioca_sampler_info *si = calloc(1, sizeof(*si));
	struct ioca_event ev[HOST_NR_L2_EVENTS];
	char why[HOST_L2_WHY_LEN];

	(void)state;
	assert_non_null(si);
	assert_true(host_counters_l2_events(6, 0x55, ev, why, sizeof(why)));
	sampler_info(si, ev);
	assert_true(host_counters_l2_live(si, 4, ev, why, sizeof(why)));
	si->events[5].effective_kind = IOCA_EVENT_KIND_RAW; /* itself: fine */
	assert_true(host_counters_l2_live(si, 4, ev, why, sizeof(why)));

	/* counted as cpu-clock: a substitute */
	si->events[5].effective_kind = IOCA_EVENT_KIND_CPU_CLOCK;
	assert_false(host_counters_l2_live(si, 4, ev, why, sizeof(why)));
	assert_string_equal(why, "ioca.ko counts L2_RQSTS.MISS as event kind 6 (a substitute)");

	/* another event in the slot */
	sampler_info(si, ev);
	si->events[4].config = 0x4f2e;
	assert_false(host_counters_l2_live(si, 4, ev, why, sizeof(why)));
	assert_non_null(strstr(why, "not L2_RQSTS.REFERENCES"));

	/* a sampler of four events (configured without them) */
	sampler_info(si, ev);
	si->nevents = HOST_NR_CPU_EVENTS;
	assert_false(host_counters_l2_live(si, 4, ev, why, sizeof(why)));
	assert_string_equal(why, "ioca.ko's sampler does not list L2_RQSTS.REFERENCES (event 4)");
	free(si);
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
	assert_int_equal(host_cat_groups(&p->socket[0], NULL, g), 3);
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

/*
 * Hotplug: resctrl takes an offline CPU out of its group (and gives it to
 * the default group when it is back), so a group is written with the
 * plan's online CPUs only; once the CPU is back, it is listed again.
 */
static void test_host_cat_groups_lists_only_online_cpus(void **state)
{
	struct config *c = parse(groups_cfg);
	struct rdt_group *g = calloc(RDT_MAX_GROUPS, sizeof(*g));
	struct platform_plan *p = calloc(1, sizeof(*p));
	struct planner_alloc a = {.llc_ways = 11, .ddio_ways = 2, .ntenants = 4};
	struct platform_cpuset on = {{0}};

	(void)state;
	assert_non_null(g);
	assert_non_null(p);
	a.ways[0] = 2;
	a.ways[1] = a.ways[2] = 3;
	a.ways[3] = 1;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), 0);
	planner_socket_plan(c, &a, &p->socket[0]);
	for (unsigned int cpu = 0; cpu <= 5; cpu++)
		if (cpu != 4 && cpu != 5)
			platform_cpuset_add(&on, cpu);
	assert_int_equal(host_cat_groups(&p->socket[0], &on, g), 3);
	assert_string_equal(g[1].name, "pmd");
	assert_int_equal(g[1].ncpus, 1); /* pmd2's CPU 4 is offline */
	assert_int_equal(g[1].cpus[0], 2);
	assert_string_equal(g[2].name, "batch");
	assert_int_equal(g[2].ncpus, 0); /* a group whose CPUs are all offline stays */
	assert_int_equal(g[0].ncpus, 2);
	platform_cpuset_add(&on, 4);
	assert_int_equal(host_cat_groups(&p->socket[0], &on, g), 3);
	assert_int_equal(g[1].ncpus, 2);
	assert_int_equal(g[1].cpus[1], 4);
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
		cmocka_unit_test_setup_teardown(
			test_host_counters_samples_folded_in_one_poll_are_not_lost, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_restarts_never_go_backwards,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_missing_cpu_keeps_its_counts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_ddio_per_socket, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_old_run_sample_is_not_folded,
						setup, teardown),
		cmocka_unit_test(test_host_counters_stale_ddio_mask_is_not_an_outside_change),
		cmocka_unit_test_setup_teardown(test_host_counters_fold_leaves_no_earlier_poll_mask,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_host_counters_l2_folds_only_when_live, setup,
						teardown),
		cmocka_unit_test(test_host_counters_l2_events_by_model),
		cmocka_unit_test(test_host_counters_l2_live_needs_the_module_word),
		cmocka_unit_test(test_host_cat_groups_from_the_plan),
		cmocka_unit_test(test_host_cat_groups_lists_only_online_cpus),
		cmocka_unit_test(test_config_group_name_clash_is_refused),
		cmocka_unit_test(test_config_ddio_counters_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
