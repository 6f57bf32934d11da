// SPDX-License-Identifier: GPL-2.0
/*
 * A4's rules on the simulator. Storage DDIO (examples/iocad/storage-ddio.*):
 * DDIO off for an SSD whose writes only pollute the LLC and back on when
 * its load stops; `on` and `off` are honoured as given; a device the
 * platform refuses is reported and the tenants go on; a reload changes a
 * device's setting and nothing else. Antagonists (examples/iocad/
 * antagonist.*): a BE tenant that misses its L2 and the LLC alike is
 * confined off DDIO's ways, and given its ways back when it stops. The
 * whole design against IOCA's rules alone (examples/iocad/a4-whole.*).
 */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "log_buf.h"
#include "loop/loop.h"
#include "run_fx.h"
#include "scenario.h"
#include "sim_platform.h"

#define MAX_REC 64
#define SEC 1000000000ULL
#define NET 0 /* the scenario's first tenant */

struct run {
	struct config cfg;
	struct platform pf;
	struct loop_record rec[MAX_REC];
	size_t n;
	/* the simulator's figures of each interval */
	double mem[MAX_REC], ring_hit[MAX_REC];
	uint32_t mask[MAX_REC]; /* the platform's mask of tenant @watch */
	size_t nfig;
	const char *watch;
	volatile sig_atomic_t reload;
	const char *reload_text; /* the config a reload at reload_s reads */
	unsigned int reload_s;
	char log[16384];
};

/* Example @ini with the first "@from" replaced by "@to", and @extra appended. */
static char *config_text(const char *ini, const char *from, const char *to, const char *extra)
{
	FILE *f = fopen(run_fx_example(ini), "r");
	char *text = calloc(1, 16384), *at;
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	n = fread(text, 1, 8192, f);
	fclose(f);
	text[n] = '\0';
	if (from) {
		at = strstr(text, from);
		assert_non_null(at);
		memmove(at + strlen(to), at + strlen(from), strlen(at + strlen(from)) + 1);
		memcpy(at, to, strlen(to));
	}
	if (extra)
		strcat(text, extra);
	return text;
}

static void log_cb(void *arg, enum loop_log_level lvl, const char *msg)
{
	struct run *r = arg;

	(void)lvl;
	log_buf_append(r->log, sizeof(r->log), msg);
}

static void record_cb(void *arg, const struct loop_record *rec)
{
	struct run *r = arg;
	const struct sim_rates *rates = sim_platform_rates(&r->pf);

	if (r->nfig < MAX_REC && rates) {
		r->mask[r->nfig] = r->watch ? sim_platform_tenant_mask(&r->pf, r->watch) : 0;
		r->mem[r->nfig] = rates->mem_bytes;
		r->ring_hit[r->nfig++] = rates->tenant[NET].ring_hit;
	}
	if (r->reload_text && rec->t_ns == r->reload_s * SEC)
		r->reload = 1;
}

static int reload_cb(void *arg, struct config *out, char *err, size_t len)
{
	struct run *r = arg;

	return config_parse_string(r->reload_text, "t2.ini", out, err, len);
}

static struct run *run_scn(const char *scn_name, const char *cfg_text, const char *watch,
			   const char *reload_text, unsigned int reload_s, size_t n)
{
	struct run *r = calloc(1, sizeof(*r));
	char err[512] = "", scn[256];

	assert_non_null(r);
	if (config_parse_string(cfg_text, "t.ini", &r->cfg, err, sizeof(err)))
		fail_msg("%s", err);
	r->reload_text = reload_text;
	r->reload_s = reload_s;
	r->watch = watch;
	snprintf(scn, sizeof(scn), "%s", scn_name[0] == '/' ? scn_name : run_fx_example(scn_name));
	struct loop_opts lo = run_fx_loop_opts(&r->cfg, log_cb, &r->reload, reload_cb, r);

	lo.record_fn = record_cb;
	lo.record_arg = r;
	run_fx_sim_loop(&lo, scn, NULL, &r->pf, r->rec, MAX_REC, &r->n);
	assert_int_equal(r->n, n); /* the first poll is the baseline */
	assert_int_equal(r->nfig, r->n);
	return r;
}

/* The storage story: 60 s. */
static struct run *run(const char *cfg_text, const char *reload_text, unsigned int reload_s)
{
	return run_scn("storage-ddio.scn", cfg_text, NULL, reload_text, reload_s, 59);
}

