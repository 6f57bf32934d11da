// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's evaluation stories on the simulator (examples/iocad/fig8-*,
 * fig9-*, fig10-*) and A4's on the inclusive ways (a4-*): the decisions in
 * kind and order, and the outcome against static (and core-only, or
 * another layout) in the direction the paper reports.
 * Figures come from the trace, the simulator's columns included.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

#define MAX_REC 80
#define SEC 1000000000ULL

struct run {
	struct config cfg;
	struct loop_record rec[MAX_REC];
	size_t n;
	char *csv;
	size_t csv_len;
	char log[16384];
};

static void log_cb(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct run *r = arg;

	(void)lvl;
	log_buf_append(r->log, sizeof(r->log), msg);
}

/* @base's story in @mode; @no_inclusive: its config with inclusive_ways = none. */
static struct run *story_with(const char *base, enum iocad_mode mode, bool no_inclusive)
{
	char ini[256], scn[256], name[64], err[512] = "";
	struct run *r = calloc(1, sizeof(*r));
	struct platform pf;
	FILE *m;

	assert_non_null(r);
	snprintf(name, sizeof(name), "%s.ini", base);
	snprintf(ini, sizeof(ini), "%s", run_fx_example(name));
	snprintf(name, sizeof(name), "%s.scn", base);
	snprintf(scn, sizeof(scn), "%s", run_fx_example(name));
	if (config_parse_file(ini, &r->cfg, err, sizeof(err)))
		fail_msg("%s", err);
	if (no_inclusive)
		r->cfg.inclusive.kind = CONFIG_INCL_NONE;
	m = open_memstream(&r->csv, &r->csv_len);
	assert_non_null(m);
	struct loop_opts lo = {.sz = sizeof(lo),
			       .cfg = &r->cfg,
			       .mode = mode,
			       .trace = m,
			       .log = log_cb,
			       .log_arg = r};

	run_fx_sim_loop(&lo, scn, NULL, &pf, r->rec, MAX_REC, &r->n);
	fclose(m);
	assert_true(r->n > 40);
	return r;
}

static struct run *story(const char *base, enum iocad_mode mode)
{
	return story_with(base, mode, false);
}

static void done(struct run *r)
{
	free(r->csv);
	free(r);
}

/* Mean of trace column @col over the intervals ending in (t0, t1] seconds. */
static double mean(const struct run *r, const char *col, double t0, double t1)
{
	char *text = strdup(r->csv), *save = NULL, *line;
	int c = -1, k = 0;
	double sum = 0;

	assert_non_null(text);
	line = strtok_r(text, "\n", &save);
	{
		char *h = strdup(line), *hs = NULL;
		int i = 0;

		for (char *f = strtok_r(h, ",", &hs); f; f = strtok_r(NULL, ",", &hs), i++)
			if (!strcmp(f, col))
				c = i;
		free(h);
	}
	if (c < 0)
		fail_msg("no trace column %s", col);
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *p = line;
		/* interval,socket,t_s,... */
		double t = strtod(strchr(strchr(line, ',') + 1, ',') + 1, NULL);

		for (int i = 0; i < c; i++)
			p = strchr(p, ',') + 1;
		if (t > t0 && t <= t1) {
			sum += strtod(p, NULL);
			k++;
		}
	}
	free(text);
	assert_true(k > 0);
	return sum / k;
}

/* Index of the first record at or after @s seconds whose decision is @reason, or -1. */
static int first_reason(const struct run *r, unsigned int s, const char *reason)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].t_ns >= s * SEC &&
		    !strcmp(decide_reason_name(&r->rec[i].decision), reason))
			return (int)i;
	return -1;
}

#define CHECK(cond, ...)                       \
	do {                                   \
		if (!(cond))                   \
			fail_msg(__VA_ARGS__); \
	} while (0)

