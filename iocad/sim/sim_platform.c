// SPDX-License-Identifier: GPL-2.0
#include "sim_platform.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "sim_bind.h"
#include "sim_device.h"
#include "sim_figures.h"
#include "sim_keys.h"
#include "sim_l2.h"
#include "sim_plan.h"
#include "sim_rng.h"
#include "sim_socket.h"
#include "ways.h"

#define DEFAULT_INTERVAL_NS 1000000000ULL

struct sim_cpu_acc {
	double instructions, cycles, llc_refs, llc_misses;
	double l2_refs, l2_misses; /* sim_l2.c */
};

struct sim_ctx {
	struct scenario *scn;
	struct sim_bind bind;
	struct sim_params params;
	struct sim_rng rng;
	double noise;
	uint64_t interval_ns;
	uint64_t now_ns;
	uint64_t seq;
	unsigned int next_event;
	uint32_t ddio_mask[PLATFORM_MAX_SOCKETS];
	uint32_t ddio_open[PLATFORM_MAX_SOCKETS]; /* what open() found, for restore() */
	struct sim_sockets sock;
	uint32_t all_ways;
	struct sim_tenant t[PLATFORM_MAX_TENANTS];
	bool dirty;	/* masks or workloads changed since the last solve */
	bool replanned; /* apply() changed masks: the next solve starts a warm-up */
	struct sim_warmup warm;
	bool polled;
	struct sim_rates rates;
	struct sim_model_ws ws;
	/* Cumulative counters, as doubles so rounding never drifts. */
	struct sim_cpu_acc acc[PLATFORM_MAX_CPUS];
	double ddio_hits[PLATFORM_MAX_SOCKETS], ddio_misses[PLATFORM_MAX_SOCKETS];
	volatile sig_atomic_t *reload;
	void (*reload_cb)(void *arg, const char *path);
	void *reload_arg;
	struct sim_device_state dev;		 /* storage devices' DDIO switches and writes */
	struct sim_figures fig;			 /* the interval's, for the trace */
	const char *names[PLATFORM_MAX_TENANTS]; /* sim_platform_view() */
	char reload_path[2 * SCENARIO_PATH_LEN];
	char err[2 * SCENARIO_PATH_LEN]; /* what the last failing call was about */
};

static const struct platform_ops sim_ops;

static int sim_info(void *c, struct platform_info *out)
{
	struct sim_ctx *x = c;

	memset(out, 0, sizeof(*out));
	out->ncpus = x->bind.ncpus;
	out->l2_counters = x->params.l2_bytes > 0; /* sim_l2.c */
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++)
		out->cpu_socket[c] =
			c < x->bind.ncpus ? (int)sim_socket_of_cpu(x->scn, c) : PLATFORM_CPU_ABSENT;
	for (unsigned int k = 0; k < x->sock.n; k++) {
		out->socket[k].present = true;
		out->socket[k].llc_ways = x->params.ways;
		out->socket[k].ddio_mask = x->ddio_mask[k];
		out->socket[k].ddio_boot_mask = x->ddio_open[k];
		out->socket[k].ddio_counters = true;
	}
	return 0;
}

static void reload_event(struct sim_ctx *x, const struct scenario_event *ev)
{
	sim_plan_path(x->scn, ev->path, x->reload_path, sizeof(x->reload_path));
	if (x->reload_cb)
		x->reload_cb(x->reload_arg, x->reload_path);
	if (x->reload)
		*x->reload = 1;
}

static void run_event(struct sim_ctx *x, const struct scenario_event *ev)
{
	bool own = ev->kind != SCN_EV_DDIO && ev->kind != SCN_EV_RELOAD;
	struct sim_workload *w = own ? &x->t[ev->tenant].w : NULL;
	unsigned int k;

	switch (ev->kind) {
	case SCN_EV_SET:
		for (k = 0; k < ev->nset; k++)
			sim_keys_apply(w, &ev->set[k]);
		break;
	case SCN_EV_JOIN:
		w->active = true;
		break;
	case SCN_EV_LEAVE:
		w->active = false;
		break;
	case SCN_EV_DDIO:
		x->ddio_mask[ev->socket] = ev->mask;
		break;
	case SCN_EV_RELOAD:
		reload_event(x, ev);
		return;
	}
	x->dirty = true;
}

