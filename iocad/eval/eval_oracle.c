// SPDX-License-Identifier: GPL-2.0
#include "eval/eval_oracle.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

/* BE tenants count, but a PS tenant's IPC is worth four of theirs. */
#define W_PS 1.0
#define W_BE 0.25

struct search {
	const struct eval_view *v;
	const struct eval_oracle_opts *o;
	struct sim_model_ws ws;
	struct sim_tenant t[EVAL_MAX_TENANTS];
	uint32_t ddio[EVAL_MAX_SOCKETS];
	/* the reference each tenant's score is taken against (static's) */
	double ref_ipc[EVAL_MAX_TENANTS], ref_pkts[EVAL_MAX_TENANTS];
	double ipc[EVAL_MAX_TENANTS], pkts[EVAL_MAX_TENANTS], mem[EVAL_MAX_SOCKETS];
	unsigned int solves;
};

/* Solve socket @s with the current masks; per-tenant figures into @sr. */
static int solve_socket(struct search *sr, unsigned int s)
{
	struct sim_tenant sub[EVAL_MAX_TENANTS];
	unsigned int map[EVAL_MAX_TENANTS], k = 0;
	static struct sim_rates r;
	int err;

	for (unsigned int i = 0; i < sr->v->n; i++)
		if (sr->v->socket[i] == s) {
			sub[k] = sr->t[i];
			map[k++] = i;
		}
	if (!k)
		return 0;
	err = sim_model_solve(&sr->v->params, sub, k, sr->ddio[s], &sr->ws, &r);
	sr->solves++;
	if (err)
		return err;
	for (unsigned int j = 0; j < k; j++) {
		const struct sim_tenant_rates *tr = &r.tenant[j];

		sr->ipc[map[j]] = tr->cycles > 0 ? tr->instructions / tr->cycles : 0;
		sr->pkts[map[j]] = tr->pkts;
	}
	sr->mem[s] = r.mem_bytes;
	return 0;
}

static double score(const struct search *sr, unsigned int s)
{
	double j = 0;

	for (unsigned int i = 0; i < sr->v->n; i++) {
		double w = sr->o->ps[i] ? W_PS : W_BE;

		if (sr->v->socket[i] != s || !sr->v->t[i].w.active)
			continue;
		if (sr->ipc[i] <= 0 || sr->ref_ipc[i] <= 0)
			return -INFINITY;
		j += w * log(sr->ipc[i] / sr->ref_ipc[i]);
		if (sr->o->net[i] && sr->ref_pkts[i] > 0)
			j += w * log(fmax(sr->pkts[i], 1) / sr->ref_pkts[i]);
	}
	return j;
}

static unsigned int nsockets(const struct eval_view *v)
{
	unsigned int n = 1;

	for (unsigned int i = 0; i < v->n; i++)
		if (v->socket[i] + 1 > n)
			n = v->socket[i] + 1;
	return n;
}

/* One contiguous mask of @len ways at @at. */
static uint32_t run_mask(unsigned int at, unsigned int len)
{
	return (uint32_t)(((1ull << len) - 1) << at);
}

/* Try @mask in @slot; keep it if the score improves on *@best. */
static bool try_mask(struct search *sr, unsigned int s, uint32_t *slot, uint32_t mask, double *best)
{
	uint32_t keep = *slot;
	double j;

	if (mask == keep || !mask)
		return false;
	*slot = mask;
	if (!solve_socket(sr, s)) {
		j = score(sr, s);
		if (j > *best + 1e-9) {
			*best = j;
			return true;
		}
	}
	*slot = keep;
	return false;
}

/*
 * The moves of one variable (a tenant's mask, or DDIO's when @var == n):
 * shift by a way, grow or shrink at either end, or jump to either end of
 * the cache. Each contiguous layout is reachable from any other by such
 * moves; trying them all would cost 66 solves a variable on 11 ways, these
 * cost at most 8.
 */
