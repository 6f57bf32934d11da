// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "assemble.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int ioca_asm_init(struct ioca_assembler *a, bool periodic, const struct ioca_log *log)
{
	memset(a, 0, sizeof(*a));
	a->cur = calloc(1, sizeof(*a->cur));
	if (!a->cur)
		return -ENOMEM;
	a->periodic = periodic;
	a->log = log;
	return 0;
}

void ioca_asm_free(struct ioca_assembler *a)
{
	free(a->cur);
	a->cur = NULL;
}

void ioca_asm_abort(struct ioca_assembler *a)
{
	if (a->active && !a->dead) {
		a->stats.incomplete++;
		pr_warn(a->log, "sample %" PRIu64 ": %u of %u parts received, dropped", a->seq,
			a->ngot, a->parts);
	}
	a->active = false;
	a->dead = false;
}

static void start(struct ioca_assembler *a, const struct ioca_sample_head *h)
{
	/* Only the counts: the arrays are written before they are read. */
	a->cur->ncpus = 0;
	a->cur->nsockets = 0;
	a->cur->time_ns = a->cur->realtime_ns = a->cur->collect_ns = 0;
	a->cur->interval_us = 0;
	a->cur->epoch = 0;
	a->active = true;
	a->dead = false;
	a->seq = h->seq;
	a->parts = h->parts;
	a->ngot = 0;
	memset(a->got, 0, sizeof(a->got));
}

/* Drops the sample being assembled for a reason already reported. */
static void drop(struct ioca_assembler *a)
{
	a->stats.incomplete++;
	a->dead = true;
}

static void copy_out(const struct ioca_sample *s, struct ioca_sample *out)
{
	uint32_t i;

	out->seq = s->seq;
	out->time_ns = s->time_ns;
	out->realtime_ns = s->realtime_ns;
	out->collect_ns = s->collect_ns;
	out->interval_us = s->interval_us;
	out->on_demand = s->on_demand;
	out->epoch = s->epoch;
	out->ncpus = s->ncpus;
	out->nsockets = s->nsockets;
	/* The used counters only: most of each array is room for the maxima. */
	for (i = 0; i < s->ncpus; i++)
		memcpy(&out->cpus[i], &s->cpus[i],
		       offsetof(struct ioca_cpu_sample, counters) +
			       s->cpus[i].ncounters * sizeof(s->cpus[i].counters[0]));
	for (i = 0; i < s->nsockets; i++) {
		memcpy(&out->sockets[i], &s->sockets[i],
		       offsetof(struct ioca_socket_sample, counters) +
			       s->sockets[i].ncounters * sizeof(s->sockets[i].counters[0]));
		out->sockets[i].ddio_mask = s->sockets[i].ddio_mask;
		out->sockets[i].ddio_epoch = s->sockets[i].ddio_epoch;
	}
}

static int complete(struct ioca_assembler *a, struct ioca_sample *out)
{
	uint64_t lost = 0;

	if (a->periodic && a->has_last) {
		if (a->seq > a->last_seq)
			lost = a->seq - a->last_seq - 1;
		else
			pr_info(a->log,
				"sample sequence went back from %" PRIu64 " to %" PRIu64
				" (sampler reconfigured or module reloaded)",
				a->last_seq, a->seq);
	}
	if (a->periodic) {
		a->has_last = true;
		a->last_seq = a->seq;
	}
	copy_out(a->cur, out);
	out->parts = a->parts;
	out->lost = lost;
	a->stats.samples++;
	a->stats.lost += lost;
	a->active = false;
	return 1;
}

int ioca_asm_feed(struct ioca_assembler *a, const struct nlmsghdr *nlh, struct ioca_sample *out)
{
	struct ioca_sample_head h;

	if (ioca_decode_sample_head(nlh, &h, a->log)) {
		a->stats.malformed++;
		return 0;
	}
	/* Unicast answers to someone's sample-get are not part of the stream. */
	if (a->periodic && h.on_demand)
		return 0;
	if (a->active && h.seq != a->seq)
		ioca_asm_abort(a);
	if (!a->active)
		start(a, &h);
	if (a->dead)
		return 0;
	if (h.parts != a->parts) {
		pr_warn(a->log, "sample %" PRIu64 ": part %u says %u parts, an earlier one %u",
			h.seq, h.part, h.parts, a->parts);
		a->stats.malformed++;
		drop(a);
		return 0;
	}
	if (a->got[h.part / 64] & (1ull << (h.part % 64))) {
		pr_warn(a->log, "sample %" PRIu64 ": part %u received twice", h.seq, h.part);
		a->stats.malformed++;
		drop(a);
		return 0;
	}
	if (ioca_decode_sample_body(&h, a->cur, a->log)) {
		a->stats.malformed++;
		drop(a);
		return 0;
	}
	a->got[h.part / 64] |= 1ull << (h.part % 64);
	if (++a->ngot < a->parts)
		return 0;
	return complete(a, out);
}
