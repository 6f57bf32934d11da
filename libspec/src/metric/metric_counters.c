// SPDX-License-Identifier: GPL-2.0
/*
 * spec_counters: the module's samples (libioca subscription) turned into a
 * metric a policy maximizes. Without libioca at build time every open
 * fails with EOPNOTSUPP; the window arithmetic is always built.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "metric/metric_counters.h"

enum { EV_INSN, EV_CYCLES, EV_LLC };

double counters_window_close(struct counters_window *w, enum spec_counter_metric what,
			     const struct counters_reading *r, size_t n, uint64_t ops, bool negate)
{
	uint64_t d[COUNTERS_EVENTS] = {0}, dops = ops - w->ops;
	bool started = w->started;
	double v = NAN;
	size_t i, k;

	for (i = 0; i < n; i++) {
		struct counters_cpu *c;

		if (r[i].cpu >= COUNTERS_MAX_CPUS)
			continue;
		c = &w->cpu[r[i].cpu];
		/* Counters re-created (CPU offline and back): no delta. */
		if (c->seen && c->generation == r[i].generation) {
			for (k = 0; k < COUNTERS_EVENTS; k++)
				d[k] += r[i].v[k] >= c->v[k] ? r[i].v[k] - c->v[k] : 0;
		}
		c->seen = true;
		c->generation = r[i].generation;
		memcpy(c->v, r[i].v, sizeof(c->v));
	}
	w->ops = ops;
	w->started = true;
	if (!started)
		return NAN;
	switch (what) {
	case SPEC_COUNTERS_IPC:
		v = d[EV_CYCLES] ? (double)d[EV_INSN] / (double)d[EV_CYCLES] : NAN;
		break;
	case SPEC_COUNTERS_LLC_MISSES_PER_INSN:
		v = d[EV_INSN] ? (double)d[EV_LLC] / (double)d[EV_INSN] : NAN;
		break;
	case SPEC_COUNTERS_LLC_MISSES_PER_OP:
		v = dops ? (double)d[EV_LLC] / (double)dops : NAN;
		break;
	}
	return negate && what != SPEC_COUNTERS_IPC ? -v : v;
}

#ifndef LIBSPEC_HAVE_IOCA
/* Without libioca (metric_ioca.c then builds empty). */
struct spec_counters *spec_counters__open(enum spec_counter_metric what,
					  const struct spec_counters_opts *opts)
{
	struct libspec_log log = LIBSPEC_LOG_OPTS(opts);

	(void)what;
	pr_warn(&log, "counter metrics are unavailable: libspec was built without libioca "
		      "(libnl-genl-3 missing)");
	return libspec_err_ptr(-EOPNOTSUPP);
}

double spec_counters__read(void *counters)
{
	(void)counters;
	return NAN;
}

uint64_t spec_counters__samples(const struct spec_counters *c)
{
	(void)c;
	return 0;
}

void spec_counters__close(struct spec_counters *c)
{
	(void)c;
}
#endif
