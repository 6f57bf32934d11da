// SPDX-License-Identifier: GPL-2.0
/*
 * Rates and occupancy depend on each other (a tenant that misses less runs
 * faster and so references more, which wins it more of a shared way), so
 * the steady state is a damped fixed-point iteration around the occupancy
 * of sim_pool.c.
 */
#include "sim_model.h"
#include "sim_device.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#define MAX_ITER 300
#define DAMP 0.5
#define CONVERGED 1e-8

/* Per-tenant quantities fixed for one solve, and the iterated state. */
struct tstate {
	bool on;
	bool nic;
	double own_lines;
	double flow_lines; /* the vswitch's flow table, a class of its own */
	double rpp;	   /* own-data references per packet */
	double fpp;	   /* flow-table references per packet */
	double frefs;	   /* flow-table references per second (iterated) */
	double lp;	   /* lines per packet written by the NIC */
	double lt;	   /* lines per packet read by the core */
	double slots;	   /* descriptors over all queues */
	double refs;	   /* own-data references per second (iterated) */
	double pkts;	   /* packets per second processed (iterated) */
	double delay;	   /* seconds a packet waits before the core reads it */
	double cpp;	   /* cycles per packet */
	double mc;	   /* probability a packet line is gone when the core reads it */
	double l2f;	   /* share of own-data references its cores' L2 serves */
	/* Where its ring's lines live (SIMULATOR.md, "Where RX lines live"), iterated: */
	double w;  /* a read line is still cached when the NIC next writes it */
	double sd; /* a line allocated in DDIO's ways survives until the core reads it */
	double sh; /* a line updated in place at home survives until the core reads it */
	double hu; /* write hit of a line the core never reads (it stays in DDIO's ways) */
};

/* The four classes of a ring's lines (SIMULATOR.md, "Where RX lines live"). */
enum { RC_UNTOUCHED, RC_ALLOC, RC_INPLACE, RC_READ, RC_N };

void sim_workload_defaults(struct sim_workload *w)
{
	memset(w, 0, sizeof(*w));
	w->active = true;
	w->ws = 1 << 20;
	w->rpi = 0.005;
	w->cpi = 0.8;
	w->pkt = 64;
	w->buf = 2048;
	w->ring = 1024;
	w->queues = 1;
	w->ipp = 300;
	w->touch = 64;
	w->flow_bytes = 256;
	w->emc_flows = 8192;
	w->flow_refs = 2;
	w->mlp = 1;
	w->dca = true;
	w->dma_block = 128 * 1024;
	w->dma_buffers = 1024.0 * 1024 * 1024;
}

static void derive(const struct sim_params *p, const struct sim_tenant *t, struct tstate *s)
{
	const struct sim_workload *w = &t->w;
	double l2 = p->l2_bytes * t->ncpus;

	memset(s, 0, sizeof(*s));
	s->on = w->active && t->ncpus > 0;
	if (!s->on)
		return;
	/* uniform access: the cores' L2 serve their share, the LLC sees the rest */
	s->l2f = l2 > 0 && w->ws > 0 ? fmin(1.0, l2 / w->ws) : 0.0;
	s->own_lines = fmax(0.0, w->ws - l2) / SIM_LINE;
	s->flow_lines = w->flows * w->flow_bytes / SIM_LINE;
	s->nic = w->rate > 0 && w->ring > 0 && w->queues > 0 && w->ipp > 0;
	if (!s->nic)
		return;
	/*
	 * A flow lookup reads one exact-match-cache line; the share of
	 * packets whose flow the cache cannot hold (emc_flows of flows) also
	 * walks the classifier, flow_refs more lines (SIMULATOR.md).
	 */
	s->rpp = w->rpi * w->ipp * (1.0 - s->l2f);
	if (s->flow_lines > 0)
		s->fpp = 1.0 + w->flow_refs * fmax(0.0, 1.0 - w->emc_flows / w->flows);
	s->lp = ceil(fmin(w->pkt, w->buf) / SIM_LINE);
	if (s->lp < 1)
		s->lp = 1;
	s->lt = fmin(s->lp, fmax(1.0, ceil(w->touch / SIM_LINE)));
	s->slots = (double)w->ring * w->queues;
	/* the first pass: every line cached */
	s->w = s->sd = s->sh = s->hu = 1.0;
}

/* Chance a line survives @gap seconds without an access, in a pool of time @t. */
static double survive_one(double t, double gap)
{
	if (gap <= 0 || isinf(t))
		return 1.0;
	if (t <= 0)
		return 0.0;
	return 1.0 - exp(-t / gap);
}

