// SPDX-License-Identifier: GPL-2.0
#include "eval/eval_gen.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sim_rng.h"

#define LLC_WAYS 11
#define WAY_BYTES (2.25 * 1024 * 1024)
#define LINE_BPS 12.5e9 /* 100 Gb/s of wire, what one NIC port can bring */

struct text {
	char *buf;
	size_t len, cap;
	bool over;
};

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->over)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= t->cap - t->len)
		t->over = true;
	else
		t->len += (size_t)n;
}

static double uni(struct sim_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * sim_rng_uniform(r);
}

/* Log-uniform: working sets and rates spread over decades, not linearly. */
static double logu(struct sim_rng *r, double lo, double hi)
{
	return exp(uni(r, log(lo), log(hi)));
}

static unsigned int pick(struct sim_rng *r, unsigned int n)
{
	return (unsigned int)(sim_rng_next(r) % n);
}

static bool coin(struct sim_rng *r, double p)
{
	return sim_rng_uniform(r) < p;
}

static const double pkt_sizes[] = {64, 128, 256, 512, 1024, 1500};

/* Packets per second for @pkt bytes: what the test asked, capped by the wire. */
static double net_rate(struct sim_rng *r, double pkt)
{
	double cap = LINE_BPS / (pkt + 20), mpps = logu(r, 1e6, 60e6);

	return mpps < cap ? mpps : cap;
}

struct gen_tenant {
	char name[16];
	bool net, vswitch, ps;
	unsigned int cpu0, ncpus, ways;
	double ws;
};

/* The ways of the tenants iocad keeps off DDIO's ways (PS and vswitch). */
static unsigned int protected_ways(const struct gen_tenant *t, unsigned int n)
{
	unsigned int sum = 0;

	for (unsigned int i = 0; i < n; i++)
		sum += t[i].ps || t[i].vswitch ? t[i].ways : 0;
	return sum;
}

/*
 * The ways an operator gives each tenant: its working set in ways, within what is left.
 * A config whose PS and vswitch tenants leave DDIO no ways of its own is refused at
 * start ("PS tenant cannot be isolated from DDIO"); the operator told so cuts the
 * biggest of them until it fits. Three in ten such configs stay as first written: the
 * refusal is part of what is judged (eval/README.md).
 */
static void operator_ways(struct sim_rng *r, struct gen_tenant *t, unsigned int n,
			  unsigned int ddio)
{
	unsigned int sum = 0, budget = LLC_WAYS - (coin(r, 0.7) ? ddio : 0);

	for (unsigned int i = 0; i < n; i++) {
		double w = ceil(t[i].ws / WAY_BYTES);

		t[i].ways = w < 1 ? 1 : w > 4 ? 4 : (unsigned int)w;
		sum += t[i].ways;
	}
	while (sum > budget) {
		unsigned int big = 0;

		for (unsigned int i = 1; i < n; i++)
			if (t[i].ways > t[big].ways)
				big = i;
		if (t[big].ways == 1)
			break;
		t[big].ways--;
		sum--;
	}
	if (protected_ways(t, n) + ddio <= LLC_WAYS || coin(r, 0.3))
		return;
	while (protected_ways(t, n) + ddio > LLC_WAYS) {
		int big = -1;

		for (unsigned int i = 0; i < n; i++)
			if ((t[i].ps || t[i].vswitch) && t[i].ways > 1 &&
			    (big < 0 || t[i].ways > t[big].ways))
				big = (int)i;
		if (big < 0)
			break;
		t[big].ways--;
	}
}

static void put_config(struct text *c, struct sim_rng *r, const struct eval_case *e,
		       struct gen_tenant *t, unsigned int n, unsigned int ddio)
{
	/* the model follows the networking tenant: a vswitch aggregates (Fig. 7a) */
	put(c, "[platform]\nmodel = %s\ninterval_ms = 1000\nllc_ways = detect\n",
	    t[0].vswitch ? "aggregation" : "slicing");
	if (e->kind == EVAL_KIND_OBSERVE)
		put(c, "ddio = observe\n");
	put(c, "ddio_ways = %u\nddio_ways_min = %u\nddio_ways_max = %u\n", ddio, ddio,
	    ddio + 2 + pick(r, 3));
	if (e->kind == EVAL_KIND_ANTAGONIST)
		put(c, "antagonists = confine\nantagonist_ways = 1\n");
	for (unsigned int i = 0; i < n; i++) {
		put(c, "\n[tenant %s]\n", t[i].name);
		if (t[i].ncpus > 1)
			put(c, "cpus = %u-%u\n", t[i].cpu0, t[i].cpu0 + t[i].ncpus - 1);
		else
			put(c, "cpus = %u\n", t[i].cpu0);
		put(c, "ways = %u\npriority = %s\n", t[i].ways, t[i].ps ? "PS" : "BE");
		if (t[i].vswitch)
			put(c, "vswitch = yes\n");
		else if (t[i].net)
			put(c, "networking = yes\n");
	}
	if (e->kind == EVAL_KIND_STORAGE)
		put(c, "\n[device 0000:3b:00.0]\nkind = storage\ntenant = %s\nddio = auto\n",
		    t[n - 1].name);
}

