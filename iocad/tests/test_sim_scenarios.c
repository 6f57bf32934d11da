// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's stories, end to end: the examples' configs and scenarios run
 * through iocad's loop on the simulator, and the decisions checked against
 * Fig. 7(a), Fig. 7(b) and the Latent Contender comparison. A failure here
 * prints the interval, state and allocation it tripped on.
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
#include "loop/loop.h"
#include "run_fx.h"
#include "sim_platform.h"

#define MAX_REC 128
#define SEC 1000000000ULL

struct run {
	struct config cfg;
	struct loop_record rec[MAX_REC];
	size_t n;
};

static int find_example(const char *name, char *path, size_t len)
{
	static const char *const dirs[] = {"../examples/iocad/", "examples/iocad/"};
	size_t d;

	for (d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		FILE *f;

		snprintf(path, len, "%s%s", dirs[d], name);
		f = fopen(path, "r");
		if (f) {
			fclose(f);
			return 0;
		}
	}
	return -ENOENT;
}

/* Scenario @scn_base.scn under config @ini_base.ini. */
static struct run *run_pair(const char *scn_base, const char *ini_base, enum iocad_mode mode)
{
	struct sim_tenant_cfg t[PLATFORM_MAX_TENANTS];
	char ini[256], scn[256], name[64], err[512] = "";
	struct run *r = calloc(1, sizeof(*r));
	struct platform pf;
	unsigned int i;

	assert_non_null(r);
	snprintf(name, sizeof(name), "%s.ini", ini_base);
	assert_int_equal(find_example(name, ini, sizeof(ini)), 0);
	snprintf(name, sizeof(name), "%s.scn", scn_base);
	assert_int_equal(find_example(name, scn, sizeof(scn)), 0);
	if (config_parse_file(ini, &r->cfg, err, sizeof(err)))
		fail_msg("%s", err);
	for (i = 0; i < r->cfg.ntenants; i++)
		t[i] = (struct sim_tenant_cfg){.name = r->cfg.tenant[i].name,
					       .cpus = r->cfg.tenant[i].cpus,
					       .ncpus = r->cfg.tenant[i].ncpus,
					       .networking = r->cfg.tenant[i].networking,
					       .vswitch = r->cfg.tenant[i].vswitch};
	{
		struct sim_platform_opts o = {.sz = sizeof(o),
					      .noise = -1,
					      .interval_ns = r->cfg.interval_ns,
					      .llc_ways = r->cfg.llc_ways,
					      .tenants = t,
					      .ntenants = r->cfg.ntenants};
		struct loop_opts lo = {.sz = sizeof(lo), .cfg = &r->cfg, .mode = mode};

		if (sim_platform_open(scn, &o, &pf, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(loop_run(&lo, &pf, r->rec, MAX_REC, &r->n), 0);
		pf.ops->destroy(pf.ctx);
	}
	assert_true(r->n > 10);
	return r;
}

static struct run *run_example(const char *base, enum iocad_mode mode)
{
	return run_pair(base, base, mode);
}

static const char *state(const struct loop_record *rec)
{
	return fsm_state_name(rec->state);
}

/* First record at or after @t_ns in state @s, or -1. */
static int first_state(const struct run *r, uint64_t t_ns, enum fsm_state_id s)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->rec[i].t_ns > t_ns && r->rec[i].state == s)
			return (int)i;
	return -1;
}

static int at(const struct run *r, uint64_t t_ns)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->rec[i].t_ns >= t_ns)
			return (int)i;
	fail_msg("no interval at %.1fs", t_ns / 1e9);
	return -1;
}

