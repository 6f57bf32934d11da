// SPDX-License-Identifier: GPL-2.0
/*
 * Sample folding. A raw value below the last one, a new CPU generation or
 * a new sampler epoch all mean the module's count restarted: the last
 * value goes into the base, so the cumulative count continues from where
 * it was and only the counts between the last sample and the restart are
 * missing (an undercount for one interval, never a negative delta). A
 * sample of an earlier run (queued before the restart) is dropped: its
 * counts are of the old configuration, and folding it would make the new
 * run's first interval as long as the whole old run.
 */
#include <stdio.h>
#include <string.h>

#include <linux/perf_event.h>

#include "host_counters.h"

const uint32_t host_cpu_event_kinds[HOST_NR_CPU_EVENTS] = {
	IOCA_EVENT_KIND_INSTRUCTIONS,
	IOCA_EVENT_KIND_CYCLES,
	IOCA_EVENT_KIND_LLC_REFERENCES,
	IOCA_EVENT_KIND_LLC_MISSES,
};

/*
 * Intel's event lists (Linux's tools/perf/pmu-events/arch/x86/<core>/
 * cache.json) give both L2_RQSTS.REFERENCES 0x24/0xff and L2_RQSTS.MISS
 * 0x24/0x3f for these family 6 models: skylakex (0x55, also Cascade
 * Lake's), sapphirerapids (0x8f), emeraldrapids (0xcf), graniterapids
 * (0xad, 0xae). icelakex's (0x6a, 0x6c) has neither, only the demand,
 * RFO, code and prefetch parts: no L2 counts there.
 */
static const uint32_t l2_models[] = {0x55, 0x8f, 0xcf, 0xad, 0xae};
static const struct {
	uint8_t event, umask;
	const char *name;
} l2_events[HOST_NR_L2_EVENTS] = {
	{0x24, 0xff, "L2_RQSTS.REFERENCES"},
	{0x24, 0x3f, "L2_RQSTS.MISS"},
};

bool host_counters_l2_events(uint32_t family, uint32_t model, struct ioca_event *ev, char *why,
			     size_t len)
{
	bool known = false;

	for (size_t i = 0; family == 6 && i < sizeof(l2_models) / sizeof(l2_models[0]); i++)
		known |= model == l2_models[i];
	if (!known) {
		snprintf(why, len,
			 "CPU family %u model 0x%x: iocad knows L2_RQSTS.REFERENCES and "
			 "L2_RQSTS.MISS only on Skylake-SP/Cascade Lake, Sapphire, Emerald and "
			 "Granite Rapids",
			 family, model);
		return false;
	}
	for (unsigned int k = 0; k < HOST_NR_L2_EVENTS; k++)
		ev[k] = (struct ioca_event){.kind = IOCA_EVENT_KIND_RAW,
					    .type = PERF_TYPE_RAW,
					    .has_type = true,
					    .config = (uint64_t)l2_events[k].umask << 8 |
						      l2_events[k].event};
	return true;
}

bool host_counters_l2_live(const struct ioca_sampler_info *si, uint32_t first,
			   const struct ioca_event *ev, char *why, size_t len)
{
	for (unsigned int k = 0; k < HOST_NR_L2_EVENTS; k++) {
		const struct ioca_event_info *e = NULL;

		for (uint32_t i = 0; i < si->nevents && i < IOCA_MAX_CPU_EVENTS; i++)
			if (si->events[i].index == first + k)
				e = &si->events[i];
		if (!e) {
			snprintf(why, len, "ioca.ko's sampler does not list %s (event %u)",
				 l2_events[k].name, first + k);
			return false;
		}
		if (e->kind != IOCA_EVENT_KIND_RAW || e->type != ev[k].type ||
		    e->config != ev[k].config) {
			snprintf(why, len,
				 "ioca.ko's event %u is kind %u type %u config 0x%llx, not %s",
				 first + k, e->kind, e->type, (unsigned long long)e->config,
				 l2_events[k].name);
			return false;
		}
		if (e->effective_kind && e->effective_kind != e->kind) {
			snprintf(why, len, "ioca.ko counts %s as event kind %u (a substitute)",
				 l2_events[k].name, e->effective_kind);
			return false;
		}
	}
	return true;
}

void host_counters_init(struct host_counters *hc)
{
	memset(hc, 0, sizeof(*hc));
}

void host_counters_new_epoch(struct host_counters *hc, bool l2, uint32_t epoch)
{
	hc->new_epoch = true;
	hc->l2 = l2;
	hc->run_epoch = epoch;
}

bool host_counters_stale(struct host_counters *hc, const struct ioca_sample *s)
{
	/* a module without epochs sends 0: nothing to tell apart */
	if (!hc->run_epoch || !s->epoch || s->epoch == hc->run_epoch)
		return false;
	/* serial arithmetic: the epoch is a u32 that may wrap */
	if ((int32_t)(s->epoch - hc->run_epoch) < 0) {
		hc->stale++;
		return true;
	}
	hc->new_epoch = true;
	hc->run_epoch = s->epoch;
	return false;
}

uint32_t host_counters_seen_mask(const struct ioca_socket_sample *ss, uint32_t written)
{
	if (written && ss->ddio_epoch && (int32_t)(ss->ddio_epoch - written) < 0)
		return 0;
	return ss->ddio_mask;
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
	uint64_t raw[HOST_MAX_CPU_EVENTS] = {0};
	uint32_t n = hc->l2 ? HOST_MAX_CPU_EVENTS : HOST_NR_CPU_EVENTS;
	bool restart;

	for (uint32_t k = 0; k < c->ncounters && k < IOCA_MAX_CPU_EVENTS; k++)
		if (c->counters[k].index < n)
			raw[c->counters[k].index] = c->counters[k].value;
	restart = hc->new_epoch || (a->seen && a->generation != c->generation);
	o->online = c->online;
	o->instructions = acc(&a->base[0], &a->last[0], raw[0], restart);
	o->cycles = acc(&a->base[1], &a->last[1], raw[1], restart);
	o->llc_refs = acc(&a->base[2], &a->last[2], raw[2], restart);
	o->llc_misses = acc(&a->base[3], &a->last[3], raw[3], restart);
	o->l2_refs = acc(&a->base[4], &a->last[4], raw[4], restart);
	o->l2_misses = acc(&a->base[5], &a->last[5], raw[5], restart);
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
		o->l2_refs = a->base[4] + a->last[4];
		o->l2_misses = a->base[5] + a->last[5];
		if (c + 1 > out->ncpus)
			out->ncpus = c + 1;
	}
	for (unsigned int k = 0; k < PLATFORM_MAX_SOCKETS; k++) {
		struct platform_socket_sample *o = &out->socket[k];
		struct host_ddio_acc *d = &hc->ddio[k];

		o->ddio_missing = !ddio[k].have;
		/* the caller sets what this sample says; an earlier poll's mask is not news */
		o->ddio_mask = 0;
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