static void put_net(struct text *s, struct sim_rng *r, const struct gen_tenant *t, double pkt,
		    double rate)
{
	bool whole = coin(r, 0.3);

	put(s, "\n[tenant %s]\nws = %.0fK\nrpi = %.3f\ncpi = %.2f\n", t->name, t->ws / 1024,
	    uni(r, 0.005, 0.02), uni(r, 0.6, 1.0));
	put(s, "rate = %.3fM\npkt = %.0f\nbuf = 2048\nring = %u\nqueues = %u\n", rate / 1e6, pkt,
	    512u << pick(r, 4), 1u << pick(r, 3));
	put(s, "ipp = %.0f\ntouch = %s\ntx = %u\n", uni(r, 100, 500), whole ? "1500" : "64",
	    coin(r, 0.6) ? 1u : 0u);
	if (t->vswitch)
		put(s, "flows = %uK\nflow_bytes = 256\n", 1u << pick(r, 6));
}

static void put_compute(struct text *s, struct sim_rng *r, const struct gen_tenant *t, bool storage,
			bool antagonist)
{
	put(s, "\n[tenant %s]\nws = %.0fK\nrpi = %.4f\ncpi = %.2f\n", t->name, t->ws / 1024,
	    antagonist ? 0.05 : uni(r, 0.002, 0.03), uni(r, 0.6, 1.2));
	if (storage)
		put(s, "dma_rate = %.0fM\ndma_block = 128K\ndma_buffers = 64M\ndma_reread = %s\n",
		    logu(r, 100, 2000), coin(r, 0.5) ? "yes" : "no");
}

/* The events at the start of phase @p: what an operator would see change. */
static void put_phase(struct text *s, struct sim_rng *r, double at, const struct gen_tenant *t,
		      unsigned int n, char *what, size_t wlen)
{
	unsigned int k = pick(r, 3);

	if (k == 0 || n < 2) {
		double pkt = pkt_sizes[pick(r, 6)];

		put(s, "at %.0fs traffic %s pkt=%.0f rate=%.3fM\n", at, t[0].name, pkt,
		    net_rate(r, pkt) / 1e6);
		snprintf(what, wlen, "pkt %.0f", pkt);
	} else if (k == 1 && t[0].vswitch) {
		unsigned int f = 1u << pick(r, 7);

		put(s, "at %.0fs flows %s %uK\n", at, t[0].name, f);
		snprintf(what, wlen, "flows %uK", f);
	} else {
		unsigned int i = 1 + pick(r, n - 1);
		double ws = logu(r, 256 * 1024, 20 * 1024 * 1024);

		put(s, "at %.0fs workload %s ws=%.0fK\n", at, t[i].name, ws / 1024);
		snprintf(what, wlen, "%s ws %.1fM", t[i].name, ws / 1048576);
	}
}

const char *eval_kind_name(enum eval_kind k)
{
	static const char *const names[] = {"base", "observe", "two-socket", "storage",
					    "antagonist"};

	return k < EVAL_KIND_COUNT ? names[k] : "?";
}

static enum eval_kind kind_of(struct sim_rng *r)
{
	double u = sim_rng_uniform(r);

	return u < 0.6	 ? EVAL_KIND_BASE
	       : u < 0.7 ? EVAL_KIND_OBSERVE
	       : u < 0.8 ? EVAL_KIND_TWO_SOCKET
	       : u < 0.9 ? EVAL_KIND_STORAGE
			 : EVAL_KIND_ANTAGONIST;
}