/* The record of the interval ending at @s seconds. */
static size_t at(const struct run *r, unsigned int s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].t_ns == s * SEC)
			return i;
	fail_msg("no interval ends at %us", s);
	return 0;
}

/* Is device 0 off in the interval ending at @s seconds? */
static bool off_at(const struct run *r, unsigned int s)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->rec[i].t_ns == s * SEC)
			return r->rec[i].devices_off & 1;
	fail_msg("no interval ends at %us", s);
	return false;
}

/* First second in [from, to] where device 0's state is @off, or 0. */
static unsigned int first(const struct run *r, unsigned int from, unsigned int to, bool off)
{
	for (unsigned int s = from; s <= to; s++)
		if (off_at(r, s) == off)
			return s;
	return 0;
}

/* Mean over the intervals ending in [t0, t1] s of @what (0 hits, 1 misses, 2 mem, 3 ring hit). */
static double mean(const struct run *r, int what, unsigned int t0, unsigned int t1)
{
	double sum = 0;
	unsigned int k = 0;

	for (size_t i = 0; i < r->n; i++) {
		const struct loop_record *x = &r->rec[i];
		double v[4];

		if (x->t_ns < t0 * SEC || x->t_ns > t1 * SEC)
			continue;
		v[0] = (double)x->ddio_hits;
		v[1] = (double)x->ddio_misses;
		v[2] = r->mem[i];
		v[3] = r->ring_hit[i];
		sum += v[what];
		k++;
	}
	assert_true(k > 0);
	return sum / k;
}

static void test_sim_storage_auto_off_under_load_and_back_on(void **u)
{
	char *a = config_text("storage-ddio.ini", NULL, NULL, NULL),
	     *o = config_text("storage-ddio.ini", "\nddio = auto", "\nddio = on", NULL);
	struct run *aut = run(a, NULL, 0), *on = run(o, NULL, 0);
	unsigned int off_s = first(aut, 2, 39, true), on_s = first(aut, 41, 59, false);

	(void)u;
	/* off once the minimum dwell from the start is over, on within seconds of the stop */
	if (off_s < 10 || off_s > 16)
		fail_msg("auto: DDIO off for the SSD at %us, expected 10-16 s\n%s", off_s,
			 aut->log);
	for (unsigned int s = off_s; s <= 40; s++)
		assert_true(off_at(aut, s));
	if (on_s < 41 || on_s > 50)
		fail_msg("auto: DDIO back on at %us, expected 41-50 s\n%s", on_s, aut->log);
	for (unsigned int s = on_s; s <= 59; s++)
		assert_false(off_at(aut, s));
	{
		char said[96];

		snprintf(said, sizeof(said),
			 "device 0000:5e:00.0 (storage, tenant db): DDIO off at t=%us (auto: "
			 "pollutes:",
			 off_s);
		assert_non_null(strstr(aut->log, said));
	}
	assert_non_null(strstr(aut->log, "(auto: quiet: writes 0 MB/s"));
	/* on: never switched */
	for (size_t i = 0; i < on->n; i++)
		assert_int_equal(on->rec[i].devices_off, 0);
	/* under network + storage load (20-38 s): the rings keep their lines */
	{
		double hits_a = mean(aut, 0, 20, 38), hits_o = mean(on, 0, 20, 38);
		double miss_a = mean(aut, 1, 20, 38), miss_o = mean(on, 1, 20, 38);
		double mem_a = mean(aut, 2, 20, 38), mem_o = mean(on, 2, 20, 38);
		double ring_a = mean(aut, 3, 20, 38), ring_o = mean(on, 3, 20, 38);

		print_message("storage 20-38 s, auto vs on: DDIO hits %.3g vs %.3g/s, misses %.3g "
			      "vs %.3g/s, net ring hit %.3f vs %.3f, memory %.3g vs %.3g B/s\n",
			      hits_a, hits_o, miss_a, miss_o, ring_a, ring_o, mem_a, mem_o);
		assert_true(hits_a > 1.2 * hits_o);
		assert_true(miss_a < 0.3 * miss_o);
		assert_true(ring_a > ring_o + 0.2);
		assert_true(mem_a < 0.9 * mem_o);
	}
	/* after the stop both run alike */
	assert_true(fabs(mean(aut, 3, 50, 59) - mean(on, 3, 50, 59)) < 0.01);
	/* batch, the BE tenant Core Demand put on DDIO's ways, keeps its lines there */
	{
		int b = run_fx_tenant(&aut->cfg, "batch");
		double ipc_a = 0, ipc_o = 0;

		for (unsigned int t = 20; t <= 38; t++) {
			ipc_a += aut->rec[at(aut, t)].tenant[b].ipc;
			ipc_o += on->rec[at(on, t)].tenant[b].ipc;
		}
		print_message("batch IPC 20-38 s, auto vs on: %+.1f %%\n",
			      (ipc_a / ipc_o - 1) * 100);
		assert_true(ipc_a > 1.05 * ipc_o);
	}
	free(a);
	free(o);
	free(aut);
	free(on);
}