/* A multiplicative noise factor, never negative. */
static double jitter(struct sim_ctx *x)
{
	if (x->noise <= 0)
		return 1.0;
	return fmax(0.0, 1.0 + x->noise * sim_rng_normal(&x->rng));
}

static void add_rates(struct sim_ctx *x, unsigned int i, const struct sim_tenant_rates *r,
		      double dt, struct sim_cpu_acc *d)
{
	unsigned int n = x->bind.tenant_ncpus[i];

	sim_figures_add(&x->fig, i, r, &x->t[i].w, dt);
	for (unsigned int c = 0; c < n; c++) {
		struct sim_cpu_acc *a = &d[x->bind.cpu[i][c]];

		a->instructions += r->instructions * dt / n;
		a->cycles += r->cycles * dt / n;
		a->llc_refs += r->llc_refs * dt / n;
		a->llc_misses += r->llc_misses * dt / n;
		a->l2_refs += sim_l2_refs(&x->params, &x->t[i], r) * dt / n;
		a->l2_misses += sim_l2_misses(r) * dt / n;
	}
}

/* Add [at, at + dt) of the current rates to the interval's deltas. */
static void integrate(struct sim_ctx *x, uint64_t at, double dt, struct sim_cpu_acc *d,
		      double *hits, double *misses)
{
	for (unsigned int i = 0; i < x->scn->ntenants; i++) {
		double cold = sim_warmup_cold(&x->warm, i, at, dt);

		if (cold > 0)
			add_rates(x, i, &x->warm.before[i], cold, d);
		add_rates(x, i, &x->rates.tenant[i], dt - cold, d);
	}
	for (unsigned int k = 0; k < x->sock.n; k++) {
		hits[k] += x->sock.rates[k].ddio_hits * dt;
		misses[k] += x->sock.rates[k].ddio_misses * dt;
	}
	sim_device_integrate(&x->scn->dev, &x->dev, &x->rates, dt);
	sim_figures_socket(&x->fig, &x->rates, dt);
}

static int advance(struct sim_ctx *x, uint64_t end_ns, struct sim_cpu_acc *d, double *hits,
		   double *misses)
{
	const struct scenario *s = x->scn;
	uint64_t at = x->now_ns;
	int err;

	while (at < end_ns) {
		uint64_t seg_end = end_ns;

		while (x->next_event < s->nevents && s->events[x->next_event].t_ns <= at)
			run_event(x, &s->events[x->next_event++]);
		if (x->next_event < s->nevents && s->events[x->next_event].t_ns < seg_end)
			seg_end = s->events[x->next_event].t_ns;
		if (x->dirty) {
			struct sim_rates old = x->rates;

			err = sim_sockets_solve(&x->sock, &x->params, x->t, s->ntenants,
						x->ddio_mask, &x->ws, &x->rates);
			if (err)
				return err;
			x->dirty = false;
			if (x->replanned && x->polled)
				sim_warmup_start(&x->warm, &old, &x->rates, s->ntenants, at);
			x->replanned = false;
		}
		integrate(x, at, (double)(seg_end - at) / 1e9, d, hits, misses);
		at = seg_end;
	}
	return 0;
}