#define EXPECT(r, i, cond)                                                                      \
	do {                                                                                    \
		if (!(cond))                                                                    \
			fail_msg("interval %d (t=%.0fs, %s, ddio 0x%x): expected %s", (int)(i), \
				 (r)->rec[i].t_ns / 1e9, state(&(r)->rec[i]),                   \
				 (r)->rec[i].ddio_mask, #cond);                                 \
	} while (0)

static void test_sim_scenario_fig7a_vswitch_gains_two_ways_then_gives_them_back(void **st)
{
	struct run *r = run_example("fig7a-aggregation", IOCAD_MODE_IOCA);
	int vs = run_fx_tenant(&r->cfg, "vswitch"), ps = run_fx_tenant(&r->cfg, "PS"),
	    be1 = run_fx_tenant(&r->cfg, "BE1"), be2 = run_fx_tenant(&r->cfg, "BE2");
	int i, cd, grow, t2;

	(void)st;
	for (i = 0; i < at(r, 10 * SEC); i++) {
		EXPECT(r, i, r->rec[i].state == FSM_LOW_KEEP);
		EXPECT(r, i, r->rec[i].tenant[vs].ways == 2);
		EXPECT(r, i,
		       run_fx_overlap(&r->rec[i], be1) + run_fx_overlap(&r->rec[i], be2) == 0);
	}
	/* t1: flows rise → Core Demand within two intervals. */
	cd = first_state(r, 10 * SEC, FSM_CORE_DEMAND);
	assert_true(cd >= 0);
	EXPECT(r, cd, r->rec[cd].t_ns <= 12 * SEC);
	/* +1 way for the vswitch per interval, two in all. */
	for (grow = cd; r->rec[grow].tenant[vs].ways == 2; grow++)
		;
	EXPECT(r, grow, r->rec[grow].tenant[vs].ways == 3);
	EXPECT(r, grow + 1, r->rec[grow + 1].tenant[vs].ways == 4);
	t2 = at(r, 30 * SEC);
	for (i = grow + 1; i < t2; i++) {
		EXPECT(r, i, r->rec[i].tenant[vs].ways == 4);
		/* All ways given out: one BE tenant shares DDIO, never PS or vswitch. */
		EXPECT(r, i, run_fx_overlap(&r->rec[i], be1) + run_fx_overlap(&r->rec[i], be2) > 0);
		EXPECT(r, i,
		       run_fx_overlap(&r->rec[i], ps) == 0 && run_fx_overlap(&r->rec[i], vs) == 0);
	}
	/* t2: flows end → Reclaim takes the two ways back, sharing ends. */
	i = first_state(r, 30 * SEC, FSM_RECLAIM);
	assert_true(i >= 0);
	for (; r->rec[i].tenant[vs].ways > 2; i++)
		EXPECT(r, i + 1, r->rec[i + 1].tenant[vs].ways + 1 >= r->rec[i].tenant[vs].ways);
	EXPECT(r, i, r->rec[i].t_ns <= 35 * SEC);
	i = (int)r->n - 1;
	EXPECT(r, i, r->rec[i].state == FSM_LOW_KEEP);
	EXPECT(r, i, r->rec[i].tenant[vs].ways == 2);
	EXPECT(r, i, run_fx_overlap(&r->rec[i], be1) + run_fx_overlap(&r->rec[i], be2) == 0);
	free(r);
}

static void test_sim_scenario_fig7b_ddio_grows_shuffles_and_reclaims(void **st)
{
	struct run *r = run_example("fig7b-slicing", IOCAD_MODE_IOCA);
	int ps = run_fx_tenant(&r->cfg, "PS"), be1 = run_fx_tenant(&r->cfg, "BE1"),
	    be2 = run_fx_tenant(&r->cfg, "BE2");
	int i, io, t2, last = (int)r->n - 1;
	unsigned int top = 0;

	(void)st;
	for (i = 0; i <= last; i++)
		EXPECT(r, i, run_fx_overlap(&r->rec[i], ps) == 0); /* PS stays isolated */
	for (i = 0; i < at(r, 10 * SEC); i++)
		EXPECT(r, i, r->rec[i].state == FSM_LOW_KEEP && r->rec[i].ddio_ways == 2);
	/* t1: traffic rises → I/O Demand, +1 DDIO way per interval. */
	io = first_state(r, 10 * SEC, FSM_IO_DEMAND);
	assert_true(io >= 0);
	EXPECT(r, io, r->rec[io].t_ns <= 12 * SEC);
	for (i = io; r->rec[i].state == FSM_IO_DEMAND; i++) {
		EXPECT(r, i, r->rec[i].ddio_ways == r->rec[i - 1].ddio_ways + 1);
		top = r->rec[i].ddio_ways;
	}
	assert_true(top >= 4);
	/* Before t2 the lighter BE2 is the one sharing DDIO's ways. */
	t2 = at(r, 25 * SEC);
	EXPECT(r, t2 - 1, run_fx_overlap(&r->rec[t2 - 1], be2) > 0);
	EXPECT(r, t2 - 1, run_fx_overlap(&r->rec[t2 - 1], be1) == 0);
	/*
	 * t2: BE2 turns LLC-hungry → BE1 is moved onto DDIO's ways, BE2 mostly
	 * off them. (BE2's fills still churn the DDIO way it keeps, so DDIO
	 * may grow again into BE2's ways: SIMULATOR.md, "Sharing ways".)
	 */
	i = t2 + 1;
	EXPECT(r, i, run_fx_overlap(&r->rec[i], be1) == r->rec[i].tenant[be1].ways);
	EXPECT(r, i, run_fx_overlap(&r->rec[i], be1) > run_fx_overlap(&r->rec[i], be2));
	i = t2 + 3;
	EXPECT(r, i, run_fx_overlap(&r->rec[i], be1) == r->rec[i].tenant[be1].ways);
	/* t3: traffic falls → Reclaim, one DDIO way per interval, back to 2. */
	i = first_state(r, 40 * SEC, FSM_RECLAIM);
	assert_true(i >= 0);
	for (; r->rec[i].ddio_ways > 2; i++)
		EXPECT(r, i + 1, r->rec[i + 1].ddio_ways + 1 >= r->rec[i].ddio_ways);
	EXPECT(r, i, r->rec[i].t_ns <= 48 * SEC);
	EXPECT(r, last, r->rec[last].state == FSM_LOW_KEEP && r->rec[last].ddio_ways == 2);
	free(r);
}

/* Mean IPC of @name over the intervals after @from_ns. */
static double mean_ipc(const struct run *r, const char *name, uint64_t from_ns)
{
	int t = run_fx_tenant(&r->cfg, name);
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		if (r->rec[i].t_ns > from_ns) {
			sum += r->rec[i].tenant[t].ipc;
			n++;
		}
	assert_true(n > 0);
	return sum / (double)n;
}

static void test_sim_scenario_latent_contender_ioca_beats_core_only_beats_static(void **st)
{
	struct run *io = run_example("latent-contender", IOCAD_MODE_IOCA);
	struct run *co = run_example("latent-contender", IOCAD_MODE_CORE_ONLY);
	struct run *sa = run_example("latent-contender", IOCAD_MODE_STATIC);
	double ipc_io = mean_ipc(io, "xmem4", 15 * SEC);
	double ipc_co = mean_ipc(co, "xmem4", 15 * SEC);
	double ipc_sa = mean_ipc(sa, "xmem4", 15 * SEC);
	int x = run_fx_tenant(&io->cfg, "xmem4");
	size_t i;

	(void)st;
	print_message("xmem4 IPC after t1: ioca %.3f, core-only %.3f, static %.3f\n", ipc_io,
		      ipc_co, ipc_sa);
	if (!(ipc_io > 1.02 * ipc_co && ipc_co >= 0.995 * ipc_sa))
		fail_msg("expected ioca > core-only >= static, got %.3f %.3f %.3f", ipc_io, ipc_co,
			 ipc_sa);
	/* The reason: ioca keeps the PS tenant off DDIO's ways, core-only does not. */
	for (i = 0; i < io->n; i++)
		EXPECT(io, i, run_fx_overlap(&io->rec[i], x) == 0);
	i = io->n - 1;
	EXPECT(io, i, io->rec[i].tenant[x].ways > 2);
	EXPECT(co, co->n - 1, run_fx_overlap(&co->rec[co->n - 1], x) > 0);
	free(io);
	free(co);
	free(sa);
}

/* The record of socket @k at simulated time @t_s (seconds), or NULL. */
static const struct loop_record *on(const struct run *r, unsigned int k, unsigned int t_s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].socket == k && r->rec[i].t_ns == t_s * SEC)
			return &r->rec[i];
	fail_msg("no record of socket %u at %us", k, t_s);
	return NULL;
}