static void test_sim_storage_off_and_on_are_honoured(void **u)
{
	char *o = config_text("storage-ddio.ini", "\nddio = auto", "\nddio = off", NULL);
	char *f = config_text("storage-ddio.ini", "\nddio = auto", "\nddio = full-off", NULL);
	struct run *off = run(o, NULL, 0), *full = run(f, NULL, 0);

	(void)u;
	/* off from the start, whatever the load (also after it stops) */
	for (size_t i = 0; i < off->n; i++) {
		assert_int_equal(off->rec[i].devices_off, 1);
		assert_int_equal(full->rec[i].devices_off, 1);
	}
	assert_non_null(strstr(off->log, "device 0000:5e:00.0 (storage, tenant db): DDIO off\n"));
	assert_non_null(strstr(full->log, "DDIO full-off\n"));
	assert_true(mean(off, 3, 2, 38) > 0.9);
	free(o);
	free(f);
	free(off);
	free(full);
}

static void test_sim_storage_refused_device_leaves_the_rest(void **u)
{
	char *c =
		config_text("storage-ddio.ini", NULL, NULL, "[device 0000:aa:00.0]\nddio = off\n");
	struct run *r = run(c, NULL, 0);

	(void)u;
	assert_non_null(strstr(r->log, "device 0000:aa:00.0: DDIO off refused: No such device: "
				       "device 0000:aa:00.0: no such device in the scenario"));
	/* the other device and the tenants as without it */
	assert_true(off_at(r, 20));
	assert_false(off_at(r, 55));
	assert_int_equal(r->rec[r->n - 1].ntenants, 4);
	free(c);
	free(r);
}

static void test_sim_storage_reload_changes_the_device(void **u)
{
	char *a = config_text("storage-ddio.ini", NULL, NULL, NULL),
	     *o = config_text("storage-ddio.ini", "\nddio = auto", "\nddio = on", NULL);
	char *bad = config_text("storage-ddio.ini", "\nddio = auto", "\nddio = sometimes", NULL);
	struct run *r = run(a, o, 25), *b = run(a, bad, 25);

	(void)u;
	assert_true(off_at(r, 25));
	/* the reload is taken before the next interval's poll */
	assert_false(off_at(r, 26));
	assert_false(off_at(r, 38));
	assert_non_null(strstr(r->log, "reload: t.ini: devices changed, tenants unchanged"));
	assert_non_null(strstr(r->log, "device 0000:5e:00.0 (storage, tenant db): DDIO on\n"));
	/* a bad device entry is refused whole, naming file:line and value; nothing changes */
	assert_non_null(strstr(b->log, "reload rejected, keeping the running config: t2.ini:"));
	assert_non_null(strstr(b->log, "[device 0000:5e:00.0] ddio: bad value 'sometimes'"));
	assert_true(off_at(b, 30));
	free(a);
	free(o);
	free(bad);
	free(r);
	free(b);
}

/* storage_off_rate above the SSD's 1.6 GB/s (1.5G binary): auto keeps DDIO on; per device too. */
static void test_sim_storage_off_rate_keeps_ddio_on(void **u)
{
	char *p = config_text("storage-ddio.ini", "\nmodel = slicing",
			      "\nmodel = slicing\nstorage_off_rate = 2GB/s", NULL);
	char *d = config_text("storage-ddio.ini", NULL, NULL, "storage_off_rate = 2GB/s\n");
	char *lo = config_text("storage-ddio.ini", NULL, NULL, "storage_off_rate = 1GB/s\n");
	struct run *rp = run(p, NULL, 0), *rd = run(d, NULL, 0), *rl = run(lo, NULL, 0);

	(void)u;
	for (unsigned int s = 2; s <= 59; s++) {
		if (off_at(rp, s) || off_at(rd, s))
			fail_msg("DDIO off at %us with storage_off_rate = 2GB/s\n%s%s", s, rp->log,
				 rd->log);
	}
	assert_null(strstr(rp->log, "pollutes"));
	/* below the SSD's rate: off under load as with the default */
	assert_true(off_at(rl, 20));
	assert_false(off_at(rl, 59));
	free(p);
	free(d);
	free(lo);
	free(rp);
	free(rd);
	free(rl);
}