/* The same for a line placed as @m (its fills spread over groups of ways). */
static double survive(const struct sim_mix *m, double gap)
{
	double sv = 0.0;
	unsigned int g;

	for (g = 0; g < m->n; g++)
		sv += m->f[g] * survive_one(m->t[g], gap);
	return sv;
}

/*
 * The classes of @s's ring: lines and how often each is accessed, by
 * Little's law (lines = arrivals/s x the time they stay; rate = 1 / that
 * time). RC_UNTOUCHED and RC_ALLOC are in DDIO's ways, RC_INPLACE and
 * RC_READ at the read lines' home (the inclusive ways, or DDIO's).
 */
static void ring_classes(const struct tstate *s, struct sim_class c[RC_N])
{
	double rev = s->slots / s->pkts, d = fmin(s->delay, rev), lines = s->pkts * s->lt;

	c[RC_UNTOUCHED] = (struct sim_class){s->slots * (s->lp - s->lt), 1.0 / rev};
	c[RC_ALLOC] = (struct sim_class){lines * (1 - s->w) * d, d > 0 ? 1.0 / d : 0};
	c[RC_INPLACE] = (struct sim_class){lines * s->w * d, d > 0 ? 1.0 / d : 0};
	c[RC_READ] = (struct sim_class){lines * (s->w * s->sh + (1 - s->w) * s->sd) * (rev - d),
					rev > d ? 1.0 / (rev - d) : 0};
}

static bool has_ring(const struct sim_tenant *t, const struct tstate *s)
{
	return s->on && s->nic && s->pkts > 0 && t->w.dca;
}

/* Add @s's ring classes @from..@to - 1 to agent @a (its classes are contiguous). */
static struct sim_class *add_ring(const struct tstate *s, struct sim_class *c, struct sim_agent *a,
				  int from, int to)
{
	struct sim_class rc[RC_N];
	int k;

	ring_classes(s, rc);
	for (k = from; k < to; k++) {
		if (!(rc[k].lines > 0) || !(rc[k].rate > 0))
			continue;
		*c++ = rc[k];
		a->nclass++;
	}
	return c;
}

/*
 * Agents 0..n-1 are the tenants, n is DDIO, n+1 (with the inclusive ways)
 * the read DCA lines; returns how many.
 */
static unsigned int build_agents(const struct sim_params *p, const struct sim_tenant *t,
				 unsigned int n, uint32_t ddio_mask, const struct tstate *s,
				 struct sim_model_ws *ws)
{
	struct sim_class *c = ws->cls;
	struct sim_agent *ddio = &ws->agent[n];
	struct sim_agent *incl = &ws->agent[n + 1];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct sim_agent *a = &ws->agent[i];

		a->mask = t[i].mask;
		a->cls = c;
		a->nclass = 0;
		if (!s[i].on)
			continue;
		if (s[i].own_lines > 0 && s[i].refs > 0) {
			c->lines = s[i].own_lines;
			c->rate = s[i].refs / s[i].own_lines;
			c++;
			a->nclass++;
		}
		if (s[i].flow_lines > 0 && s[i].frefs > 0) {
			c->lines = s[i].flow_lines;
			c->rate = s[i].frefs / s[i].flow_lines;
			c++;
			a->nclass++;
		}
	}
	ddio->mask = ddio_mask;
	ddio->cls = c;
	ddio->nclass = 0;
	for (i = 0; i < n; i++) {
		if (!has_ring(&t[i], &s[i]))
			continue;
		/* without inclusive ways, read lines stay in DDIO's ways */
		c = add_ring(&s[i], c, ddio, RC_UNTOUCHED, p->incl_mask ? RC_INPLACE : RC_N);
	}
	/* storage devices' writes: DDIO's too (sim_device.c) */
	for (i = 0; i < n; i++)
		if (s[i].on && sim_device_class(&t[i], c)) {
			c++;
			ddio->nclass++;
		}
	if (!p->incl_mask)
		return n + 1;
	incl->mask = p->incl_mask;
	incl->cls = c;
	incl->nclass = 0;
	for (i = 0; i < n; i++)
		if (has_ring(&t[i], &s[i]))
			c = add_ring(&s[i], c, incl, RC_INPLACE, RC_N);
	return n + 2;
}

/*
 * Where @s's ring lines are, from the pool's times in DDIO's ways and at
 * the read lines' home; returns the relative change of w. A line the core
 * reads is written by the NIC once a revolution R: it hits wherever it
 * still is (in place), else is allocated in DDIO's ways; the core reads it
 * d later (in place: at home; allocated: from DDIO's ways, moving it home)
 * or finds it gone; it must then survive R - d at home.
 */