/*
 * Two sockets, one loop (examples/iocad/two-sockets.*): socket 0's
 * traffic grows only socket 0's DDIO, socket 1's later traffic only
 * socket 1's (within its own ddio_ways_max), socket 0 reclaims without
 * disturbing socket 1, and an outside change on socket 1 is adopted there
 * alone.
 */
static void test_sim_scenario_two_sockets_decide_independently(void **state)
{
	struct run *r = run_example("two-sockets", IOCAD_MODE_IOCA);
	unsigned int outside[2] = {0, 0};

	(void)state;
	assert_int_equal(on(r, 0, 9)->ddio_ways, 2);
	assert_true(on(r, 0, 14)->ddio_ways > 2);
	assert_int_equal(on(r, 1, 14)->ddio_ways, 2);
	assert_int_equal(on(r, 1, 24)->state, FSM_LOW_KEEP);
	assert_true(on(r, 1, 30)->ddio_ways > 2);
	assert_int_equal(on(r, 0, 30)->ddio_ways, on(r, 0, 24)->ddio_ways);
	assert_int_equal(on(r, 0, 44)->ddio_ways, 2);
	assert_int_equal(on(r, 1, 44)->ddio_ways, on(r, 1, 30)->ddio_ways);
	for (size_t i = 0; i < r->n; i++) {
		const struct loop_record *rec = &r->rec[i];

		assert_true(rec->socket < 2);
		assert_int_equal(rec->ntenants, 3);
		if (rec->socket == 1)
			assert_true(rec->ddio_ways <= 4); /* [socket 1] ddio_ways_max */
		/* each PS tenant off its own socket's DDIO ways */
		assert_int_equal(run_fx_overlap(rec, 0), 0);
		outside[rec->socket] += rec->ddio_outside;
	}
	assert_int_equal(outside[0], 0);
	assert_int_equal(outside[1], 1);
	free(r);
}