/*
 * A reload that only changes thresholds: taken at the next interval, the
 * device's decision, streak and dwell kept (no re-plan). A quiet rate
 * above the SSD's 1.6 GB/s turns DDIO back on after storage_confirm
 * intervals, not after a new dwell.
 */
static void test_sim_storage_reload_thresholds_keep_the_decision(void **u)
{
	char *a = config_text("storage-ddio.ini", NULL, NULL, NULL);
	char *t = config_text("storage-ddio.ini", "\nmodel = slicing",
			      "\nmodel = slicing\nstorage_off_rate = 2GB/s\n"
			      "storage_quiet_rate = 1.8GB/s",
			      NULL);
	char *bad = config_text("storage-ddio.ini", "\nmodel = slicing",
				"\nmodel = slicing\nstorage_quiet_rate = 1.8GB/s", NULL);
	struct run *r = run(a, t, 25), *b = run(a, bad, 25);
	unsigned int on_s = first(r, 26, 40, false);

	(void)u;
	assert_true(off_at(r, 25));
	/* still off: the reload keeps the decision; three intervals to confirm */
	assert_true(off_at(r, 26));
	assert_true(off_at(r, 27));
	if (on_s < 28 || on_s > 30)
		fail_msg("DDIO back on at %us, expected 28-30 s\n%s", on_s, r->log);
	for (unsigned int s = on_s; s <= 59; s++)
		assert_false(off_at(r, s));
	assert_non_null(strstr(r->log, "reload: t.ini: thresholds changed, tenants unchanged"));
	assert_null(strstr(r->log, "devices changed"));
	assert_null(strstr(r->log, "reload: t.ini unchanged"));
	assert_non_null(strstr(r->log, "(auto: quiet: writes"));
	/* a bad pair is refused whole: the running thresholds stay */
	assert_non_null(strstr(b->log, "reload rejected, keeping the running config: t2.ini:"));
	assert_non_null(strstr(b->log, "storage_off_rate 200MB/s must be above storage_quiet_rate "
				       "1800MB/s"));
	for (unsigned int s = 25; s <= 40; s++)
		assert_true(off_at(b, s));
	free(a);
	free(t);
	free(bad);
	free(r);
	free(b);
}

static void test_sim_storage_scenario_errors(void **u)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{"[tenant a]\n[device 5e:00.0]\n",
		 "s.scn:2: [device 0000:5e:00.0]: tenant missing"},
		{"[tenant a]\n[device 5e:00.0]\ntenant = b\n",
		 "s.scn:2: [device 0000:5e:00.0] tenant: no tenant 'b' in this scenario"},
		{"[tenant a]\n[device 5e:00]\n", "s.scn:2: [device 5e:00]: bad address"},
		{"[tenant a]\n[device 5e:00.0]\nrate = 1G\n",
		 "s.scn:3: [device 0000:5e:00.0] rate: "
		 "unknown key"},
		{"[tenant a]\ndma_rate = 2X\n", "s.scn:2: dma_rate"},
	};

	(void)u;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[256] = "";
		struct scenario *s =
			scenario_parse_string(cases[i].text, "s.scn", err, sizeof(err));

		if (s || strncmp(err, cases[i].err, strlen(cases[i].err)))
			fail_msg("case %zu: '%s', expected '%s'", i, err, cases[i].err);
	}
}