static double ring_update(struct tstate *s, const struct sim_mix *t_ddio,
			  const struct sim_mix *t_home, double damp)
{
	double rev, d, shr, w, den;

	if (s->pkts <= 0)
		return 0.0;
	rev = s->slots / s->pkts;
	d = fmin(s->delay, rev);
	s->sd = survive(t_ddio, d);
	s->sh = survive(t_home, d);
	s->hu = survive(t_ddio, rev);
	shr = survive(t_home, rev - d);
	/* w = w * sh * shr + (1 - w) * sd * shr, solved for w */
	den = 1 - s->sh * shr + s->sd * shr;
	w = den > 0 ? s->sd * shr / den : 1.0;
	s->mc = w * (1 - s->sh) + (1 - w) * (1 - s->sd);
	den = fabs(w - s->w);
	s->w = damp * s->w + (1 - damp) * w;
	return den;
}

/* DDIO write hit ratio of a consumer's RX buffers (SIMULATOR.md). */
static double ring_hit(const struct sim_tenant *t, const struct tstate *s)
{
	if (!t->w.dca)
		return 0.0;
	if (s->pkts <= 0)
		return 1.0;
	return ((s->lp - s->lt) * s->hu + s->lt * s->w) / s->lp;
}

/* New rates for tenant @i from the pool's times; returns the relative change. */
static double update(const struct sim_params *p, const struct sim_tenant *t, struct tstate *s,
		     const struct sim_mix *t_own, const struct sim_mix *t_ddio,
		     const struct sim_mix *t_home, double damp)
{
	const struct sim_workload *w = &t->w;
	double f = p->ghz * 1e9 * t->ncpus;
	double h, hf, refs, pkts, cpp, change;

	h = s->own_lines > 0 ? sim_mix_hit(t_own, s->refs / s->own_lines) : 1.0;
	if (s->refs <= 0 && s->own_lines > 0)
		h = 1.0; /* nothing referenced yet: the first pass assumes hits */
	if (!s->nic) {
		double rpi = w->rpi * (1 - s->l2f);

		refs = rpi * f / (w->cpi + rpi * (1 - h) * p->miss_penalty / w->mlp);
		change = fabs(refs - s->refs) / fmax(refs, 1.0);
		s->refs = damp * s->refs + (1 - damp) * refs;
		return change;
	}
	/* without DCA the NIC writes to DRAM and every line the core reads misses */
	change = w->dca ? ring_update(s, t_ddio, t_home, damp) : 0.0;
	if (!w->dca)
		s->mc = 1.0;
	hf = s->flow_lines > 0 && s->frefs > 0 ? sim_mix_hit(t_own, s->frefs / s->flow_lines) : 1.0;
	cpp = w->ipp * w->cpi +
	      (s->rpp * (1 - h) + s->fpp * (1 - hf) + s->lt * s->mc) * p->miss_penalty / w->mlp +
	      (w->dca ? s->lp * (1 - ring_hit(t, s)) * p->leak_cycles : 0.0);
	change = fmax(change, fabs(cpp - s->cpp) / cpp);
	s->cpp = cpp;
	pkts = fmin(w->rate, f / s->cpp);
	change = fmax(change, fabs(pkts - s->pkts) / fmax(pkts, 1.0));
	s->pkts = damp * s->pkts + (1 - damp) * pkts;
	s->refs = s->pkts * s->rpp;
	s->frefs = s->pkts * s->fpp;
	{
		double mu = f / s->cpp, rho = w->rate / mu;
		double rev = s->slots / s->pkts;

		/* M/D/1 sojourn while the core keeps up; a full ring otherwise. */
		s->delay = rho < 1 ? (1 + rho / (2 * (1 - rho))) / mu : rev;
		s->delay = fmin(s->delay, rev);
	}
	return change;
}

/* Shares of @s's ring lines in DDIO's ways, the inclusive ways, and gone. */
static void ring_shares(const struct sim_params *p, const struct sim_tenant *t,
			const struct tstate *s, const struct sim_mix *t_ddio,
			const struct sim_mix *t_home, struct sim_tenant_rates *r)
{
	struct sim_class rc[RC_N];
	double all = s->slots * s->lp, at[RC_N];
	int k;

	r->ring_ddio = r->ring_incl = 0.0;
	r->ring_gone = 1.0;
	if (!has_ring(t, s) || !(all > 0))
		return;
	ring_classes(s, rc);
	for (k = 0; k < RC_N; k++)
		at[k] = rc[k].rate > 0 ? rc[k].lines * sim_mix_hit(k < RC_INPLACE ? t_ddio : t_home,
								   rc[k].rate)
				       : 0.0;
	r->ring_ddio = (at[RC_UNTOUCHED] + at[RC_ALLOC]) / all;
	if (p->incl_mask)
		r->ring_incl = (at[RC_INPLACE] + at[RC_READ]) / all;
	else
		r->ring_ddio += (at[RC_INPLACE] + at[RC_READ]) / all;
	r->ring_gone = fmax(0.0, 1.0 - r->ring_ddio - r->ring_incl);
}

