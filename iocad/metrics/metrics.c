// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics registry and its one adapter from struct loop_record. Only
 * metrics_record() knows the record's layout: when the loop's record
 * changes (one per socket), this is the function to follow it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics/metrics.h"

const struct metrics_sim_figure metrics_sim_figures[METRICS_NSIM] = {
	{"_pkts_s", "ioca_sim_tenant_packets_per_second",
	 "Packets per second the simulated tenant processed in the latest interval.", 1},
	{"_drops_s", "ioca_sim_tenant_dropped_packets_per_second",
	 "Packets per second offered to the simulated tenant but dropped (rings full).", 1},
	{"_cycles_per_pkt", "ioca_sim_tenant_cycles_per_packet",
	 "The simulated tenant's cycles per processed packet in the latest interval.", 1},
	{"_lat_ns", "ioca_sim_tenant_latency_seconds",
	 "Mean latency of a reference to the simulated tenant's own data.", 1e-9},
	{"_refs_s", "ioca_sim_tenant_references_per_second",
	 "A compute tenant's references to its own data per second (X-Mem-like throughput).", 1},
};

const char *metrics_reason_name(unsigned int i)
{
	struct decide_out d = {.reason = DECIDE_R_FSM};

	if (i < DECIDE_R_FSM)
		d.reason = (enum decide_reason)i;
	else
		d.fsm_reason = (enum fsm_reason)(i - DECIDE_R_FSM);
	return decide_reason_name(&d);
}

static unsigned int reason_index(const struct decide_out *d)
{
	if (d->reason != DECIDE_R_FSM)
		return (unsigned int)d->reason < DECIDE_R_FSM ? (unsigned int)d->reason : 0;
	return (unsigned int)d->fsm_reason < FSM_NREASONS ? DECIDE_R_FSM + d->fsm_reason
							  : DECIDE_R_FSM;
}

uint64_t metrics_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int metrics_init(struct metrics *m)
{
	memset(m, 0, sizeof(*m));
	/* the first interval gets the stall time from start, as any other */
	m->progress_ns = metrics_now_ns();
	return -pthread_mutex_init(&m->lock, NULL);
}

void metrics_set_stall(struct metrics *m, uint64_t stall_ns)
{
	pthread_mutex_lock(&m->lock);
	m->stall_ns = stall_ns;
	pthread_mutex_unlock(&m->lock);
}

bool metrics_healthy(struct metrics *m, uint64_t now_ns, uint64_t *idle_ns)
{
	uint64_t idle;
	bool ok;

	pthread_mutex_lock(&m->lock);
	idle = now_ns > m->progress_ns ? now_ns - m->progress_ns : 0;
	ok = !m->stall_ns || idle <= m->stall_ns;
	pthread_mutex_unlock(&m->lock);
	if (idle_ns)
		*idle_ns = idle;
	return ok;
}

void metrics_destroy(struct metrics *m)
{
	pthread_mutex_destroy(&m->lock);
}

static int sim_slot(struct metrics_socket *s, const char *name, size_t n)
{
	unsigned int i;

	if (!n || n >= PLATFORM_NAME_LEN)
		return -2;
	for (i = 0; i < s->nsim; i++)
		if (!strncmp(s->sim_tenant[i].name, name, n) && !s->sim_tenant[i].name[n])
			return (int)i;
	if (s->nsim == PLATFORM_MAX_TENANTS)
		return -2;
	memcpy(s->sim_tenant[s->nsim].name, name, n);
	s->sim_tenant[s->nsim].name[n] = '\0';
	return (int)s->nsim++;
}

/* One header column: sim_mem_bytes_s, or sim_<tenant><suffix>. */
static struct metrics_col map_column(struct metrics_socket *s, const char *c, size_t n)
{
	struct metrics_col col = {.tenant = -2};

	if (n == 15 && !strncmp(c, "sim_mem_bytes_s", n)) {
		col.tenant = -1;
		return col;
	}
	if (n < 4 || strncmp(c, "sim_", 4))
		return col;
	for (unsigned int f = 0; f < METRICS_NSIM; f++) {
		size_t k = strlen(metrics_sim_figures[f].suffix);

		if (n > 4 + k && !strncmp(c + n - k, metrics_sim_figures[f].suffix, k)) {
			col.tenant = (short)sim_slot(s, c + 4, n - 4 - k);
			col.fig = (unsigned char)f;
			break;
		}
	}
	return col;
}

/* The platform's trace header ",a,b,..." decides which columns are ours. */
static void map_columns(struct metrics *m, unsigned int slot)
{
	struct metrics_socket *s = &m->snap.sock[slot];
	struct platform *pf = m->pf[slot];
	const char *c, *e;

	m->ncols[slot] = 0;
	if (!pf || !pf->ops->trace_columns ||
	    pf->ops->trace_columns(pf->ctx, true, m->row, sizeof(m->row)))
		return;
	for (c = m->row; *c == ',' && m->ncols[slot] < METRICS_MAX_COLS; c = e) {
		c++;
		e = c + strcspn(c, ",");
		m->col[slot][m->ncols[slot]++] = map_column(s, c, (size_t)(e - c));
	}
	s->sim = s->nsim > 0;
}

int metrics_add_socket(struct metrics *m, const struct config *cfg, struct platform *pf)
{
	struct metrics_socket *s;
	unsigned int slot;

	pthread_mutex_lock(&m->lock);
	slot = m->snap.nsockets;
	if (slot == METRICS_MAX_SOCKETS) {
		pthread_mutex_unlock(&m->lock);
		return -ENOSPC;
	}
	s = &m->snap.sock[slot];
	memset(s, 0, sizeof(*s));
	s->socket = cfg->socket;
	s->llc_ways = cfg->llc_ways;
	s->interval_ns = cfg->interval_ns;
	m->pf[slot] = pf;
	map_columns(m, slot);
	m->snap.nsockets++;
	pthread_mutex_unlock(&m->lock);
	return (int)slot;
}