static void test_sim_a4_antagonist_confined_off_ddio(void **u)
{
	char *c = config_text("antagonist.ini", NULL, NULL, NULL);
	char *o = config_text("antagonist.ini", "\nantagonists = confine",
			      "\nantagonists = observe", NULL);
	struct run *conf = run_scn("antagonist.scn", c, "stream", NULL, 0, 54);
	struct run *obs = run_scn("antagonist.scn", o, "stream", NULL, 0, 54);
	int k = run_fx_tenant(&conf->cfg, "stream");
	unsigned int first = 0;
	double ipc_c = 0, ipc_o = 0;

	(void)u;
	for (unsigned int s = 2; s <= 54 && !first; s++)
		if (conf->rec[at(conf, s)].tenant[k].antagonist)
			first = s;
	/* it streams from 15 s: three intervals to judge it */
	if (first < 16 || first > 19)
		fail_msg("stream judged an antagonist at %us, expected 16-19 s\n%s", first,
			 conf->log);
	assert_non_null(strstr(conf->log, "socket 0: tenant stream is an antagonist (L2 miss "
					  "ratio 1.00, LLC miss ratio 1.00): confined to 0x20 of "
					  "its 0x3e0"));
	for (unsigned int s = first + 1; s <= 40; s++) {
		size_t i = at(conf, s), j = at(obs, s);

		/* confined to one way off DDIO's (0x600); observe leaves the planner's */
		assert_int_equal(conf->mask[i], 0x20);
		assert_int_equal(obs->mask[j], 0x3e0);
		assert_true(obs->rec[j].tenant[k].antagonist);
		ipc_c += conf->rec[i].tenant[k].ipc;
		ipc_o += obs->rec[j].tenant[k].ipc;
	}
	/*
	 * The antagonist loses little. The others gain nothing here: the only
	 * way it shares is one of DDIO's, and net reads every byte of its
	 * packets, so their lines leave DDIO's ways for the inclusive ways
	 * microseconds after they land, long before the scan evicts them:
	 * DDIO's misses do not move (FSM.md, "Antagonists"; a4-whole shows
	 * confinement freeing a DDIO way that holds unread payload).
	 */
	print_message("antagonist 20-38 s, confine vs observe: DDIO misses %.3g vs %.3g/s, "
		      "stream IPC %.4f vs %.4f\n",
		      mean(conf, 1, 20, 38), mean(obs, 1, 20, 38), ipc_c, ipc_o);
	assert_true(ipc_c > 0.98 * ipc_o);
	assert_true(mean(conf, 1, 20, 38) <= 1.01 * mean(obs, 1, 20, 38));
	/* a cache-friendly phase from 40 s: its ways back */
	assert_non_null(strstr(conf->log, "tenant stream is no antagonist any more"));
	for (unsigned int s = 45; s <= 54; s++) {
		assert_int_equal(conf->mask[at(conf, s)], 0x3e0);
		assert_false(conf->rec[at(conf, s)].tenant[k].antagonist);
	}
	free(c);
	free(o);
	free(conf);
	free(obs);
}

/* Mean IPC of tenant @name over the intervals ending in [t0, t1] s. */
static double mean_ipc(const struct run *r, const char *name, unsigned int t0, unsigned int t1)
{
	int k = run_fx_tenant(&r->cfg, name);
	double sum = 0;

	for (unsigned int t = t0; t <= t1; t++)
		sum += r->rec[at(r, t)].tenant[k].ipc;
	return sum / (t1 - t0 + 1);
}

/* The PS tenants' (web's and net's) mean IPC ratio of @a over @b, 20-59 s. */
static double ps_gain(const struct run *a, const struct run *b)
{
	return (mean_ipc(a, "web", 20, 59) / mean_ipc(b, "web", 20, 59) +
		mean_ipc(a, "net", 20, 59) / mean_ipc(b, "net", 20, 59)) /
	       2;
}

/*
 * A4's whole design against IOCA's rules alone (examples/iocad/a4-whole.*),
 * A4's +51 % for high-priority workloads in kind: the PS tenants gain; and
 * what each part gives, against the whole design without it. In this model
 * only the inclusive ways reach the PS tenants (CAT keeps them off DDIO's
 * ways and the BE tenants'; the memory traffic the other parts save is a
 * few GB/s of 128); the storage rule lifts the BE tenants on DDIO's ways,
 * and confining the antagonist frees the DDIO way it shared.
 */