/*
 * The NIC's TX reads of the packets @t sends back out (SIMULATOR.md, "TX
 * reads"): every line of a packet, right after the core processed it,
 * d after the NIC wrote it. The lines the core read are in its caches;
 * the unread payload is in DDIO's ways if it survived d there (with DCA;
 * in DRAM without), else read from DRAM. The read allocates nothing and
 * leaves LRU as it is.
 */
static void tx_lines(const struct sim_tenant *t, const struct tstate *s, struct sim_tenant_rates *r)
{
	double share = fmin(1.0, fmax(0.0, t->w.tx)), cached = t->w.dca ? s->sd : 0.0;

	r->tx_reads = s->pkts * share * s->lp;
	r->tx_misses = s->pkts * share * (s->lp - s->lt) * (1 - cached);
}

static void fill_out(const struct sim_params *p, const struct sim_tenant *t, unsigned int n,
		     const struct tstate *s, const struct sim_model_ws *ws, struct sim_rates *out)
{
	const struct sim_mix *t_ddio = &ws->pool.mix[n];
	const struct sim_mix *t_home = p->incl_mask ? &ws->pool.mix[n + 1] : t_ddio;
	unsigned int i;

	out->ntenants = n;
	out->ddio_occ = ws->pool.occ[n] * SIM_LINE;
	out->incl_occ = p->incl_mask ? ws->pool.occ[n + 1] * SIM_LINE : 0.0;
	for (i = 0; i < n; i++) {
		struct sim_tenant_rates *r = &out->tenant[i];
		double f = p->ghz * 1e9 * t[i].ncpus;
		const struct sim_mix *t_own = &ws->pool.mix[i];
		double h;

		r->t_char = ws->pool.t[i];
		r->occ = ws->pool.occ[i] * SIM_LINE;
		if (!s[i].on)
			continue;
		h = s[i].own_lines > 0 && s[i].refs > 0
			    ? sim_mix_hit(t_own, s[i].refs / s[i].own_lines)
			    : 1.0;
		r->hit_own = h;
		r->lat_ns = (s[i].l2f * p->l2_latency +
			     (1 - s[i].l2f) * (p->llc_latency + (1 - h) * p->miss_penalty)) /
			    p->ghz;
		if (!s[i].nic) {
			double rpi = t[i].w.rpi * (1 - s[i].l2f);

			r->cycles = f;
			r->instructions =
				f / (t[i].w.cpi + rpi * (1 - h) * p->miss_penalty / t[i].w.mlp);
			r->llc_refs = r->instructions * rpi;
			r->llc_misses = r->llc_refs * (1 - h);
			continue;
		}
		{
			double wh = ring_hit(&t[i], &s[i]);
			double lines = s[i].pkts * s[i].lp;

			r->pkts = s[i].pkts;
			r->drops = t[i].w.rate - s[i].pkts;
			r->cycles = s[i].pkts * s[i].cpp;
			r->instructions = s[i].pkts * t[i].w.ipp;
			double hf = s[i].flow_lines > 0 && s[i].frefs > 0
					    ? sim_mix_hit(t_own, s[i].frefs / s[i].flow_lines)
					    : 1.0;

			r->llc_refs = s[i].pkts * (s[i].rpp + s[i].fpp + s[i].lt);
			r->llc_misses = s[i].pkts * (s[i].rpp * (1 - h) + s[i].fpp * (1 - hf) +
						     s[i].lt * s[i].mc);
			tx_lines(&t[i], &s[i], r);
			out->tx_reads += r->tx_reads;
			out->tx_misses += r->tx_misses;
			r->ring_hit = wh;
			r->ring_mc = s[i].mc;
			r->cpp = s[i].cpp;
			ring_shares(p, &t[i], &s[i], t_ddio, t_home, r);
			out->ddio_hits += lines * wh;
			out->ddio_misses += lines * (1 - wh);
		}
	}
	for (i = 0; i < n; i++)
		if (s[i].on)
			sim_device_rates(&t[i], t_ddio, &out->tenant[i], out);
	for (i = 0; i < n; i++)
		out->mem_bytes += out->tenant[i].llc_misses * SIM_LINE;
	out->mem_bytes += (out->ddio_misses + out->tx_misses) * SIM_LINE;
}