/* The slot of tenant @name: its own, a free one, or one a left tenant held. */
static struct metrics_tenant *tenant_slot(struct metrics_socket *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->ntenants; i++)
		if (!strcmp(s->tenant[i].name, name))
			return &s->tenant[i];
	if (s->ntenants < PLATFORM_MAX_TENANTS)
		i = s->ntenants++;
	else
		for (i = 0; i < PLATFORM_MAX_TENANTS && s->tenant[i].present; i++)
			;
	if (i == PLATFORM_MAX_TENANTS)
		return NULL; /* cannot happen: a record has at most that many */
	/* a reused slot starts its counters over, which Prometheus reads as a reset */
	memset(&s->tenant[i], 0, sizeof(s->tenant[i]));
	memcpy(s->tenant[i].name, name, sizeof(s->tenant[i].name));
	return &s->tenant[i];
}

static void record_tenants(struct metrics_socket *s, const struct loop_record *r)
{
	for (unsigned int i = 0; i < s->ntenants; i++)
		s->tenant[i].present = false;
	for (unsigned int i = 0; i < r->ntenants; i++) {
		const struct loop_tenant_record *tr = &r->tenant[i];
		struct metrics_tenant *t = tenant_slot(s, tr->name);

		if (!t)
			continue;
		t->present = true;
		t->prio = tr->prio;
		t->ways = tr->ways;
		t->mask = tr->mask;
		t->ipc = tr->ipc;
		t->llc_refs_total += tr->llc_refs;
		t->llc_misses_total += tr->llc_misses;
	}
}

/* The values of the platform's columns for the interval just recorded. */
static void record_sim(struct metrics *m, unsigned int slot)
{
	struct metrics_socket *s = &m->snap.sock[slot];
	struct platform *pf = m->pf[slot];
	const char *c;
	char *e;

	if (!s->sim || pf->ops->trace_columns(pf->ctx, false, m->row, sizeof(m->row)))
		return;
	c = m->row;
	for (unsigned int i = 0; i < m->ncols[slot] && *c == ','; i++) {
		const struct metrics_col *col = &m->col[slot][i];
		double v = strtod(c + 1, &e);

		c = e + strcspn(e, ",");
		if (col->tenant == -1)
			s->sim_mem_bytes_s = v;
		else if (col->tenant >= 0)
			s->sim_tenant[col->tenant].v[col->fig] =
				v * metrics_sim_figures[col->fig].scale;
	}
}

void metrics_record(struct metrics *m, unsigned int slot, const struct loop_record *r)
{
	unsigned int why = reason_index(&r->decision);
	struct metrics_socket *s;

	if (slot >= METRICS_MAX_SOCKETS)
		return;
	s = &m->snap.sock[slot];
	pthread_mutex_lock(&m->lock);
	m->progress_ns = metrics_now_ns();
	s->intervals_total++;
	s->last_index = r->index;
	s->platform_time_s = (double)r->t_ns / 1e9;
	/* the first interval's start is the loop's baseline poll, not recorded */
	s->have_duration = m->prev_t_ns[slot] && r->t_ns > m->prev_t_ns[slot];
	if (s->have_duration)
		s->interval_duration_s = (double)(r->t_ns - m->prev_t_ns[slot]) / 1e9;
	m->prev_t_ns[slot] = r->t_ns;
	s->state = r->state < FSM_NSTATES ? r->state : FSM_LOW_KEEP;
	s->decisions[why]++;
	if (r->prev_state != r->state && r->prev_state < FSM_NSTATES && r->state < FSM_NSTATES)
		s->transitions[r->prev_state][r->state][why]++;
	s->ddio_ways = r->ddio_ways;
	s->ddio_mask = r->ddio_mask;
	s->ddio_hits_total += r->ddio_hits;
	s->ddio_misses_total += r->ddio_misses;
	s->lost_samples_total += r->lost_samples;
	s->apply_errors_total += r->apply_failed;
	s->ddio_outside_total += r->ddio_outside;
	record_tenants(s, r);
	s->ndev = r->ndev < PLATFORM_MAX_DEVICES ? r->ndev : PLATFORM_MAX_DEVICES;
	for (unsigned int i = 0; i < s->ndev; i++)
		s->dev[i] = (struct metrics_device){.setting = r->dev[i].setting,
						    .mode = r->dev[i].mode,
						    .refused = r->dev[i].refused};
	for (unsigned int i = 0; i < s->ndev; i++)
		memcpy(s->dev[i].addr, r->dev[i].addr, sizeof(s->dev[i].addr));
	record_sim(m, slot);
	pthread_mutex_unlock(&m->lock);
}

void metrics_status(struct metrics *m, const struct loop_status *st)
{
	struct timespec ts;
	double now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	pthread_mutex_lock(&m->lock);
	/* a loop that waits (for the sampler, a sample) still turns: not stuck */
	m->progress_ns = metrics_now_ns();
	m->snap.have_status = true;
	m->snap.waiting = st->waiting && st->waiting[0];
	m->snap.waiting_s = m->snap.waiting && st->waiting_since_ns
				    ? now - (double)st->waiting_since_ns / 1e9
				    : 0;
	m->snap.cat_waits = st->cat_waits;
	m->snap.loop_turns_total = st->turns;
	pthread_mutex_unlock(&m->lock);
}

void metrics_copy(struct metrics *m, struct metrics_snapshot *out)
{
	pthread_mutex_lock(&m->lock);
	memcpy(out, &m->snap, sizeof(*out));
	pthread_mutex_unlock(&m->lock);
}