static void test_sim_a4_whole_design_lifts_the_ps_tenants(void **u)
{
	char *w = config_text("a4-whole.ini", NULL, NULL, NULL);
	char *i = config_text("a4-whole-ioca.ini", NULL, NULL, NULL);
	char *ni = config_text("a4-whole.ini", "\nantagonists = confine",
			       "\nantagonists = confine\ninclusive_ways = none", NULL);
	char *on = config_text("a4-whole.ini", "\nddio = auto", "\nddio = on", NULL);
	char *na =
		config_text("a4-whole.ini", "\nantagonists = confine", "\nantagonists = off", NULL);
	struct run *whole = run_scn("a4-whole.scn", w, "stream", NULL, 0, 59);
	struct run *ioca = run_scn("a4-whole.scn", i, "stream", NULL, 0, 59);
	struct run *no_incl = run_scn("a4-whole.scn", ni, "stream", NULL, 0, 59);
	struct run *ddio_on = run_scn("a4-whole.scn", on, "stream", NULL, 0, 59);
	struct run *no_ant = run_scn("a4-whole.scn", na, "stream", NULL, 0, 59);
	double g = ps_gain(whole, ioca);

	(void)u;
	print_message("a4-whole 20-59 s: PS mean IPC whole vs IOCA alone %+.1f %% (web %+.1f %%, "
		      "net %+.1f %%); vs without the inclusive ways %+.1f %%, the SSD's DDIO on "
		      "%+.1f %%, antagonists off %+.1f %%\n",
		      (g - 1) * 100,
		      (mean_ipc(whole, "web", 20, 59) / mean_ipc(ioca, "web", 20, 59) - 1) * 100,
		      (mean_ipc(whole, "net", 20, 59) / mean_ipc(ioca, "net", 20, 59) - 1) * 100,
		      (ps_gain(whole, no_incl) - 1) * 100, (ps_gain(whole, ddio_on) - 1) * 100,
		      (ps_gain(whole, no_ant) - 1) * 100);
	/* the whole design's parts acted, IOCA's rules alone had none of them */
	assert_non_null(strstr(whole->log, "tenant stream is an antagonist"));
	assert_non_null(strstr(whole->log, "DDIO off at t="));
	assert_null(strstr(ioca->log, "antagonist"));
	assert_null(strstr(ioca->log, "DDIO off"));
	/* the PS tenants gain, none loses */
	assert_true(g > 1.05);
	assert_true(mean_ipc(whole, "web", 20, 59) > 1.1 * mean_ipc(ioca, "web", 20, 59));
	assert_true(mean_ipc(whole, "net", 20, 59) > 0.99 * mean_ipc(ioca, "net", 20, 59));
	/* the inclusive ways: the PS tenants' gain is theirs */
	assert_true(ps_gain(whole, no_incl) > 1.05);
	assert_true(ps_gain(whole, no_incl) > 0.9 * g);
	/* the storage rule: DDIO's ways keep their lines, the BE tenants on them gain */
	assert_true(mean(whole, 1, 20, 59) < 0.1 * mean(ddio_on, 1, 20, 59));
	assert_true(mean(whole, 2, 20, 59) < 0.9 * mean(ddio_on, 2, 20, 59));
	assert_true(mean_ipc(whole, "batch", 20, 59) + mean_ipc(whole, "db", 20, 59) >
		    1.05 * (mean_ipc(ddio_on, "batch", 20, 59) + mean_ipc(ddio_on, "db", 20, 59)));
	assert_true(fabs(ps_gain(whole, ddio_on) - 1) < 0.01);
	/* confinement frees the DDIO way the antagonist shared */
	assert_true(mean(whole, 1, 20, 59) < 0.5 * mean(no_ant, 1, 20, 59));
	assert_true(fabs(ps_gain(whole, no_ant) - 1) < 0.01);
	free(w);
	free(i);
	free(ni);
	free(on);
	free(na);
	free(whole);
	free(ioca);
	free(no_incl);
	free(ddio_on);
	free(no_ant);
}

/*
 * A temporary copy of example scenario @name into @path (a mkstemp
 * template) with each line starting with @prefix replaced by @with
 * ("" drops it).
 */
static void scenario_variant(const char *name, const char *prefix, const char *with, char *path)
{
	FILE *in = fopen(run_fx_example(name), "r"), *out;
	char line[256];
	int fd = mkstemp(path);

	assert_non_null(in);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	assert_non_null(out);
	while (fgets(line, sizeof(line), in))
		fputs(strncmp(line, prefix, strlen(prefix)) ? line : with, out);
	fclose(in);
	fclose(out);
}