/*
 * Cycles a miss costs when the socket's DRAM carries @bytes per second: the
 * loaded-latency curve of SIMULATOR.md, "Memory bandwidth".
 */
static double loaded_penalty(const struct sim_params *p, double bytes, double *util)
{
	double u;

	*util = 0.0;
	if (!(p->mem_bw > 0))
		return p->miss_penalty;
	*util = bytes / p->mem_bw;
	u = fmin(*util, SIM_MEM_U_MAX);
	return p->miss_penalty * (1 + p->mem_slope * u / (1 - u));
}

/* Where read DCA lines live: the inclusive ways, else DDIO's. */
static const struct sim_mix *t_home(const struct sim_params *p, const struct sim_model_ws *ws,
				    unsigned int n)
{
	return p->incl_mask ? &ws->pool.mix[n + 1] : &ws->pool.mix[n];
}

static int check_args(const struct sim_params *p, const struct sim_tenant *t, unsigned int n)
{
	unsigned int i;

	if (!p || (!t && n) || n > PLATFORM_MAX_TENANTS)
		return -EINVAL;
	if (p->ways == 0 || p->ways > SIM_POOL_MAX_WAYS || !(p->way_bytes >= SIM_LINE) ||
	    !(p->miss_penalty >= 0) || !(p->ghz > 0) ||
	    (p->ways < 32 && (p->incl_mask >> p->ways)) || !(p->leak_cycles >= 0) ||
	    !(p->l2_bytes >= 0) || !(p->mem_bw >= 0) || !(p->mem_slope >= 0) || !(p->stall >= 0) ||
	    !(p->rx_burst >= 0))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		const struct sim_workload *w = &t[i].w;

		if (!(w->cpi > 0) || !(w->rpi >= 0) || !(w->ws >= 0) || !(w->rate >= 0) ||
		    !(w->pkt > 0) || !(w->buf > 0) || !(w->flows >= 0) || !(w->flow_bytes >= 0) ||
		    !(w->mlp >= 1) || !(w->tx >= 0 && w->tx <= 1))
			return -EINVAL;
	}
	return 0;
}

int sim_model_solve(const struct sim_params *p, const struct sim_tenant *t, unsigned int n,
		    uint32_t ddio_mask, struct sim_model_ws *ws, struct sim_rates *out)
{
	struct tstate s[PLATFORM_MAX_TENANTS];
	/* @q is @p with the miss penalty at the current memory load. */
	struct sim_params q;
	struct sim_mix all;
	unsigned int i, it;
	double util = 0.0;
	int err;

	err = check_args(p, t, n);
	if (err)
		return err;
	q = *p;
	memset(out, 0, sizeof(*out));
	sim_mix_one(&all, INFINITY);
	for (i = 0; i < n; i++) {
		derive(&q, &t[i], &s[i]);
		/* Start from "everything hits": one pass then sees real misses. */
		if (s[i].on)
			update(&q, &t[i], &s[i], &all, &all, &all, 0.0);
	}
	for (it = 0; it < MAX_ITER; it++) {
		double worst = 0.0, pen;
		unsigned int na = build_agents(&q, t, n, ddio_mask, s, ws);

		err = sim_pool_solve(&ws->pool, ws->agent, na, q.ways, q.way_bytes / SIM_LINE);
		if (err)
			return err;
		for (i = 0; i < n; i++)
			if (s[i].on)
				worst = fmax(worst,
					     update(&q, &t[i], &s[i], &ws->pool.mix[i],
						    &ws->pool.mix[n], t_home(&q, ws, n), DAMP));
		/* The traffic these rates make sets the next round's penalty. */
		memset(out, 0, sizeof(*out));
		fill_out(&q, t, n, s, ws, out);
		pen = loaded_penalty(p, out->mem_bytes, &util);
		if (q.miss_penalty > 0)
			worst = fmax(worst, fabs(pen - q.miss_penalty) / q.miss_penalty);
		q.miss_penalty = DAMP * q.miss_penalty + (1 - DAMP) * pen;
		if (worst < CONVERGED)
			break;
	}
	err = sim_pool_solve(&ws->pool, ws->agent, build_agents(&q, t, n, ddio_mask, s, ws), q.ways,
			     q.way_bytes / SIM_LINE);
	if (err)
		return err;
	memset(out, 0, sizeof(*out));
	fill_out(&q, t, n, s, ws, out);
	loaded_penalty(p, out->mem_bytes, &util);
	out->mem_util = util;
	out->penalty = q.miss_penalty;
	out->iterations = it;
	return 0;
}