/* The tenants of one socket starting at CPU @cpu: a networking tenant, then 2-5 compute. */
static unsigned int gen_tenants(struct sim_rng *r, struct gen_tenant *t, unsigned int cpu,
				const char *suffix, bool vswitch_ok)
{
	unsigned int n = 1 + 2 + pick(r, 4);

	t[0] = (struct gen_tenant){.net = true,
				   .vswitch = vswitch_ok && coin(r, 0.5),
				   .ps = coin(r, 0.5),
				   .cpu0 = cpu,
				   .ncpus = 1 + pick(r, 2),
				   .ws = logu(r, 256 * 1024, 2 * 1024 * 1024)};
	snprintf(t[0].name, sizeof(t[0].name), "%s%s", t[0].vswitch ? "vsw" : "dpdk", suffix);
	cpu += t[0].ncpus;
	for (unsigned int i = 1; i < n; i++) {
		t[i] = (struct gen_tenant){.ps = coin(r, 0.5),
					   .cpu0 = cpu++,
					   .ncpus = 1,
					   .ws = logu(r, 256 * 1024, 20 * 1024 * 1024)};
		snprintf(t[i].name, sizeof(t[i].name), "c%u%s", i, suffix);
	}
	return n;
}

int eval_gen(uint64_t seed, unsigned int index, struct eval_case *e)
{
	struct gen_tenant t[16];
	unsigned int n, nsock, per[2], ddio = 2;
	struct sim_rng r;
	struct text c, s;
	char what[EVAL_MAX_PHASES][48];
	double pkt, at = 0;

	memset(e, 0, sizeof(*e));
	e->seed = seed ^ (0x9e3779b97f4a7c15ull * (index + 1));
	e->index = index;
	sim_rng_seed(&r, e->seed);
	e->kind = kind_of(&r);
	nsock = e->kind == EVAL_KIND_TWO_SOCKET ? 2 : 1;
	/* one virtual switch per host, and its model is the whole config's */
	n = per[0] = gen_tenants(&r, t, 0, nsock > 1 ? "a" : "", nsock == 1);
	if (nsock > 1) {
		per[1] = gen_tenants(&r, t + n, 16, "b", false);
		n += per[1];
	}
	if (e->kind == EVAL_KIND_ANTAGONIST) {
		t[per[0] - 1].ps = false;
		t[per[0] - 1].ws = 64.0 * 1024 * 1024;
	}
	for (unsigned int k = 0, off = 0; k < nsock; off += per[k++])
		operator_ways(&r, t + off, per[k], ddio);

	c = (struct text){.buf = e->ini, .cap = sizeof(e->ini)};
	s = (struct text){.buf = e->scn, .cap = sizeof(e->scn)};
	put_config(&c, &r, e, t, n, ddio);

	put(&s, "[platform]\nseed = %llu\nnoise = 0\n", (unsigned long long)(e->seed % 1000000));
	if (nsock > 1)
		put(&s, "sockets = 2\ncpus_per_socket = 16\n");
	e->nphases = 2 + pick(&r, 4);
	for (unsigned int p = 0; p < e->nphases; p++) {
		e->start[p] = at;
		at += 10 + 2 * pick(&r, 6);
	}
	e->start[e->nphases] = at;
	put(&s, "duration = %.0fs\n", at);
	pkt = pkt_sizes[pick(&r, 6)];
	for (unsigned int k = 0, off = 0; k < nsock; off += per[k++]) {
		put_net(&s, &r, &t[off], pkt, net_rate(&r, pkt));
		for (unsigned int i = off + 1; i < off + per[k]; i++)
			put_compute(&s, &r, &t[i],
				    e->kind == EVAL_KIND_STORAGE && i == off + per[k] - 1,
				    e->kind == EVAL_KIND_ANTAGONIST && i == off + per[k] - 1);
	}
	if (e->kind == EVAL_KIND_STORAGE)
		put(&s, "\n[device 0000:3b:00.0]\ntenant = %s\n", t[per[0] - 1].name);
	put(&s, "\n[events]\n");
	snprintf(what[0], sizeof(what[0]), "pkt %.0f", pkt);
	for (unsigned int p = 1; p < e->nphases; p++)
		put_phase(&s, &r, e->start[p], t, per[0], what[p], sizeof(what[p]));
	snprintf(e->desc, sizeof(e->desc), "%s: %s %s %u cpus, %u compute; phases: %s",
		 eval_kind_name(e->kind), t[0].name, t[0].ps ? "PS" : "BE", t[0].ncpus, per[0] - 1,
		 what[0]);
	for (unsigned int p = 1; p < e->nphases; p++) {
		size_t l = strlen(e->desc);

		snprintf(e->desc + l, sizeof(e->desc) - l, " | %s", what[p]);
	}
	return c.over || s.over ? -ENOSPC : 0;
}