/* antagonist_min_l2_rate above the stream's L2 requests: never judged, never confined. */
static void test_sim_a4_antagonist_min_l2_rate(void **u)
{
	char *c = config_text("antagonist.ini", "\nantagonists = confine",
			      "\nantagonists = confine\nantagonist_min_l2_rate = 1000G", NULL);
	struct run *r = run_scn("antagonist.scn", c, "stream", NULL, 0, 54);
	int k = run_fx_tenant(&r->cfg, "stream");

	(void)u;
	for (unsigned int s = 2; s <= 54; s++)
		assert_false(r->rec[at(r, s)].tenant[k].antagonist);
	for (unsigned int s = 20; s <= 40; s++)
		assert_int_equal(r->mask[at(r, s)], 0x3e0);
	assert_null(strstr(r->log, "is an antagonist"));
	free(c);
	free(r);
}

/*
 * The same key on a reload at 30 s, the stream confined: no re-plan, the
 * verdict kept until antagonist_confirm intervals say otherwise.
 */
static void test_sim_a4_antagonist_reload_threshold(void **u)
{
	char *c = config_text("antagonist.ini", NULL, NULL, NULL);
	char *t = config_text("antagonist.ini", "\nantagonists = confine",
			      "\nantagonists = confine\nantagonist_min_l2_rate = 1000G", NULL);
	struct run *r = run_scn("antagonist.scn", c, "stream", t, 30, 54);
	int k = run_fx_tenant(&r->cfg, "stream");
	unsigned int cleared = 0;

	(void)u;
	for (unsigned int s = 20; s <= 32; s++)
		assert_true(r->rec[at(r, s)].tenant[k].antagonist);
	for (unsigned int s = 31; s <= 54 && !cleared; s++)
		if (!r->rec[at(r, s)].tenant[k].antagonist)
			cleared = s;
	if (cleared < 33 || cleared > 35)
		fail_msg("stream cleared at %us, expected 33-35 s\n%s", cleared, r->log);
	assert_non_null(strstr(r->log, "reload: t.ini: thresholds changed, tenants unchanged"));
	assert_non_null(strstr(r->log, "tenant stream is no antagonist any more"));
	free(c);
	free(t);
	free(r);
}

static void test_sim_a4_antagonist_needs_l2_counters(void **u)
{
	char path[] = "/tmp/iocad-a4XXXXXX";
	char *c = config_text("antagonist.ini", NULL, NULL, NULL);
	struct run *r;

	(void)u;
	/* the same scenario without its L2: no L2 counters, no verdict */
	scenario_variant("antagonist.scn", "l2 = ", "", path);
	r = run_scn(path, c, "stream", NULL, 0, 54);
	unlink(path);
	assert_null(strstr(r->log, "antagonist"));
	for (size_t i = 0; i < r->n; i++)
		assert_int_equal(r->mask[i], 0x3e0);
	free(c);
	free(r);
}

static void test_sim_storage_auto_keeps_reread_data(void **u)
{
	char path[] = "/tmp/iocad-a4XXXXXX";
	char *c = config_text("storage-ddio.ini", NULL, NULL, NULL);
	struct run *r;

	(void)u;
	/* db's cores read every block right after it lands: the LLC serves them */
	scenario_variant("storage-ddio.scn", "dma_reread = ", "dma_reread = yes\n", path);
	r = run_scn(path, c, NULL, NULL, 0, 59);
	unlink(path);
	for (size_t i = 0; i < r->n; i++)
		assert_int_equal(r->rec[i].devices_off, 0);
	assert_null(strstr(r->log, "pollutes"));
	free(c);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_storage_auto_off_under_load_and_back_on),
		cmocka_unit_test(test_sim_storage_off_and_on_are_honoured),
		cmocka_unit_test(test_sim_storage_off_rate_keeps_ddio_on),
		cmocka_unit_test(test_sim_storage_reload_thresholds_keep_the_decision),
		cmocka_unit_test(test_sim_storage_refused_device_leaves_the_rest),
		cmocka_unit_test(test_sim_storage_reload_changes_the_device),
		cmocka_unit_test(test_sim_storage_scenario_errors),
		cmocka_unit_test(test_sim_a4_antagonist_confined_off_ddio),
		cmocka_unit_test(test_sim_a4_antagonist_needs_l2_counters),
		cmocka_unit_test(test_sim_a4_antagonist_min_l2_rate),
		cmocka_unit_test(test_sim_a4_antagonist_reload_threshold),
		cmocka_unit_test(test_sim_storage_auto_keeps_reread_data),
		cmocka_unit_test(test_sim_a4_whole_design_lifts_the_ps_tenants),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