static int sim_poll(void *c, struct platform_sample *out)
{
	struct sim_ctx *x = c;
	struct sim_cpu_acc d[PLATFORM_MAX_CPUS];
	double hits[PLATFORM_MAX_SOCKETS] = {0}, misses[PLATFORM_MAX_SOCKETS] = {0};
	unsigned int i;
	int err;

	if (x->now_ns + x->interval_ns > x->scn->duration_ns)
		return PLATFORM_END;
	memset(d, 0, sizeof(d));
	memset(&x->fig, 0, sizeof(x->fig));
	err = advance(x, x->now_ns + x->interval_ns, d, hits, misses);
	if (err)
		return err;
	x->now_ns += x->interval_ns;
	x->polled = true;
	memset(out, 0, sizeof(*out));
	out->seq = ++x->seq;
	out->t_ns = x->now_ns;
	out->ncpus = x->bind.ncpus;
	for (i = 0; i < x->bind.ncpus; i++) {
		struct sim_cpu_acc *a = &x->acc[i];
		double refs = d[i].llc_refs * jitter(x);
		double ratio = d[i].llc_refs > 0 ? d[i].llc_misses / d[i].llc_refs : 0;

		a->instructions += d[i].instructions * jitter(x);
		a->cycles += d[i].cycles;
		a->llc_refs += refs;
		a->llc_misses += fmin(refs, refs * ratio * jitter(x));
		out->cpu[i].online = true;
		out->cpu[i].instructions = (uint64_t)a->instructions;
		out->cpu[i].cycles = (uint64_t)a->cycles;
		out->cpu[i].llc_refs = (uint64_t)a->llc_refs;
		out->cpu[i].llc_misses = (uint64_t)a->llc_misses;
		/* no noise: the L2's counts only feed the antagonist verdict */
		a->l2_refs += d[i].l2_refs;
		a->l2_misses += d[i].l2_misses;
		out->cpu[i].l2_refs = (uint64_t)a->l2_refs;
		out->cpu[i].l2_misses = (uint64_t)a->l2_misses;
	}
	for (unsigned int k = 0; k < x->sock.n; k++) {
		x->ddio_hits[k] += hits[k] * jitter(x);
		x->ddio_misses[k] += misses[k] * jitter(x);
		out->socket[k].ddio_hits = (uint64_t)x->ddio_hits[k];
		out->socket[k].ddio_misses = (uint64_t)x->ddio_misses[k];
		out->socket[k].ddio_mask = x->ddio_mask[k];
	}
	return 0;
}

static int sim_check(void *c, const struct platform_plan *plan)
{
	struct sim_ctx *x = c;
	uint32_t mask[PLATFORM_MAX_TENANTS], ddio[PLATFORM_MAX_SOCKETS];

	memcpy(ddio, x->ddio_mask, sizeof(ddio));
	return sim_plan_check(x->scn, &x->bind, &x->sock, x->params.ways, plan, x->all_ways, mask,
			      ddio, NULL, x->err, sizeof(x->err));
}

static int sim_apply(void *c, const struct platform_plan *plan)
{
	struct sim_ctx *x = c;
	uint32_t mask[PLATFORM_MAX_TENANTS], ddio[PLATFORM_MAX_SOCKETS];
	const struct platform_group *late[PLATFORM_MAX_TENANTS];
	int r;

	/* the simulator always samples every tenant's CPUs */
	if (plan && plan->sample_only)
		return 0;
	/* a socket iocad does not plan keeps what it has */
	memcpy(ddio, x->ddio_mask, sizeof(ddio));
	r = sim_plan_check(x->scn, &x->bind, &x->sock, x->params.ways, plan, x->all_ways, mask,
			   ddio, late, x->err, sizeof(x->err));
	if (r)
		return r;
	/* a tenant that joined by its config alone runs on its group's CPUs from now on */
	for (unsigned int i = 0; i < x->scn->ntenants; i++)
		if (late[i]) {
			sim_bind_group(&x->bind, i, &late[i]->cpus);
			x->t[i].ncpus = x->bind.tenant_ncpus[i];
		}
	sim_sockets_bind(&x->sock, x->scn, &x->bind);
	/* Everything checked: now change it all. A tenant in no group is in
	 * CAT's default class, all ways. */
	memcpy(x->ddio_mask, ddio, sizeof(ddio));
	for (unsigned int i = 0; i < x->scn->ntenants; i++)
		x->t[i].mask = mask[i];
	x->dirty = true;
	x->replanned = true;
	return 0;
}