/* Fig. 8: Leaky DMA under a packet-size ramp, ioca against static. */
static void test_story_fig8_leaky_dma(void **st)
{
	struct run *io = story("fig8-leaky-dma", IOCAD_MODE_IOCA);
	struct run *sc = story("fig8-leaky-dma", IOCAD_MODE_STATIC);
	int ps = run_fx_tenant(&io->cfg, "PS"), vs = run_fx_tenant(&io->cfg, "vswitch"), up, grow,
	    stop;
	double h, m;

	(void)st;
	/*
	 * At line rate (two 40GbE ports) the payload the vswitch never reads
	 * stays in DDIO's ways: 1 KiB packets already outgrow two of them.
	 * Until then, nothing to do.
	 */
	for (size_t i = 0; i < io->n && io->rec[i].t_ns <= 30 * SEC; i++)
		CHECK(io->rec[i].state == FSM_LOW_KEEP && io->rec[i].ddio_ways == 2,
		      "t=%.0fs: expected low_keep with 2 DDIO ways", io->rec[i].t_ns / 1e9);
	/* then I/O Demand, DDIO grows while a way pays or up to its maximum, then holds */
	up = first_reason(io, 30, "io_pressure");
	grow = first_reason(io, 30, "still_missing");
	stop = first_reason(io, 30, "no_gain");
	if (stop < 0)
		stop = first_reason(io, 30, "ddio_max");
	CHECK(up >= 0 && io->rec[up].t_ns <= 32 * SEC, "no I/O Demand right after 30s");
	CHECK(grow > up, "DDIO grew only once");
	CHECK(stop > grow && io->rec[stop].state == FSM_HIGH_KEEP,
	      "neither no_gain nor ddio_max ended the growth");
	CHECK(io->rec[io->n - 1].ddio_ways >= 4, "DDIO ends with %u ways",
	      io->rec[io->n - 1].ddio_ways);
	for (size_t i = 0; i < io->n; i++)
		CHECK(!run_fx_overlap(&io->rec[i], ps) && !run_fx_overlap(&io->rec[i], vs),
		      "t=%.0fs: PS or vswitch on DDIO's ways", io->rec[i].t_ns / 1e9);
	/* the outcome over the 1500-byte phase, against static */
	h = mean(io, "ddio_hits", 44, 55) / mean(sc, "ddio_hits", 44, 55);
	m = mean(io, "ddio_misses", 44, 55) / mean(sc, "ddio_misses", 44, 55);
	/* the paper's claims in kind: the signs, not its sizes */
	CHECK(h > 1 && m < 1, "DDIO hits x%.2f, misses x%.2f vs static", h, m);
	m = mean(io, "sim_mem_bytes_s", 44, 55) / mean(sc, "sim_mem_bytes_s", 44, 55);
	CHECK(m < 1, "memory traffic x%.2f vs static", m);
	h = mean(io, "vswitch_ipc", 44, 55) / mean(sc, "vswitch_ipc", 44, 55);
	/*
	 * The paper: about +5 %. In the model a leak costs the vswitch only
	 * the latency of its memory traffic, which even at line rate loads the
	 * DRAM by a few per cent: no lower than static is all that holds
	 * (README, story table).
	 */
	CHECK(h > 0.999, "vswitch IPC x%.4f vs static (paper: about +5 %%)", h);
	h = mean(io, "sim_vswitch_cycles_per_pkt", 44, 55) /
	    mean(sc, "sim_vswitch_cycles_per_pkt", 44, 55);
	CHECK(h < 1.001, "vswitch cycles/packet x%.4f vs static", h);
	done(io);
	done(sc);
}