static bool move_one(struct search *sr, unsigned int s, unsigned int var, double *best)
{
	const unsigned int W = sr->v->params.ways, n = sr->v->n;
	bool is_ddio = var == n, moved = false;
	uint32_t *slot = is_ddio ? &sr->ddio[s] : &sr->t[var].mask;
	unsigned int lo = is_ddio ? sr->o->ddio_min : 1, hi = is_ddio ? sr->o->ddio_max : W;
	unsigned int at = (unsigned int)__builtin_ctz(*slot),
		     len = (unsigned int)__builtin_popcount(*slot);
	struct {
		int at, len;
	} mv[] = {
		{(int)at - 1, (int)len}, {(int)at + 1, (int)len},      {(int)at - 1, (int)len + 1},
		{(int)at, (int)len + 1}, {(int)at + 1, (int)len - 1},  {(int)at, (int)len - 1},
		{0, (int)len},		 {(int)W - (int)len, (int)len}};

	for (size_t k = 0; k < sizeof(mv) / sizeof(mv[0]); k++) {
		if (mv[k].at < 0 || mv[k].len < (int)lo || mv[k].len > (int)hi ||
		    mv[k].at + mv[k].len > (int)W)
			continue;
		if (try_mask(sr, s, slot, run_mask((unsigned int)mv[k].at, (unsigned int)mv[k].len),
			     best)) {
			moved = true;
			/* the slot moved: the other moves are relative to where it was */
			break;
		}
	}
	return moved;
}

/* Exchange two tenants' masks: what moving one past the other by steps cannot find. */
static bool swap_two(struct search *sr, unsigned int s, unsigned int a, unsigned int b,
		     double *best)
{
	uint32_t ma = sr->t[a].mask, mb = sr->t[b].mask;
	double j;

	if (ma == mb)
		return false;
	sr->t[a].mask = mb;
	sr->t[b].mask = ma;
	if (!solve_socket(sr, s)) {
		j = score(sr, s);
		if (j > *best + 1e-9) {
			*best = j;
			return true;
		}
	}
	sr->t[a].mask = ma;
	sr->t[b].mask = mb;
	return false;
}

static bool on(const struct search *sr, unsigned int s, unsigned int i)
{
	return sr->v->socket[i] == s && sr->v->t[i].w.active;
}

/* Hill-climb on socket @s until no move improves (bounded). */
static double descend(struct search *sr, unsigned int s)
{
	const unsigned int n = sr->v->n;
	double cur;

	if (solve_socket(sr, s))
		return -INFINITY;
	cur = score(sr, s);
	for (int round = 0; round < 40; round++) {
		bool moved = false;

		for (unsigned int i = 0; i <= n; i++) {
			if (i < n ? !on(sr, s, i) : sr->o->ddio_fixed)
				continue;
			moved |= move_one(sr, s, i, &cur);
		}
		for (unsigned int a = 0; a < n; a++)
			for (unsigned int b = a + 1; b < n; b++)
				if (on(sr, s, a) && on(sr, s, b))
					moved |= swap_two(sr, s, a, b, &cur);
		if (!moved)
			break;
	}
	solve_socket(sr, s);
	return cur;
}

int eval_oracle(const struct eval_view *v, const struct eval_oracle_opts *o,
		struct eval_oracle_out *out)
{
	static struct search sr;
	unsigned int ns = nsockets(v);

	if (!v->valid || v->n > EVAL_MAX_TENANTS || ns > EVAL_MAX_SOCKETS)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	sr.v = v;
	sr.o = o;
	sr.solves = 0;
	memcpy(sr.t, v->t, sizeof(sr.t));
	memcpy(sr.ddio, v->ddio, sizeof(sr.ddio));
	for (unsigned int s = 0; s < ns; s++)
		if (solve_socket(&sr, s))
			return -EINVAL;
	memcpy(sr.ref_ipc, sr.ipc, sizeof(sr.ipc));
	memcpy(sr.ref_pkts, sr.pkts, sizeof(sr.pkts));
	for (unsigned int s = 0; s < ns; s++) {
		struct sim_tenant keep_t[EVAL_MAX_TENANTS];
		uint32_t keep_d = 0;
		double a = descend(&sr, s), b = -INFINITY;

		memcpy(keep_t, sr.t, sizeof(keep_t));
		keep_d = sr.ddio[s];
		if (o->start2) {
			for (unsigned int i = 0; i < v->n; i++)
				if (v->socket[i] == s && o->start2[i])
					sr.t[i].mask = o->start2[i];
			if (!o->ddio_fixed && o->start2_ddio && o->start2_ddio[s])
				sr.ddio[s] = o->start2_ddio[s];
			b = descend(&sr, s);
		}
		if (!(b > a)) {
			memcpy(sr.t, keep_t, sizeof(keep_t));
			sr.ddio[s] = keep_d;
		}
		solve_socket(&sr, s);
	}
	for (unsigned int i = 0; i < v->n; i++) {
		out->ipc[i] = sr.ipc[i];
		out->pkts[i] = sr.pkts[i];
		out->mask[i] = sr.t[i].mask;
	}
	for (unsigned int s = 0; s < ns; s++) {
		out->ddio[s] = sr.ddio[s];
		out->mem += sr.mem[s];
	}
	out->solves = sr.solves;
	return 0;
}