/*
 * A slow flow ramp (+7 % per second) moves no interval by
 * THRESHOLD_STABLE, but the vswitch's IPC falls by a third over it. Own
 * demand over a window (FSM.md) must give the vswitch ways during the
 * ramp, with the PS tenant kept off DDIO, and beat static on its IPC.
 */
static void test_sim_scenario_slow_flow_ramp_gets_core_demand(void **st)
{
	struct run *io = run_example("flow-ramp", IOCAD_MODE_IOCA);
	struct run *sa = run_example("flow-ramp", IOCAD_MODE_STATIC);
	int vs = run_fx_tenant(&io->cfg, "vswitch"), ps = run_fx_tenant(&io->cfg, "PS");
	double ipc_io = mean_ipc(io, "vswitch", 20 * SEC),
	       ipc_sa = mean_ipc(sa, "vswitch", 20 * SEC);
	int cd = first_state(io, 5 * SEC, FSM_CORE_DEMAND);
	size_t i;

	(void)st;
	print_message("vswitch IPC after 20 s: ioca %.3f, static %.3f\n", ipc_io, ipc_sa);
	if (cd < 0)
		fail_msg("the ramp never reached Core Demand");
	EXPECT(io, cd, io->rec[cd].decision.fsm_reason == FSM_R_OWN_DEMAND);
	EXPECT(io, cd, io->rec[cd].t_ns <= 25 * SEC);
	EXPECT(io, io->n - 1, io->rec[io->n - 1].tenant[vs].ways > 2);
	for (i = 0; i < io->n; i++)
		EXPECT(io, i, run_fx_overlap(&io->rec[i], ps) == 0);
	if (!(ipc_io > ipc_sa))
		fail_msg("expected ioca's vswitch IPC above static's, got %.3f %.3f", ipc_io,
			 ipc_sa);
	free(io);
	free(sa);
}

/*
 * A growing ring footprint at a constant line rate
 * (examples/iocad/ring-growth). Once DDIO is capped (no_gain), the rings
 * double at 35 s: the same DMA traffic misses more, DDIO hits fall, no
 * core references more. DDIO's growth reopens (High Keep -> I/O Demand);
 * the fallen hits are not read as Core Demand, so the vswitch never grows
 * and the BE tenants are not pushed onto DDIO's ways.
 */