static int sim_wait(void *c, uint64_t interval_ns)
{
	(void)c;
	(void)interval_ns;
	return 0; /* simulated time moves in poll(): faster than real time */
}

static int sim_restore(void *c)
{
	struct sim_ctx *x = c;
	unsigned int i;

	memcpy(x->ddio_mask, x->ddio_open, sizeof(x->ddio_mask));
	for (i = 0; i < x->scn->ntenants; i++) {
		x->t[i].mask = x->all_ways;
		x->t[i].dma_ddio_off = false; /* the root ports as found: DDIO on */
	}
	x->dirty = true;
	return 0;
}

static void sim_destroy(void *c)
{
	struct sim_ctx *x = c;

	if (!x)
		return;
	scenario_free(x->scn);
	free(x);
}

static int sim_trace_columns(void *c, bool header, char *buf, size_t len)
{
	struct sim_ctx *x = c;

	return sim_figures_columns(&x->fig, x->scn, header, buf, len);
}

static int sim_device_ddio(void *c, const char *addr, int mode)
{
	struct sim_ctx *x = c;
	int r = sim_device_set(&x->scn->dev, &x->dev, x->t, addr, mode, x->err, sizeof(x->err));

	if (!r)
		x->dirty = true;
	return r;
}

static int sim_device_writes(void *c, const char *addr, uint64_t *bytes)
{
	struct sim_ctx *x = c;
	int i = sim_device_index(&x->scn->dev, addr);

	if (i < 0)
		return -ENODATA;
	/* exact: a cumulative count with noise could run backwards */
	*bytes = (uint64_t)x->dev.bytes[i];
	return 0;
}

static const char *sim_last_error(void *c)
{
	return ((struct sim_ctx *)c)->err;
}

static const struct platform_ops sim_ops = {
	.last_error = sim_last_error,
	.trace_columns = sim_trace_columns,
	.name = "sim",
	.info = sim_info,
	.poll = sim_poll,
	.check = sim_check,
	.apply = sim_apply,
	.wait = sim_wait,
	.restore = sim_restore,
	.destroy = sim_destroy,
	.device_ddio = sim_device_ddio,
	.device_writes = sim_device_writes,
};

/* Like libbpf's OPTS_VALID: a known size, and nothing set past what we know. */
static bool opts_valid(const struct sim_platform_opts *o)
{
	size_t known = offsetof(struct sim_platform_opts, ntenants) + sizeof(o->ntenants);
	size_t i;

	if (!o)
		return true;
	if (o->sz < known)
		return false;
	for (i = sizeof(*o); i < o->sz; i++)
		if (((const unsigned char *)o)[i])
			return false;
	return true;
}

/* Options that override the scenario's platform. */
static int take_opts(struct sim_ctx *x, const struct sim_platform_opts *o, char *err, size_t len)
{
	struct scenario *s = x->scn;

	x->interval_ns = o && o->interval_ns ? o->interval_ns : DEFAULT_INTERVAL_NS;
	x->noise = o && o->noise >= 0 ? o->noise : s->noise;
	if (x->noise > 0.5 || isnan(x->noise)) {
		snprintf(err, len, "noise %g is not a relative sd in [0, 0.5]", x->noise);
		return -EINVAL;
	}
	sim_rng_seed(&x->rng, o && o->seed ? o->seed : s->seed);
	if (o && o->llc_ways) {
		uint32_t all;

		if (o->llc_ways > 32) {
			snprintf(err, len, "llc_ways %u is more than 32", o->llc_ways);
			return -EINVAL;
		}
		s->params.ways = o->llc_ways;
		all = ways_all(o->llc_ways);
		if (!s->ddio_line)
			s->ddio_mask = all & ~(all >> 2);
		if (s->ddio_mask & ~all) {
			snprintf(err, len, "%s:%u: ddio_mask 0x%x does not fit in %u ways", s->path,
				 s->ddio_line, s->ddio_mask, o->llc_ways);
			return -EINVAL;
		}
	}
	return 0;
}

