// SPDX-License-Identifier: GPL-2.0
/*
 * Sample folding. A raw value below the last one, a new CPU generation or
 * a new sampler epoch all mean the module's count restarted: the last
 * value goes into the base, so the cumulative count continues from where
 * it was and only the counts between the last sample and the restart are
 * missing (an undercount for one interval, never a negative delta).
 */
#include <string.h>

#include "host_counters.h"

const uint32_t host_cpu_event_kinds[HOST_NR_CPU_EVENTS] = {
	IOCA_EVENT_KIND_INSTRUCTIONS,
	IOCA_EVENT_KIND_CYCLES,
	IOCA_EVENT_KIND_LLC_REFERENCES,
	IOCA_EVENT_KIND_LLC_MISSES,
};

void host_counters_init(struct host_counters *hc)
{
	memset(hc, 0, sizeof(*hc));
}

void host_counters_new_epoch(struct host_counters *hc)
{
	hc->new_epoch = true;
}

static uint64_t acc(uint64_t *base, uint64_t *last, uint64_t raw, bool restart)
{
	if (restart || raw < *last)
		*base += *last;
	*last = raw;
	return *base + raw;
}

static void fold_cpu(struct host_counters *hc, const struct ioca_cpu_sample *c,
		     struct platform_cpu_counters *o)
{
	struct host_cpu_acc *a = &hc->cpu[c->id];
	uint64_t raw[HOST_NR_CPU_EVENTS] = {0};
	bool restart;

	for (uint32_t k = 0; k < c->ncounters && k < IOCA_MAX_CPU_EVENTS; k++)
		if (c->counters[k].index < HOST_NR_CPU_EVENTS)
			raw[c->counters[k].index] = c->counters[k].value;
	restart = hc->new_epoch || (a->seen && a->generation != c->generation);
	o->online = c->online;
	o->instructions = acc(&a->base[0], &a->last[0], raw[0], restart);
	o->cycles = acc(&a->base[1], &a->last[1], raw[1], restart);
	o->llc_refs = acc(&a->base[2], &a->last[2], raw[2], restart);
	o->llc_misses = acc(&a->base[3], &a->last[3], raw[3], restart);
	a->seen = true;
	a->generation = c->generation;
}

uint64_t host_counters_fold(struct host_counters *hc, const struct ioca_sample *s,
			    const struct host_ddio_counts *ddio, struct platform_sample *out)
{
	uint64_t lost = hc->seq ? s->lost : 0;
	bool present[PLATFORM_MAX_CPUS] = {false};

	memset(out->cpu, 0, sizeof(out->cpu));
	out->ncpus = 0;
	for (uint32_t i = 0; i < s->ncpus && i < IOCA_MAX_CPUS; i++) {
		const struct ioca_cpu_sample *c = &s->cpus[i];

		if (c->id >= PLATFORM_MAX_CPUS)
			continue;
		fold_cpu(hc, c, &out->cpu[c->id]);
		present[c->id] = true;
		if (c->id + 1 > out->ncpus)
			out->ncpus = c->id + 1;
	}
	/* a CPU missing from this sample keeps its counts (no delta) */
	for (unsigned int c = 0; c < PLATFORM_MAX_CPUS; c++) {
		const struct host_cpu_acc *a = &hc->cpu[c];
		struct platform_cpu_counters *o = &out->cpu[c];

		if (!a->seen || present[c])
			continue;
		o->instructions = a->base[0] + a->last[0];
		o->cycles = a->base[1] + a->last[1];
		o->llc_refs = a->base[2] + a->last[2];
		o->llc_misses = a->base[3] + a->last[3];
		if (c + 1 > out->ncpus)
			out->ncpus = c + 1;
	}
	for (unsigned int k = 0; k < PLATFORM_MAX_SOCKETS; k++) {
		struct platform_socket_sample *o = &out->socket[k];
		struct host_ddio_acc *d = &hc->ddio[k];

		o->ddio_missing = !ddio[k].have;
		if (ddio[k].have) {
			bool restart = hc->new_epoch;

			o->ddio_hits = acc(&d->base[0], &d->last[0], ddio[k].hit, restart);
			o->ddio_misses = acc(&d->base[1], &d->last[1], ddio[k].miss, restart);
		} else {
			/* the last counts: no DDIO traffic is made up */
			o->ddio_hits = d->base[0] + d->last[0];
			o->ddio_misses = d->base[1] + d->last[1];
		}
	}
	hc->new_epoch = false;
	hc->seq += 1 + lost;
	hc->lost += lost;
	out->seq = hc->seq;
	out->t_ns = s->time_ns;
	return lost;
}

uint64_t host_counters_poll_seq(struct host_counters *hc, uint64_t lost)
{
	hc->poll_seq += 1 + lost;
	return hc->poll_seq;
}
