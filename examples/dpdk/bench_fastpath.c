// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's Fig. 9 on the forwarder: an instrumentation phase samples the
 * flow lookup (about 100 ms, as the paper's), then the exhaustive policy
 * measures fast paths of 0..8 hot flows (the generator's parameter) on
 * packets per second of poll time and installs the best. Then the hot set
 * is replaced by flows it never held; the policy's 25 % threshold notices
 * the drop, and the instrumentation and the search run again.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_fwd.h"

static const unsigned int sizes[] = {0, 1, 2, 3, 4, 6, 8};
#define NS (sizeof(sizes) / sizeof(sizes[0]))
#define INSTRUMENT_NS 100000000ull

struct fp {
	double mpps[NS];
	size_t best;
	bool chosen, shifted;
	double watch; /* the last watch window's score */
};

static size_t slot(const struct spec_config *c)
{
	int64_t v = 0;
	size_t i;
	char text[256];

	/* No getter for a generator's parameter: it is in the text,
	 * label=<address>/<k>.
	 */
	if (spec_config__format(c, text, sizeof(text)) < 0)
		return NS;
	for (i = 0; text[i]; i++)
		if (text[i] == '/')
			v = strtoll(&text[i + 1], NULL, 10);
	return index_of(sizes, NS, v);
}

static void report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	struct fp *f = ctx;

	if (ev == SPEC_POLICY_SHIFT)
		f->shifted = true;
	else if (ev == SPEC_POLICY_WATCH)
		f->watch = r ? r->score : NAN;
	else if (ev == SPEC_POLICY_MEASURED && slot(r->cfg) < NS)
		f->mpps[slot(r->cfg)] = r->err ? NAN : r->score / 1e6;
	else if (ev == SPEC_POLICY_CHOSEN) {
		f->chosen = true;
		f->best = slot(r->cfg);
	}
}

static bool chosen(void *ctx)
{
	return ((struct fp *)ctx)->chosen;
}

static bool shifted(void *ctx)
{
	return ((struct fp *)ctx)->shifted;
}

/* The generic lookup, sampled, for INSTRUMENT_NS of poll time. */
static int instrument(struct drv *d, unsigned int rx, unsigned int tx)
{
	struct spec_config *c = fwd_config(rx, tx, NULL, 0, 16);
	uint64_t t0 = d->busy_ns;
	int err;

	if (!c)
		return -1;
	err = spec_runtime__specialize_sync(d->rt, c, NULL);
	spec_config__free(c);
	while (!err && d->busy_ns - t0 < INSTRUMENT_NS)
		drv_round(d);
	return err;
}

/* Instrument, search, print; returns the policy (watching its choice). */
static struct spec_policy_exhaustive *search(struct drv *d, struct fp *f, unsigned int rx,
					     unsigned int tx, const char *what)
{
	static const char *const none[1];
	struct spec_config *cand[NS] = {0};
	struct spec_policy_exhaustive *p = NULL;
	uint64_t t0 = now_ns(), l0, n0;
	size_t i;

	for (i = 0; i < NS; i++)
		if (!(cand[i] = fwd_config(rx, tx, d->t, sizes[i], 0)))
			goto out;
	if (instrument(d, rx, tx))
		goto out;
	{
		LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = drv_packets, .metric_ctx = d,
			     .metric_mode = SPEC_METRIC_COUNTER, .dwell_ns = 15000000, .windows = 5,
			     .warmup_ns = 2000000, .threshold = 0.25, .confirm_windows = 2,
			     .labels = none, .nr_labels = 0,
			     .extra = (const struct spec_config *const *)cand, .nr_extra = NS,
			     .clock = drv_clock, .clock_ctx = d, .report = report, .report_ctx = f);

		p = spec_policy_exhaustive__new(d->rt, &o);
	}
	if (!p)
		goto out;
	drv_policy(d, p, 20000000000ull, chosen, f);
	if (!f->chosen) {
		spec_policy_exhaustive__free(p);
		p = NULL;
		goto out;
	}
	printf("  %s (instrumentation %.0f ms of poll time, then the search; %.1f s in all)\n",
	       what, INSTRUMENT_NS / 1e6, (double)(now_ns() - t0) / 1e9);
	for (i = 0; i < NS; i++)
		printf("    fast path of %u flow%s %7.2f Mpps  %.2fx%s\n", sizes[i],
		       sizes[i] == 1 ? ": " : "s:", f->mpps[i], f->mpps[i] / f->mpps[0],
		       i == f->best ? "  <- chosen" : "");
	if (f->best < NS && f->best &&
	    drv_confirm(d, cand[f->best], "the chosen fast path", cand[0], "no fast path")) {
		spec_policy_exhaustive__free(p);
		p = NULL;
		goto out;
	}
	/* The chosen fast path's share of the lookups. */
	l0 = d->t->lookups;
	n0 = d->net->fwd.rx;
	drv_policy(d, p, 50000000, NULL, NULL);
	printf("    chosen: %.1f %% of packets took the slow lookup (rte_hash, rte_lpm)\n",
	       100.0 * (double)(d->t->lookups - l0) / (double)(d->net->fwd.rx - n0));
out:
	for (i = 0; i < NS; i++)
		spec_config__free(cand[i]);
	return p;
}

int bench_fastpath(struct drv *d, struct workload *w, unsigned int rx, unsigned int tx)
{
	struct spec_policy_exhaustive *p;
	struct fp f = {0};
	double before;
	uint64_t t0;

	printf("\nFast-path size explored by the exhaustive policy at RX %u, TX %u (paper Fig. 9: "
	       "FastClick's\n  route lookup, ~100 ms instrumentation then the search, again when "
	       "the throughput moves >= 25 %%;\n  Figs. 4-5: up to 15x at 100 %% fast-path hits, "
	       "~5x at 50 %% with 1000 routes; compile 11 +- 1 ms)\n",
	       rx, tx);
	p = search(d, &f, rx, tx, "hot set 1");
	if (!p)
		return -1;
	before = f.mpps[f.best];
	workload_shift(w);
	d->pos = 0;
	f.shifted = false;
	t0 = d->busy_ns;
	drv_policy(d, p, 1000000000, shifted, &f);
	printf("  hot set replaced: the stale fast path ran at %.2f Mpps (%.2fx its search "
	       "score); %s after %.0f ms of poll time\n",
	       f.watch / 1e6, f.watch / 1e6 / before,
	       f.shifted ? "the policy noticed" : "the policy did not notice",
	       (double)(d->busy_ns - t0) / 1e6);
	spec_policy_exhaustive__free(p);
	/* Samples and fast paths of the old hot set must not come back from
	 * the cache: the example forgets them before instrumenting again.
	 */
	if (spec_runtime__invalidate(d->rt, FWD_FLOW_LABEL, NULL))
		return -1;
	f = (struct fp){0};
	p = search(d, &f, rx, tx, "hot set 2");
	if (!p)
		return -1;
	spec_policy_exhaustive__free(p);
	return 0;
}
