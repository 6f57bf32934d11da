// SPDX-License-Identifier: GPL-2.0
/*
 * libspec events benchmark on CTP (examples/ctp): per-event processing time
 * (one synchronous raise from the fixed code, every handler it reaches
 * included) with generic dispatch, merged handlers without and with chain
 * subsumption; end-to-end messages/s; then the cost of a rebinding
 * (bench_rebind.c). Figures sit next to the paper's (Fig. 11, 12); the
 * baseline is generic dispatch measured in the same run. Never a verdict.
 *   events-bench [events] [e2e] [rebind] [size]   (default: all)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libspec/events.h>

#include "bench_events.h"
#include "bench_fused.h"
#include "bench_rebind.h"
#include "bench_size.h"
#include "bench_util.h"

#ifndef CTP_IR
#define CTP_IR "build/ctp.ll"
#endif

static uint8_t payload[65536];

double bench_raise_ns(struct ctp_stack *s, enum ctp_event ev, const int64_t *args, int nargs, int n,
		      int reps)
{
	return bench_raise_ev_ns(s->ev[ev], args, nargs, n, reps);
}

double bench_raise_ev_ns(struct spec_event *e, const int64_t *args, int nargs, int n, int reps)
{
	double *v = calloc((size_t)reps, sizeof(*v)), best;
	int r, i;

	int64_t a[SPEC_EV_MAX_ARGS] = {0};

	if (nargs)
		memcpy(a, args, (size_t)nargs * sizeof(*a));
	/* The typed raise: the arguments in registers, as merged code takes them. */
	for (r = 0; r < reps; r++) {
		uint64_t t0 = bench_ns();

		for (i = 0; i < n; i++)
			spec_event__raise4(e, a[0], a[1], a[2], a[3]);
		v[r] = (double)(bench_ns() - t0) / n;
	}
	best = bench_min(v, (size_t)reps);
	free(v);
	return best;
}

/* The hand-fused chain, on a generic stack's connection (async and delayed
 * raises still reach that stack's library queue).
 */
static double fused_ns(struct ctp_stack *s, bench_fused_fn fn, uint32_t ev, const int64_t *args,
		       int nargs, int n, int reps)
{
	struct spec_ev_ctx ctx = {.evs = s->evs, .user = s->c, .event = ev, .handler = UINT32_MAX};
	double *v = calloc((size_t)reps, sizeof(*v)), best;
	int64_t a[SPEC_EV_MAX_ARGS] = {0};
	int r, i;

	if (nargs)
		memcpy(a, args, (size_t)nargs * sizeof(*a));
	for (r = 0; r < reps; r++) {
		uint64_t t0 = bench_ns();

		for (i = 0; i < n; i++)
			fn(&ctx, a);
		v[r] = (double)(bench_ns() - t0) / n;
	}
	best = bench_min(v, (size_t)reps);
	free(v);
	return best;
}

enum variant { GENERIC, MERGED_FLAT, MERGED, FUSED, NR_VARIANTS };

/*
 * CTP as a variant; also an event "Stats4" with four ctp_stats bindings
 * (almost no work: what dispatch itself costs), into @stats4.
 */
static int open_variant(struct ctp_stack *s, enum variant v, struct spec_event **stats4)
{
	struct ctp_opts o = {.ir = CTP_IR, .frag = 96, .fec = true, .sample_every = 64};
	struct spec_event *set[CTP_NR_EVENTS + 1];
	int ret = ctp_open(s, &o), i;

	if (ret)
		return ret;
	*stats4 = spec_events__declare(s->evs, "Stats4");
	for (i = 0; i < 4 && *stats4; i++) {
		if (spec_event__bind(*stats4, "ctp_stats", NULL) < 0)
			return -errno;
	}
	if (!*stats4)
		return -errno;
	if (v == GENERIC || v == FUSED)
		return 0;
	for (i = 0; i < CTP_NR_EVENTS; i++)
		set[i] = s->ev[i];
	set[CTP_NR_EVENTS] = *stats4;
	{
		LIBSPEC_OPTS(spec_merge_opts, mo, .events = set, .nr_events = CTP_NR_EVENTS + 1,
			     .no_subsume = v == MERGED_FLAT);

		ret = spec_events__merge(s->evs, &mo);
	}
	return ret < 0 ? ret : 0;
}

static const struct {
	enum ctp_event ev;
	int64_t args[2];
	int nargs;
	const char *paper; /* Fig. 11: us original / optimized, reduction */
} rows[] = {
	{CTP_SEG_FROM_USER, {0, 96}, 2, "346 / 41 us, 88.2%"},
	{CTP_SEG2NET, {5}, 1, "137 / 37 us, 73.0%"},
	{CTP_ADAPT, {30}, 1, "55 / 11 us, 80.0%"},
	{CTP_CONTROLLER_CLOCK, {0}, 0, "-"},
	{CTP_SEGMENT_ACKED, {5}, 1, "-"},
	{CTP_MSG_FROM_USER, {1000}, 1, "-"},
};

static void print_row(const char *name, const double *ns, const char *paper)
{
	printf("%-16s %8.1f %8.1f %8.1f %8.1f %6.1f%% %6.1f%% %7.1f%% %9.3f   %s\n", name,
	       ns[GENERIC], ns[MERGED_FLAT], ns[MERGED], ns[FUSED],
	       100.0 * (1 - ns[MERGED_FLAT] / ns[GENERIC]), 100.0 * (1 - ns[MERGED] / ns[GENERIC]),
	       100.0 * (1 - ns[FUSED] / ns[GENERIC]), ns[MERGED] / ns[FUSED], paper);
}

