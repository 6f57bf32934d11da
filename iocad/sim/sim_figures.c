// SPDX-License-Identifier: GPL-2.0
#include "sim_figures.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

void sim_figures_add(struct sim_figures *f, unsigned int i, const struct sim_tenant_rates *r,
		     const struct sim_workload *w, double dt)
{
	/* a compute tenant's throughput: its references to its own data */
	double ops = r->pkts > 0 ? 0 : r->instructions * w->rpi;
	double weight = ops > 0 ? ops : r->llc_refs;

	f->t[i].pkts += r->pkts * dt;
	f->t[i].drops += r->drops * dt;
	f->t[i].cycles += r->cycles * dt;
	f->t[i].ops += ops * dt;
	f->t[i].lat_w += weight * dt;
	f->t[i].lat_sum += r->lat_ns * weight * dt;
}

void sim_figures_socket(struct sim_figures *f, const struct sim_rates *r, double dt)
{
	f->mem += r->mem_bytes * dt;
	f->secs += dt;
}

/* Appends to @buf; -ENOSPC once it no longer fits. */
static int cat(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len - *at)
		return -ENOSPC;
	*at += (size_t)n;
	return 0;
}

int sim_figures_columns(const struct sim_figures *f, const struct scenario *s, bool header,
			char *buf, size_t len)
{
	double secs = f->secs > 0 ? f->secs : 1;
	size_t at = 0;
	int r;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	r = header ? cat(buf, len, &at, ",sim_mem_bytes_s")
		   : cat(buf, len, &at, ",%.0f", f->mem / secs);
	for (unsigned int i = 0; i < s->ntenants && !r; i++) {
		const char *n = s->tenant[i].name;

		if (header)
			r = cat(buf, len, &at,
				",sim_%s_pkts_s,sim_%s_drops_s,sim_%s_cycles_per_pkt,sim_%s_lat_ns,"
				"sim_%s_refs_s",
				n, n, n, n, n);
		else
			r = cat(buf, len, &at, ",%.0f,%.0f,%.1f,%.2f,%.0f", f->t[i].pkts / secs,
				f->t[i].drops / secs,
				f->t[i].pkts > 0 ? f->t[i].cycles / f->t[i].pkts : 0,
				f->t[i].lat_w > 0 ? f->t[i].lat_sum / f->t[i].lat_w : 0,
				f->t[i].ops / secs);
	}
	return r;
}

void sim_warmup_start(struct sim_warmup *w, const struct sim_rates *old,
		      const struct sim_rates *now, unsigned int n, uint64_t at_ns)
{
	for (unsigned int i = 0; i < n; i++) {
		const struct sim_tenant_rates *o = &old->tenant[i], *r = &now->tenant[i];
		/* the misses that fill it come at the old rate while it is cold */
		double gained = r->occ - o->occ, fill = o->llc_misses * SIM_LINE;

		w->at_ns[i] = 0;
		if (gained <= 0 || fill <= 0 || o->cycles <= 0)
			continue;
		w->before[i] = *o;
		w->at_ns[i] = at_ns + (uint64_t)fmin(gained / fill * 1e9, 1e12);
	}
}

double sim_warmup_cold(const struct sim_warmup *w, unsigned int i, uint64_t at_ns, double dt)
{
	return w->at_ns[i] > at_ns ? fmin(dt, (double)(w->at_ns[i] - at_ns) / 1e9) : 0;
}
