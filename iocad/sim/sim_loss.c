// SPDX-License-Identifier: GPL-2.0
/*
 * Zero-loss throughput against the RX ring size (SIMULATOR.md, "Zero-loss
 * throughput"): a loss model for one trial and the RFC2544 search.
 */
#include "sim_loss.h"

#include <errno.h>
#include <math.h>

/* The search stops when the bracket is this narrow, relative to the line rate. */
#define RESOLUTION 1e-4
#define MAX_STEPS 64

/*
 * A trial at constant offered rate (RFC2544's generator sends evenly
 * spaced frames) loses what the cores cannot process on average, plus,
 * at the trial's longest stall, what each queue's ring cannot hold: the
 * driver holds one burst of descriptors it has not returned to the NIC,
 * about rho bursts wait when the stall starts, and the queue's share of
 * the rate arrives for the whole stall.
 */
double sim_loss_trial(const struct sim_params *p, const struct sim_loss_load *l)
{
	double rho, per_queue, held, over, lost = 0.0;

	if (!(l->rate > 0) || !l->queues)
		return 0.0;
	if (!(l->mu > 0))
		return l->rate * SIM_LOSS_TRIAL;
	if (l->rate > l->mu)
		lost += (l->rate - l->mu) * SIM_LOSS_TRIAL;
	rho = fmin(1.0, l->rate / l->mu);
	per_queue = l->rate / l->queues;
	held = fmin(l->ring, p->rx_burst);
	over = rho * p->rx_burst + per_queue * p->stall - (l->ring - held);
	if (over > 0)
		lost += over * l->queues;
	return lost;
}

/* Solve the model with tenant @i offered @rate; its loss over a trial. */
static int try_rate(const struct sim_params *p, struct sim_tenant *t, unsigned int n,
		    unsigned int i, uint32_t ddio_mask, struct sim_model_ws *ws, double rate,
		    struct sim_rates *r, double *lost, struct sim_loss_result *at)
{
	const struct sim_tenant_rates *c = &r->tenant[i];
	struct sim_loss_load l;
	int err;

	t[i].w.rate = rate;
	err = sim_model_solve(p, t, n, ddio_mask, ws, r);
	if (err)
		return err;
	l = (struct sim_loss_load){
		.rate = rate,
		.mu = c->cpp > 0 ? p->ghz * 1e9 * t[i].ncpus / c->cpp : 0.0,
		.ring = t[i].w.ring,
		.queues = t[i].w.queues,
	};
	*lost = sim_loss_trial(p, &l);
	at->rate = rate;
	at->mu = l.mu;
	at->cpp = c->cpp;
	at->miss_pp = c->pkts > 0 ? r->ddio_misses / c->pkts : 0.0;
	at->mem = r->mem_bytes;
	return 0;
}

int sim_loss_zero(const struct sim_params *p, struct sim_tenant *t, unsigned int n, unsigned int i,
		  uint32_t ddio_mask, struct sim_model_ws *ws, struct sim_loss_result *out)
{
	struct sim_rates r;
	struct sim_loss_result at = {0};
	double line, lo, hi, lost;
	unsigned int steps = 0;
	int err;

	if (!p || !t || !ws || !out || i >= n || !(t[i].w.rate > 0) || !t[i].w.ring ||
	    !t[i].w.queues || !t[i].ncpus)
		return -EINVAL;
	line = t[i].w.rate;
	*out = (struct sim_loss_result){0};
	err = try_rate(p, t, n, i, ddio_mask, ws, line, &r, &lost, &at);
	if (!err && lost < 1.0)
		*out = at;
	/* loss grows with the rate: lo loses less than a packet, hi not */
	lo = 0.0;
	hi = line;
	while (!err && lost >= 1.0 && steps < MAX_STEPS && hi - lo > RESOLUTION * line) {
		double mid = 0.5 * (lo + hi);

		steps++;
		err = try_rate(p, t, n, i, ddio_mask, ws, mid, &r, &lost, &at);
		if (err)
			break;
		if (lost < 1.0) {
			lo = mid;
			*out = at;
			lost = 1.0; /* keep narrowing */
		} else {
			hi = mid;
		}
	}
	out->steps = steps;
	t[i].w.rate = line;
	return err;
}