static int bench_per_event(void)
{
	struct spec_event *stats4[NR_VARIANTS];
	struct ctp_stack s[NR_VARIANTS];
	double ns[NR_VARIANTS];
	size_t r;
	int v, ret;

	for (v = 0; v < NR_VARIANTS; v++) {
		ret = open_variant(&s[v], v, &stats4[v]);
		if (ret) {
			fprintf(stderr, "events-bench: CTP setup failed: %s\n", strerror(-ret));
			return ret;
		}
		s[v].c->msg = payload;
	}
	printf("\nevent processing time: one synchronous raise from the fixed code, all the\n"
	       "handlers it reaches included (ns, best of 30 batches of 2000); fused: the\n"
	       "handlers called directly in C (bench_fused.c), the limit; dispatch: the share\n"
	       "of the generic time that fusing removes\n");
	printf("%-16s %8s %8s %8s %8s %7s %7s %7s %9s   %s\n", "event", "generic", "merged",
	       "+subsume", "fused", "reduct.", "+subs.", "dispatch", "+subs/fused",
	       "paper (orig / opt, reduction)");
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		for (v = 0; v < NR_VARIANTS; v++) {
			int n = rows[r].ev == CTP_MSG_FROM_USER ? 200 : 2000;

			s[v].c->msg_off = 0;
			if (v == FUSED)
				ns[v] = fused_ns(&s[v], bench_fused(rows[r].ev), rows[r].ev,
						 rows[r].args, rows[r].nargs, n, 30);
			else
				ns[v] = bench_raise_ns(&s[v], rows[r].ev, rows[r].args,
						       rows[r].nargs, n, 30);
			s[v].c->msg_off = 0;
		}
		print_row(ctp_event_names[rows[r].ev], ns, rows[r].paper);
	}
	for (v = 0; v < NR_VARIANTS; v++) {
		if (v == FUSED)
			ns[v] = fused_ns(&s[v], bench_fused_stats4, CTP_NR_EVENTS, NULL, 0, 2000,
					 30);
		else
			ns[v] = bench_raise_ev_ns(stats4[v], NULL, 0, 2000, 30);
	}
	print_row("Stats4 (no work)", ns, "-");
	printf("(SegFromUser: Seq, Checksum of 96 B, Window, TDriver -> Seg2Net (PAU, Net), "
	       "FEC; MsgFromUser: 1000 B in 11 fragments)\n");
	for (v = 0; v < NR_VARIANTS; v++)
		ctp_close(&s[v]);
	return 0;
}

/* Messages per second through both sides of the link. */
static double e2e_rate(struct ctp_stack *s, int msgs)
{
	uint64_t t0 = bench_ns();
	int i;

	s->c->msg_off = 0;
	for (i = 0; i < msgs; i++) {
		if (ctp_send(s, payload, 1000))
			return 0;
		if (i % 8 == 7)
			ctp_tick(s);
	}
	return msgs / ((double)(bench_ns() - t0) / 1e9);
}

static int bench_e2e(void)
{
	struct spec_event *stats4[NR_VARIANTS];
	struct ctp_stack s[NR_VARIANTS];
	double rate[NR_VARIANTS] = {0};
	int v, ret, rep;

	printf("\nend to end: 1000-byte messages sent, fragmented, checked, FEC'd, delivered and\n"
	       "acknowledged over the in-memory link (msgs/s, best of 10 interleaved runs of "
	       "400)\n");
	for (v = 0; v < FUSED; v++) {
		ret = open_variant(&s[v], v, &stats4[v]);
		if (ret)
			return ret;
	}
	/* Round-robin, so load from elsewhere hits every variant alike. */
	for (rep = 0; rep < 10; rep++) {
		for (v = 0; v < FUSED; v++) {
			double r = e2e_rate(&s[v], 400);

			rate[v] = r > rate[v] ? r : rate[v];
		}
	}
	for (v = 0; v < FUSED; v++)
		ctp_close(&s[v]);
	printf("generic %.0f, merged %.0f (%+.1f%%), merged+subsumed %.0f (%+.1f%%)   paper: "
	       "overall time -2..-13%%\n",
	       rate[GENERIC], rate[MERGED_FLAT], 100.0 * (rate[MERGED_FLAT] / rate[GENERIC] - 1),
	       rate[MERGED], 100.0 * (rate[MERGED] / rate[GENERIC] - 1));
	return 0;
}

int main(int argc, char **argv)
{
	bool all = argc < 2, ok = true;
	int i;

	for (i = 0; i < (int)sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 31 + 7);
	printf("libspec events benchmark: CTP (examples/ctp), IR %s\n", CTP_IR);
	for (i = 1; i < argc || all; i++) {
		const char *what = all ? NULL : argv[i];

		if (!what || !strcmp(what, "events"))
			ok &= !bench_per_event();
		if (!what || !strcmp(what, "e2e"))
			ok &= !bench_e2e();
		if (!what || !strcmp(what, "rebind"))
			ok &= !bench_rebind(CTP_IR);
		if (!what || !strcmp(what, "size"))
			ok &= !bench_size(CTP_IR);
		if (all)
			break;
	}
	return ok ? 0 : 1;
}
