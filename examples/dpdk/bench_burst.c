// SPDX-License-Identifier: GPL-2.0
/*
 * The paper's Fig. 8 on the forwarder: the RX and TX burst sizes are
 * spec_enum points, free choices (guards off), and the exhaustive policy
 * measures every pair on packets per second of poll time and installs the
 * best. Two phases, as the paper's: traffic on port 0 whose flows are
 * mostly hot, then on port 1 with no hot flows (every lookup goes to the
 * tables); the policy's 25 % threshold notices the change and searches
 * again.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench_fwd.h"

static const unsigned int bursts[] = {FWD_BURSTS};
#define NB (sizeof(bursts) / sizeof(bursts[0]))

struct grid {
	double mpps[NB][NB];
	double generic;
	size_t best_rx, best_tx;
	bool chosen, shifted;
};

static size_t slot(const struct spec_config *c, const char *label)
{
	int64_t v;

	if (spec_config__get_value(c, label, &v) != 1)
		return NB;
	return index_of(bursts, NB, v);
}

static void report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	struct grid *g = ctx;
	size_t x, y;

	if (ev == SPEC_POLICY_SHIFT) {
		g->shifted = true;
		return;
	}
	if (ev != SPEC_POLICY_MEASURED && ev != SPEC_POLICY_CHOSEN)
		return;
	x = slot(r->cfg, "rx_burst");
	y = slot(r->cfg, "tx_burst");
	if (ev == SPEC_POLICY_CHOSEN) {
		g->chosen = true;
		g->best_rx = x;
		g->best_tx = y;
	} else if (x == NB && y == NB) {
		g->generic = r->err ? NAN : r->score / 1e6;
	} else if (x < NB && y < NB) {
		g->mpps[x][y] = r->err ? NAN : r->score / 1e6;
	}
}

static bool chosen(void *ctx)
{
	return ((struct grid *)ctx)->chosen;
}

static bool shifted(void *ctx)
{
	return ((struct grid *)ctx)->shifted;
}

static void print(const struct grid *g, const char *phase)
{
	size_t x, y;
	double lo = INFINITY, hi = 0;

	printf("  %s: Mpps by RX burst (rows) and TX burst (columns); generic (32/32 at run "
	       "time) %.2f\n        ",
	       phase, g->generic);
	for (y = 0; y < NB; y++)
		printf("%8u", bursts[y]);
	printf("\n");
	for (x = 0; x < NB; x++) {
		printf("  %6u", bursts[x]);
		for (y = 0; y < NB; y++) {
			bool best = g->chosen && x == g->best_rx && y == g->best_tx;

			printf("%7.2f%c", g->mpps[x][y], best ? '*' : ' ');
			lo = g->mpps[x][y] < lo ? g->mpps[x][y] : lo;
			hi = g->mpps[x][y] > hi ? g->mpps[x][y] : hi;
		}
		printf("\n");
	}
	if (g->chosen && g->best_rx < NB && g->best_tx < NB)
		printf("  chose RX %u, TX %u: %.2fx the generic variant in the search's one "
		       "measurement of each; the grid spans %.2f-%.2f Mpps (%.2fx)\n",
		       bursts[g->best_rx], bursts[g->best_tx],
		       g->mpps[g->best_rx][g->best_tx] / g->generic, lo, hi, hi / lo);
	else if (g->chosen)
		printf("  chose the generic variant\n");
}

/* The choice against the generic variant, measured again in repeated runs. */
static int confirm(struct drv *d, const struct grid *g)
{
	struct spec_config *chosen, *generic = spec_config__new();
	char name[48];
	int ret;

	if (g->best_rx >= NB || g->best_tx >= NB) {
		spec_config__free(generic);
		return 0;
	}
	chosen = fwd_config(bursts[g->best_rx], bursts[g->best_tx], NULL, 0, 0);
	snprintf(name, sizeof(name), "bursts %u/%u (the choice)", bursts[g->best_rx],
		 bursts[g->best_tx]);
	ret = chosen && generic ? drv_confirm(d, chosen, name, generic, "generic variant") : -1;
	spec_config__free(chosen);
	spec_config__free(generic);
	return ret;
}

int bench_burst(struct drv *d, const struct workload *second, unsigned int *rx, unsigned int *tx)
{
	static const char *const labels[] = {"rx_burst", "tx_burst"};
	struct spec_policy_exhaustive *p;
	struct grid g = {0};
	uint64_t t0;
	int ret = -1;

	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = drv_packets, .metric_ctx = d,
		     .metric_mode = SPEC_METRIC_COUNTER, .dwell_ns = 15000000, .windows = 3,
		     .warmup_ns = 2000000, .threshold = 0.25, .confirm_windows = 2,
		     .labels = labels, .nr_labels = 2, .noguard_labels = labels,
		     .nr_noguard_labels = 2, .include_generic = true, .clock = drv_clock,
		     .clock_ctx = d, .report = report, .report_ctx = &g);
	printf("\nBurst sizes explored by the exhaustive policy (paper Fig. 8: Network "
	       "Functions' BATCH_SIZE,\n  two phases, the best found in each even where they "
	       "differ; compile 98 +- 5 ms, 5 annotation lines)\n");
	p = spec_policy_exhaustive__new(d->rt, &o);
	if (!p)
		return -1;
	t0 = now_ns();
	drv_policy(d, p, 20000000000ull, chosen, &g);
	if (!g.chosen)
		goto out;
	print(&g, "phase 1, port 0, 90 % hot flows");
	if (confirm(d, &g))
		goto out;
	printf("  search: %zu candidates, %.1f s\n", spec_policy_exhaustive__nr_candidates(p),
	       (double)(now_ns() - t0) / 1e9);
	/* The fast path's search runs on phase 1's traffic and bursts. */
	*rx = g.best_rx < NB ? bursts[g.best_rx] : 32;
	*tx = g.best_tx < NB ? bursts[g.best_tx] : 32;
	/* Watch the choice a while, then change the traffic. */
	drv_policy(d, p, 100000000, NULL, NULL);
	memset(&g, 0, sizeof(g));
	d->w = second;
	d->in_port = 1;
	d->pos = 0;
	t0 = now_ns();
	drv_policy(d, p, 500000000, shifted, &g);
	if (!g.shifted) {
		printf("  phase 2: throughput moved less than 25 %%: the search is started by "
		       "the bench\n");
		spec_policy_exhaustive__explore(p);
	}
	drv_policy(d, p, 20000000000ull, chosen, &g);
	if (!g.chosen)
		goto out;
	print(&g, "phase 2, port 1, no hot flows");
	if (confirm(d, &g))
		goto out;
	printf("  shift %s, search: %.1f s\n",
	       g.shifted ? "detected by the policy" : "not detected",
	       (double)(now_ns() - t0) / 1e9);
	ret = 0;
out:
	spec_policy_exhaustive__free(p);
	return ret;
}
