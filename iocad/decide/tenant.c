// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "decide/tenant.h"

static uint64_t diff(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : 0;
}

static double per_s(uint64_t n, uint64_t dt_ns)
{
	return (double)n * 1e9 / (double)dt_ns;
}

int tenant_interval(const struct config *cfg, const struct platform_sample *before,
		    const struct platform_sample *now, struct tenant_interval *out)
{
	const struct platform_socket_sample *sa, *sb;
	uint64_t dt;

	if (now->t_ns <= before->t_ns)
		return -EINVAL;
	dt = now->t_ns - before->t_ns;
	memset(out, 0, sizeof(*out));
	out->t_ns = now->t_ns;
	out->dt_ns = dt;
	out->ntenants = cfg->ntenants;
	for (unsigned int i = 0; i < cfg->ntenants; i++) {
		const struct config_tenant *t = &cfg->tenant[i];
		struct tenant_rates *r = &out->tenant[i];
		uint64_t ins = 0, cyc = 0, refs = 0, miss = 0, l2r = 0, l2m = 0;

		for (unsigned int k = 0; k < t->ncpus; k++) {
			unsigned int c = t->cpus[k];
			const struct platform_cpu_counters *a, *b;

			if (c >= now->ncpus || c >= before->ncpus)
				continue;
			a = &before->cpu[c];
			b = &now->cpu[c];
			if (!b->online || !a->online)
				continue;
			ins += diff(b->instructions, a->instructions);
			cyc += diff(b->cycles, a->cycles);
			refs += diff(b->llc_refs, a->llc_refs);
			miss += diff(b->llc_misses, a->llc_misses);
			l2r += diff(b->l2_refs, a->l2_refs);
			l2m += diff(b->l2_misses, a->l2_misses);
		}
		r->instructions = per_s(ins, dt);
		r->cycles = per_s(cyc, dt);
		r->llc_refs = per_s(refs, dt);
		r->llc_misses = per_s(miss, dt);
		r->l2_refs = per_s(l2r, dt);
		r->l2_misses = per_s(l2m, dt);
		r->ipc = cyc ? (double)ins / (double)cyc : 0;
		r->miss_rate = refs ? (double)miss / (double)refs : 0;
		out->llc_refs_n[i] = refs;
		out->llc_misses_n[i] = miss;
		out->llc_refs += r->llc_refs;
		out->llc_misses += r->llc_misses;
	}
	/* the DDIO counters of the config's socket */
	sa = &before->socket[cfg->socket % PLATFORM_MAX_SOCKETS];
	sb = &now->socket[cfg->socket % PLATFORM_MAX_SOCKETS];
	out->ddio_hits_n = diff(sb->ddio_hits, sa->ddio_hits);
	out->ddio_misses_n = diff(sb->ddio_misses, sa->ddio_misses);
	out->ddio_hits = per_s(out->ddio_hits_n, dt);
	out->ddio_misses = per_s(out->ddio_misses_n, dt);
	return 0;
}

void tenant_delta_push(struct tenant_delta *d, const struct tenant_interval *next)
{
	d->prev = d->cur;
	d->have_prev = d->cur.dt_ns != 0;
	d->cur = *next;
}