/* Fig. 9: a flow ramp; the vswitch's own demand, with DDIO quiet. */
static void test_story_fig9_flow_ramp(void **st)
{
	struct run *io = story("fig9-flows", IOCAD_MODE_IOCA);
	struct run *sc = story("fig9-flows", IOCAD_MODE_STATIC);
	static const double ph[][2] = {{2, 10}, {12, 20}, {22, 30}, {32, 40}, {44, 55}};
	int vs = run_fx_tenant(&io->cfg, "vswitch"), ps = run_fx_tenant(&io->cfg, "PS"), cd;
	double prev = 1e9, best = 0;

	(void)st;
	for (size_t i = 0; i < io->n; i++) {
		CHECK(io->rec[i].ddio_misses < io->cfg.threshold_miss_low,
		      "t=%.0fs: DDIO misses are not low", io->rec[i].t_ns / 1e9);
		CHECK(!run_fx_overlap(&io->rec[i], ps) && !run_fx_overlap(&io->rec[i], vs),
		      "t=%.0fs: PS or vswitch on DDIO's ways", io->rec[i].t_ns / 1e9);
	}
	/* the table outgrows the vswitch's ways: Core Demand for its own cores */
	cd = first_reason(io, 10, "own_demand");
	CHECK(cd >= 0 && io->rec[cd].state == FSM_CORE_DEMAND, "no own_demand Core Demand");
	CHECK(io->rec[cd].tenant[vs].ways == 3 && io->rec[cd + 1].tenant[vs].ways == 4,
	      "the vswitch did not gain a way per interval");
	/* with every way given out, Core Demand ends instead of sitting blocked */
	CHECK(io->rec[cd + 2].state == FSM_LOW_KEEP, "Core Demand did not end");
	CHECK(io->rec[io->n - 1].tenant[vs].ways == 4, "the vswitch ends with %u ways",
	      io->rec[io->n - 1].tenant[vs].ways);
	for (size_t k = 0; k < 5; k++) {
		double a = mean(io, "vswitch_ipc", ph[k][0], ph[k][1]);
		double b = mean(sc, "vswitch_ipc", ph[k][0], ph[k][1]);

		CHECK(b < prev * 1.01, "static vswitch IPC does not fall with flows");
		CHECK(a >= 0.99 * b, "ioca below static in phase %zu", k);
		prev = b;
		best = a / b > best ? a / b : best;
	}
	/* in kind: static falls from 1K to 100K flows, ioca gains over it somewhere */
	prev = mean(sc, "vswitch_ipc", 2, 10) / mean(sc, "vswitch_ipc", 44, 55);
	CHECK(prev > 1, "static IPC 1K/100K flows = %.2f", prev);
	CHECK(best > 1, "ioca at most x%.2f over static (paper: up to +11.4 %%)", best);
	done(io);
	done(sc);
}