int sim_platform_open(const char *scenario_path, const struct sim_platform_opts *opts,
		      struct platform *out, char *errbuf, size_t errlen)
{
	char scratch[8];
	struct sim_ctx *x;
	unsigned int i;
	int err;

	if (!errbuf || !errlen) {
		errbuf = scratch;
		errlen = sizeof(scratch);
	}
	errbuf[0] = '\0';
	if (!scenario_path || !out || !opts_valid(opts)) {
		snprintf(errbuf, errlen, "sim_platform_open: bad arguments or opts size");
		return -EINVAL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(errbuf, errlen, "out of memory");
		return -ENOMEM;
	}
	x->scn = scenario_load(scenario_path, errbuf, errlen);
	if (!x->scn) {
		err = -errno;
		free(x);
		return err ? err : -EINVAL;
	}
	err = take_opts(x, opts, errbuf, errlen);
	if (!err)
		err = sim_bind_tenants(x->scn, opts ? opts->tenants : NULL,
				       opts ? opts->ntenants : 0, &x->bind, errbuf, errlen);
	if (err) {
		sim_destroy(x);
		return err;
	}
	x->params = x->scn->params;
	x->reload = opts ? opts->reload : NULL;
	x->reload_cb = opts ? opts->reload_cb : NULL;
	x->reload_arg = opts ? opts->reload_arg : NULL;
	x->all_ways = ways_all(x->params.ways);
	sim_sockets_bind(&x->sock, x->scn, &x->bind);
	for (i = 0; i < PLATFORM_MAX_SOCKETS; i++)
		x->ddio_mask[i] = x->ddio_open[i] = x->scn->ddio_mask;
	for (i = 0; i < x->scn->ntenants; i++) {
		x->t[i].ncpus = x->bind.tenant_ncpus[i];
		x->t[i].mask = x->all_ways; /* CAT's default class: every way */
		x->t[i].w = x->scn->tenant[i].w;
	}
	x->dirty = true;
	out->ops = &sim_ops;
	out->ctx = x;
	return 0;
}

static struct sim_ctx *sim_of(const struct platform *pf)
{
	return pf && pf->ops == &sim_ops ? pf->ctx : NULL;
}

const struct sim_rates *sim_platform_rates(const struct platform *pf)
{
	struct sim_ctx *x = sim_of(pf);

	return x && x->polled ? &x->rates : NULL;
}

const char *sim_platform_reload_path(const struct platform *pf)
{
	struct sim_ctx *x = sim_of(pf);

	return x && x->reload_path[0] ? x->reload_path : NULL;
}

uint32_t sim_platform_ddio_mask(const struct platform *pf)
{
	struct sim_ctx *x = sim_of(pf);

	return x ? x->ddio_mask[0] : 0;
}

uint32_t sim_platform_tenant_mask(const struct platform *pf, const char *name)
{
	struct sim_ctx *x = sim_of(pf);
	int i = x ? scenario_tenant_index(x->scn, name) : -1;

	return i >= 0 ? x->t[i].mask : 0;
}

int sim_platform_view(const struct platform *pf, struct sim_platform_view *out)
{
	struct sim_ctx *x = sim_of(pf);

	if (!x)
		return -EINVAL;
	for (unsigned int i = 0; i < x->scn->ntenants; i++)
		x->names[i] = x->scn->tenant[i].name;
	*out = (struct sim_platform_view){.params = &x->params,
					  .t = x->t,
					  .names = x->names,
					  .ntenants = x->scn->ntenants,
					  .sock = &x->sock,
					  .ddio = x->ddio_mask};
	return 0;
}