static void test_sim_scenario_ring_growth_reopens_ddio_not_the_vswitch(void **st)
{
	struct run *io = run_example("ring-growth", IOCAD_MODE_IOCA);
	int vs = run_fx_tenant(&io->cfg, "vswitch"), ps = run_fx_tenant(&io->cfg, "PS");
	int be1 = run_fx_tenant(&io->cfg, "BE1"), be2 = run_fx_tenant(&io->cfg, "BE2");
	int pre = at(io, 34 * SEC), cap = first_state(io, 15 * SEC, FSM_HIGH_KEEP);
	unsigned int shared =
		run_fx_overlap(&io->rec[pre], be1) + run_fx_overlap(&io->rec[pre], be2);
	int grow = -1;
	size_t i;

	(void)st;
	if (cap < 0 || io->rec[cap].t_ns > 34 * SEC)
		fail_msg("DDIO was not capped before the rings grew");
	EXPECT(io, cap, io->rec[cap].decision.fsm_reason == FSM_R_NO_GAIN);
	for (i = (size_t)pre + 1; i < io->n && grow < 0; i++)
		if (io->rec[i].ddio_ways > io->rec[i - 1].ddio_ways)
			grow = (int)i;
	if (grow < 0)
		fail_msg("DDIO never grew again after the rings doubled at 35 s");
	EXPECT(io, grow, io->rec[grow].t_ns <= 38 * SEC);
	EXPECT(io, grow, io->rec[grow].decision.prev_state == FSM_HIGH_KEEP);
	EXPECT(io, grow, io->rec[grow].decision.fsm_reason == FSM_R_STILL_MISSING);
	for (i = 0; i < io->n; i++) {
		EXPECT(io, i, io->rec[i].tenant[vs].ways == 2);
		EXPECT(io, i, io->rec[i].decision.fsm_reason != FSM_R_HITS_DOWN);
		EXPECT(io, i, run_fx_overlap(&io->rec[i], ps) == 0);
		if (i > (size_t)pre)
			EXPECT(io, i,
			       run_fx_overlap(&io->rec[i], be1) +
					       run_fx_overlap(&io->rec[i], be2) <=
				       shared + 1);
	}
	free(io);
}

/* The interval that noticed the outside DDIO change, or fail. */
static int outside_at(const struct run *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].ddio_outside)
			return (int)i;
	fail_msg("the outside DDIO change was never noticed");
	return -1;
}

/*
 * DDIO's ways anywhere contiguous (examples/iocad/ddio-anywhere).
 * An operator moves DDIO to ways 7-8 (0x180) at 8 s; with ddio = manage
 * iocad adopts it where it is, plans PS around it and, when the packets
 * grow at 20 s, grows DDIO at the ends of that range, never moving it.
 */
static void test_sim_scenario_ddio_anywhere_manage_grows_at_the_ends(void **st)
{
	struct run *r = run_pair("ddio-anywhere", "ddio-anywhere", IOCAD_MODE_IOCA);
	int ps = run_fx_tenant(&r->cfg, "PS"), o = outside_at(r), grow = -1;

	(void)st;
	EXPECT(r, o, r->rec[o].ddio_outside_from == 0x600);
	EXPECT(r, o, r->rec[o].ddio_mask == 0x180);
	for (size_t i = (size_t)o; i < r->n; i++) {
		uint32_t m = r->rec[i].ddio_mask, p = r->rec[i - 1].ddio_mask;
		uint32_t small = __builtin_popcount(m) < __builtin_popcount(p) ? m : p;

		EXPECT(r, i, (m & 0x180) == 0x180);
		EXPECT(r, i, run_fx_overlap(&r->rec[i], ps) == 0);
		if (i == (size_t)o)
			continue;
		/* one way per interval, at an end of the range */
		EXPECT(r, i, abs(__builtin_popcount(m) - __builtin_popcount(p)) <= 1);
		EXPECT(r, i, (m & p) == small);
		if (grow < 0 && __builtin_popcount(m) > __builtin_popcount(p))
			grow = (int)i;
	}
	if (grow < 0)
		fail_msg("DDIO never grew after the packets grew");
	EXPECT(r, grow, r->rec[grow].t_ns > 20 * SEC);
	EXPECT(r, grow, r->rec[grow].ddio_mask == 0x380);
	free(r);
}