/* Fig. 10/11: the Latent Contender, a packet-size sweep, the operator's DDIO change. */
static void test_story_fig10_latent_contender_sweep(void **st)
{
	struct run *r[3] = {story("fig10-latent-sweep", IOCAD_MODE_IOCA),
			    story("fig10-latent-sweep", IOCAD_MODE_CORE_ONLY),
			    story("fig10-latent-sweep", IOCAD_MODE_STATIC)};
	static const double ph[][2] = {{7, 15}, {17, 25}, {27, 35}, {37, 45}};
	int x = run_fx_tenant(&r[0]->cfg, "xmem4"), pmd = run_fx_tenant(&r[0]->cfg, "pmd");
	double gap = 0, gap_s = 0, gap_s0 = 0;

	(void)st;
	for (size_t i = 0; i < r[0]->n; i++)
		CHECK(!run_fx_overlap(&r[0]->rec[i], x) && !run_fx_overlap(&r[0]->rec[i], pmd),
		      "ioca t=%.0fs: a PS tenant on DDIO's ways", r[0]->rec[i].t_ns / 1e9);
	/* in order: xmem4's working set grows at 5s, the core side grants it a way */
	for (int k = 0; k < 2; k++) {
		int g = first_reason(r[k], 5, "core_alloc");

		CHECK(g >= 0 && r[k]->rec[g].t_ns <= 7 * SEC && r[k]->rec[g].decision.tenant == x,
		      "mode %d: no way for xmem4 right after 5s", k);
		CHECK(r[k]->rec[g].tenant[x].ways == 4, "mode %d: xmem4 has %u ways", k,
		      r[k]->rec[g].tenant[x].ways);
		for (size_t i = 0; i < r[k]->n; i++)
			CHECK(r[k]->rec[i].decision.action != FSM_ACT_DDIO_GROW &&
				      !(r[k]->rec[i].ddio_outside && r[k]->rec[i].t_ns != 46 * SEC),
			      "mode %d t=%.0fs: DDIO grown, or the outside change seen off time", k,
			      r[k]->rec[i].t_ns / 1e9);
	}
	CHECK(run_fx_overlap(&r[1]->rec[10], x) > 0, "core-only did not give xmem4 DDIO's ways");
	for (size_t k = 0; k < 4; k++) {
		double io = mean(r[0], "sim_xmem4_refs_s", ph[k][0], ph[k][1]);
		double co = mean(r[1], "sim_xmem4_refs_s", ph[k][0], ph[k][1]);
		double sc = mean(r[2], "sim_xmem4_refs_s", ph[k][0], ph[k][1]);

		/*
		 * At 64 bytes every line is read and lives in pmd's inclusive
		 * ways, DDIO's ways stay empty: core-only loses nothing there
		 * (the paper: +1.4 %). From 512 bytes ioca is ahead.
		 */
		CHECK((k ? io > co : io >= 0.999 * co) && co >= 0.999 * sc && io > sc,
		      "phase %zu: xmem4 throughput ioca %.3g core-only %.3g static %.3g", k, io, co,
		      sc);
		/* the gap to core-only grows with packet size */
		CHECK(io / co >= gap, "phase %zu: gap to core-only shrank", k);
		gap = io / co;
		/* and the gap to static does not shrink (within the noise) */
		CHECK(io / sc >= 0.999 * gap_s, "phase %zu: gap to static shrank", k);
		gap_s = io / sc;
		if (k == 0)
			gap_s0 = gap_s;
		CHECK(mean(r[0], "sim_xmem4_lat_ns", ph[k][0], ph[k][1]) <
			      (k ? 1.0 : 1.001) *
				      mean(r[1], "sim_xmem4_lat_ns", ph[k][0], ph[k][1]),
		      "phase %zu: latency not lower than core-only", k);
	}
	CHECK(gap > 1, "at 1500 bytes ioca is only x%.2f over core-only", gap);
	CHECK(gap_s > gap_s0,
	      "the gap to static does not grow from 64 to 1500 bytes (x%.3f, x%.3f)", gap_s0,
	      gap_s);
	/* t = 45s: the operator raises DDIO to four ways; every mode notices once */
	for (int k = 0; k < 3; k++) {
		size_t seen = 0;

		for (size_t i = 0; i < r[k]->n; i++) {
			seen += r[k]->rec[i].ddio_outside;
			if (r[k]->rec[i].t_ns > 45 * SEC)
				CHECK(r[k]->rec[i].ddio_mask == 0x780, "t=%.0fs: DDIO 0x%x",
				      r[k]->rec[i].t_ns / 1e9, r[k]->rec[i].ddio_mask);
			CHECK(r[k]->rec[i].ddio_ways <= (r[k]->rec[i].t_ns > 45 * SEC ? 4u : 2u),
			      "iocad changed DDIO's ways with ddio = observe");
		}
		CHECK(seen == 1, "mode %d noticed the outside change %zu times", k, seen);
		CHECK(strstr(r[k]->log, "DDIO mask changed outside iocad: 0x600 -> 0x780"),
		      "not logged");
	}
	/* afterwards ioca keeps xmem4 off all four ways; static and core-only do not */
	CHECK(run_fx_overlap(&r[0]->rec[r[0]->n - 1], x) == 0, "ioca: xmem4 on the new DDIO ways");
	CHECK(run_fx_overlap(&r[1]->rec[r[1]->n - 1], x) > 0 &&
		      run_fx_overlap(&r[2]->rec[r[2]->n - 1], x) > 0,
	      "the I/O-unaware modes should share");
	CHECK(mean(r[0], "sim_xmem4_refs_s", 47, 60) > mean(r[2], "sim_xmem4_refs_s", 47, 60),
	      "after the DDIO change, ioca's xmem4 is not ahead of static");
	for (int k = 0; k < 3; k++)
		done(r[k]);
}

/* A4's Fig. 4: db on the inclusive ways slows under I/O with DCA on, not off. */
static void test_story_a4_inclusive_ways_dca_on_and_off(void **st)
{
	struct run *r = story("a4-inclusive-dca", IOCAD_MODE_IOCA);
	int db = run_fx_tenant(&r->cfg, "db");
	double idle = mean(r, "db_ipc", 2, 10), on = mean(r, "db_ipc", 12, 25),
	       off = mean(r, "db_ipc", 27, 45);

	(void)st;
	/* the layout A4 measured: db on ways 0-1, off DDIO's, all along */
	for (size_t i = 0; i < r->n; i++)
		CHECK(r->rec[i].tenant[db].mask == 0x3 && !run_fx_overlap(&r->rec[i], db),
		      "t=%.0fs: db at 0x%x", r->rec[i].t_ns / 1e9, r->rec[i].tenant[db].mask);
	CHECK(on < 0.9 * idle, "DCA on: db's IPC x%.3f of idle", on / idle);
	CHECK(fabs(off / idle - 1) < 0.02, "DCA off: db's IPC x%.3f of idle", off / idle);
	/* the price of DCA off: every packet through DRAM */
	CHECK(mean(r, "sim_mem_bytes_s", 27, 45) > 3 * mean(r, "sim_mem_bytes_s", 12, 25),
	      "DCA off did not raise DRAM traffic");
	done(r);
}

/* A4's Fig. 7: the I/O tenant on the inclusive ways, against db on them. */
static void test_story_a4_io_tenant_on_inclusive_ways(void **st)
{
	struct run *a = story("a4-io-inclusive", IOCAD_MODE_IOCA);
	struct run *b = story_with("a4-io-inclusive", IOCAD_MODE_IOCA, true);
	int db = run_fx_tenant(&a->cfg, "db"), pmd = run_fx_tenant(&a->cfg, "pmd");
	size_t last = a->n - 1;

	(void)st;
	CHECK((a->rec[last].tenant[pmd].mask & 0x3) == 0x3 && !(a->rec[last].tenant[db].mask & 0x3),
	      "the planner did not put pmd on the inclusive ways (pmd 0x%x, db 0x%x)",
	      a->rec[last].tenant[pmd].mask, a->rec[last].tenant[db].mask);
	CHECK(b->rec[b->n - 1].tenant[db].mask & 0x3, "without the rule db is off them");
	CHECK(mean(a, "sim_mem_bytes_s", 2, 45) < mean(b, "sim_mem_bytes_s", 2, 45),
	      "DRAM traffic not lower with pmd on the inclusive ways");
	CHECK(mean(a, "sim_db_lat_ns", 2, 45) < mean(b, "sim_db_lat_ns", 2, 45),
	      "db's latency not lower with pmd on the inclusive ways");
	done(a);
	done(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_story_fig8_leaky_dma),
		cmocka_unit_test(test_story_fig9_flow_ramp),
		cmocka_unit_test(test_story_fig10_latent_contender_sweep),
		cmocka_unit_test(test_story_a4_inclusive_ways_dca_on_and_off),
		cmocka_unit_test(test_story_a4_io_tenant_on_inclusive_ways),
	};

	return cmocka_run_group_tests_name("sim_stories", tests, NULL, NULL);
}