/* The same with ddio = observe: DDIO stays 0x180, PS is kept off it. */
static void test_sim_scenario_ddio_anywhere_observe_keeps_ps_off(void **st)
{
	struct run *r = run_pair("ddio-anywhere", "ddio-anywhere-observe", IOCAD_MODE_IOCA);
	int ps = run_fx_tenant(&r->cfg, "PS"), o = outside_at(r);

	(void)st;
	for (size_t i = (size_t)o; i < r->n; i++) {
		EXPECT(r, i, r->rec[i].ddio_mask == 0x180);
		EXPECT(r, i, (r->rec[i].tenant[ps].mask & 0x180) == 0);
	}
	free(r);
}

/*
 * The paper's High Keep overlap (examples/iocad/high-keep-overlap).
 * Two PS tenants and one BE tenant: past four DDIO ways the overlap needs a
 * PS tenant's way. DDIO grows on (the paper's partial overlap), never
 * putting a PS tenant wholly on DDIO's ways and never a PS tenant while the
 * BE tenant is not wholly shared. Then the harm guard judges it: the
 * partial overlap costs a PS tenant more than 5 % of its IPC, so the
 * series is undone (FSM.md, divergence "never worse for a PS tenant") and
 * every change is held off for a while.
 */
static void test_sim_scenario_high_keep_overlap_is_undone_when_it_hurts(void **st)
{
	struct run *r = run_example("high-keep-overlap", IOCAD_MODE_IOCA);
	int be = run_fx_tenant(&r->cfg, "BE1"), five = -1, undone = -1;
	size_t i;

	(void)st;
	for (i = 0; i < r->n; i++) {
		const struct loop_record *c = &r->rec[i];
		unsigned int prot = 0;

		for (unsigned int k = 0; k < r->cfg.ntenants; k++) {
			if (r->cfg.tenant[k].prio != CONFIG_PRIO_PS)
				continue;
			EXPECT(r, i, run_fx_overlap(c, (int)k) < c->tenant[k].ways);
			prot += run_fx_overlap(c, (int)k);
		}
		EXPECT(r, i, !prot || run_fx_overlap(c, be) == c->tenant[be].ways);
		if (five < 0 && c->ddio_ways == 5)
			five = (int)i;
		if (undone < 0 && c->decision.reason == DECIDE_R_HARM_UNDONE)
			undone = (int)i;
	}
	if (five < 0)
		fail_msg("DDIO never grew past the four ways the BE tenant can cover");
	EXPECT(r, five, r->rec[five].decision.fsm_reason == FSM_R_STILL_MISSING);
	if (undone < five)
		fail_msg("the partial overlap was never undone (interval %d, five ways at %d)",
			 undone, five);
	/* back where it was, held: the next intervals change nothing */
	EXPECT(r, undone, r->rec[undone].ddio_ways == 2);
	for (i = (size_t)undone + 1; i < (size_t)undone + GUARD_HOLD_MIN && i < r->n; i++)
		EXPECT(r, i, r->rec[i].ddio_ways == 2);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_sim_scenario_fig7a_vswitch_gains_two_ways_then_gives_them_back),
		cmocka_unit_test(test_sim_scenario_fig7b_ddio_grows_shuffles_and_reclaims),
		cmocka_unit_test(
			test_sim_scenario_latent_contender_ioca_beats_core_only_beats_static),
		cmocka_unit_test(test_sim_scenario_two_sockets_decide_independently),
		cmocka_unit_test(test_sim_scenario_slow_flow_ramp_gets_core_demand),
		cmocka_unit_test(test_sim_scenario_ring_growth_reopens_ddio_not_the_vswitch),
		cmocka_unit_test(test_sim_scenario_ddio_anywhere_manage_grows_at_the_ends),
		cmocka_unit_test(test_sim_scenario_ddio_anywhere_observe_keeps_ps_off),
		cmocka_unit_test(test_sim_scenario_high_keep_overlap_is_undone_when_it_hurts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
