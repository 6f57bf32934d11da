// SPDX-License-Identifier: GPL-2.0
/*
 * libspec's exhaustive policy on ioca.ko's counter metric, in the test VM
 * (TAP): a worker calls the JIT-compiled vm_probe() (policy_vm_handler.c)
 * in a loop, counting operations; the real policy (<libspec/policy.h>)
 * searches its point "rounds" (1, 64 or 4096 dependent loads per
 * operation) with spec_counters__read() as the metric:
 * SPEC_COUNTERS_LLC_MISSES_PER_OP, negated, so the policy maximizes
 * "fewest misses per operation". On hardware that is LLC misses; under
 * QEMU TCG the module counts its software fallback (cpu-clock) for the
 * missing hardware events, so the metric is CPU time per operation. Either
 * way the candidates' order is certain: rounds=1 costs least.
 *
 * The search must measure every candidate, score them in that order,
 * choose rounds=1 and leave it installed. Then the mutation: the same
 * search with the metric inverted (not negated) must choose rounds=4096
 * and install it, which the handler's result proves (it depends on R). A
 * metric that did not follow the code (constant, noise, the wrong sign)
 * fails one of the two searches.
 *
 * Run as root in the guest of selftests/libspec/vmrun.sh (host binaries
 * over a 9p view of the host's root), ioca.ko loaded: policy_vm_test IR.
 * Exits with the number of failed checks.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libioca.h>

#include "libspec/libspec.h"
#include "libspec/metric.h"
#include "libspec/policy.h"

typedef uint64_t (*probe_fn)(const uint64_t *tab, uint64_t mask, uint64_t x, int rounds);

enum { NR_ROUNDS = 3 };
static const int64_t rounds_of[NR_ROUNDS] = {1, 64, 4096};
/* 4 Mi entries, 32 MiB: larger than the LLC of the machines ioca targets */
#define TAB_ENTRIES (1u << 22)
/* a search takes a few seconds; this only bounds a broken one */
#define SEARCH_BOUND_NS (150ull * 1000000000ull)

static int nr_tests, nr_failed;

__attribute__((format(printf, 2, 3))) static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++nr_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	nr_failed += !ok;
}

/* What vm_probe() computes for R rounds (the source's loop, natively). */
static uint64_t probe_ref(const uint64_t *tab, uint64_t mask, uint64_t x, int64_t r)
{
	for (int64_t i = 0; i < r; i++)
		x = tab[(x * 0x9e3779b97f4a7c15ull >> 17) & mask] ^ (x + (uint64_t)i);
	return x;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

struct worker {
	probe_fn fn;
	const uint64_t *tab;
	_Atomic uint64_t ops;
	atomic_bool stop;
	volatile uint64_t sink;
};

/* The service: one operation after another through the stable handler. */
static void *worker_main(void *arg)
{
	struct worker *w = arg;
	uint64_t x = 1;

	while (!atomic_load_explicit(&w->stop, memory_order_relaxed)) {
		x = w->fn(w->tab, TAB_ENTRIES - 1, x, 1);
		atomic_fetch_add_explicit(&w->ops, 1, memory_order_relaxed);
	}
	w->sink = x;
	return NULL;
}

/* One search's view through the report callback. */
struct search {
	double score[NR_ROUNDS];
	int measured[NR_ROUNDS]; /* candidates measured, per rounds value */
	int nr_measured, nr_errors;
	int64_t chosen; /* rounds of SPEC_POLICY_CHOSEN, 0 before */
};

static int rounds_index(int64_t r)
{
	for (int i = 0; i < NR_ROUNDS; i++)
		if (rounds_of[i] == r)
			return i;
	return -1;
}

static void on_report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *res)
{
	struct search *s = ctx;
	int64_t r = 0;
	int i;

	if (ev != SPEC_POLICY_MEASURED && ev != SPEC_POLICY_CHOSEN)
		return;
	if (spec_config__get_value(res->cfg, "rounds", &r) != 1)
		r = 0;
	if (ev == SPEC_POLICY_CHOSEN) {
		printf("# chosen: %s (score %g)\n", res->text, res->score);
		s->chosen = r;
		return;
	}
	printf("# measured: %s score %g%s\n", res->text, res->score, res->err ? " (failed)" : "");
	s->nr_measured++;
	s->nr_errors += res->err != 0;
	i = rounds_index(r);
	if (i >= 0) {
		s->measured[i]++;
		s->score[i] = res->score;
	}
}

/* The sampler's events as the module counts them (fallbacks under TCG). */
static void show_events(void)
{
	struct ioca_client *c = ioca_client__open(NULL);
	struct ioca_info *in = calloc(1, sizeof(*in));

	if (c && in && !ioca_client__info(c, in)) {
		printf("# hw counters: %s, fallback kind %u; sampler events:",
		       in->hw_counters ? "yes" : "no", in->fallback_kind);
		for (uint32_t i = 0; i < in->sampler.nevents; i++)
			printf(" kind %u->%u", in->sampler.events[i].kind,
			       in->sampler.events[i].effective_kind);
		printf("\n");
	}
	free(in);
	ioca_client__close(c);
}

/*
 * One exhaustive search of "rounds" on the counter metric, negated or not;
 * drives step() until the choice (bounded). Returns -errno of a setup
 * step, else 0 with @s filled.
 */
static int search(struct spec_runtime *rt, struct worker *w, bool negate, struct search *s)
{
	static const char *const labels[] = {"rounds"};
	LIBSPEC_OPTS(spec_counters_opts, co, .configure = true, .interval_us = 20000,
		     .ops = &w->ops, .negate = negate, .timeout_ms = 1000);
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, po, .metric = spec_counters__read,
		     .metric_mode = SPEC_METRIC_WINDOW, .dwell_ns = 200000000, .windows = 3,
		     .warmup_ns = 50000000, .labels = labels, .nr_labels = 1,
		     .noguard_labels = labels, .nr_noguard_labels = 1, .report = on_report,
		     .report_ctx = s);
	struct spec_policy_exhaustive *p;
	struct spec_counters *m;
	uint64_t start, next = 0, t;
	int err = 0;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < NR_ROUNDS; i++)
		s->score[i] = NAN;
	m = spec_counters__open(SPEC_COUNTERS_LLC_MISSES_PER_OP, &co);
	if (!m)
		return -errno;
	show_events();
	po.metric_ctx = m;
	p = spec_policy_exhaustive__new(rt, &po);
	if (!p) {
		err = -errno;
		goto out_close;
	}
	start = now_ns();
	while (!s->chosen && (t = now_ns()) - start < SEARCH_BOUND_NS) {
		if (t >= next) {
			err = spec_policy_exhaustive__step(p, &next);
			if (err)
				break;
			continue;
		}
		/* sleep until the next step, at most 50 ms at a time */
		t = next - t < 50000000 ? next - t : 50000000;
		nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = (long)t}, NULL);
	}
	printf("# search (%snegated) took %.1f s, %llu samples\n", negate ? "" : "not ",
	       (double)(now_ns() - start) / 1e9, (unsigned long long)spec_counters__samples(m));
	spec_policy_exhaustive__free(p);
out_close:
	spec_counters__close(m);
	return err;
}

static bool all_measured(const struct search *s)
{
	bool ok = s->nr_measured == NR_ROUNDS && !s->nr_errors;

	for (int i = 0; i < NR_ROUNDS; i++)
		ok = ok && s->measured[i] == 1 && isfinite(s->score[i]);
	return ok;
}

/*
 * The handler's result now: the installed variant runs R = @r, no other
 * candidate's R (the last one measured, or the generic default rounds=1,
 * would give another result). The call passes rounds=1: a noguard variant
 * ignores it.
 */
static void installed_runs(struct worker *w, int64_t r, const char *what)
{
	uint64_t got = w->fn(w->tab, TAB_ENTRIES - 1, 12345, 1);
	uint64_t want = probe_ref(w->tab, TAB_ENTRIES - 1, 12345, r);
	bool other = false;

	for (int i = 0; i < NR_ROUNDS; i++)
		other = other || (rounds_of[i] != r &&
				  got == probe_ref(w->tab, TAB_ENTRIES - 1, 12345, rounds_of[i]));
	check(got == want && !other,
	      "%s: the installed variant computes rounds=%lld (0x%llx, want 0x%llx)", what,
	      (long long)r, (unsigned long long)got, (unsigned long long)want);
}

static int run(const char *ir, struct worker *w)
{
	struct spec_runtime *rt;
	struct search s;
	pthread_t th;
	int err;

	rt = spec_runtime__open(ir, NULL);
	w->fn = rt ? (probe_fn)spec_runtime__handler(rt, "vm_probe") : NULL;
	check(w->fn != NULL, "the runtime opens %s and JIT-compiles vm_probe (%s)", ir,
	      w->fn ? "ok" : strerror(errno));
	if (!w->fn) {
		spec_runtime__close(rt);
		return -1;
	}
	err = pthread_create(&th, NULL, worker_main, w);
	check(!err, "the worker runs (%s)", strerror(err));
	if (err) {
		spec_runtime__close(rt);
		return -1;
	}

	/* Arrange: fewest misses (CPU time) per operation is the maximum. */
	err = search(rt, w, true, &s);
	check(!err,
	      "search on -misses/op: counters and policy set up, a choice within the bound (%s)",
	      strerror(-err));
	check(all_measured(&s),
	      "search on -misses/op: every candidate measured once, finite (%d measured, %d "
	      "failed)",
	      s.nr_measured, s.nr_errors);
	check(s.score[0] > s.score[1] && s.score[1] > s.score[2],
	      "search on -misses/op: scores fall with the work per op (1: %g, 64: %g, 4096: %g)",
	      s.score[0], s.score[1], s.score[2]);
	check(s.chosen == 1, "search on -misses/op: the policy chooses rounds=1 (chose %lld)",
	      (long long)s.chosen);
	installed_runs(w, 1, "search on -misses/op");

	/* Mutation: the metric inverted, the same search must turn around. */
	err = search(rt, w, false, &s);
	check(!err, "inverted search on +misses/op: set up, a choice within the bound (%s)",
	      strerror(-err));
	check(all_measured(&s),
	      "inverted search: every candidate measured once, finite (%d measured, %d failed)",
	      s.nr_measured, s.nr_errors);
	check(s.chosen == 4096,
	      "inverted search: the policy chooses rounds=4096 instead (chose %lld)",
	      (long long)s.chosen);
	installed_runs(w, 4096, "inverted search");

	atomic_store(&w->stop, true);
	pthread_join(th, NULL);
	printf("# %llu operations\n", (unsigned long long)atomic_load(&w->ops));
	spec_runtime__close(rt);
	return 0;
}

int main(int argc, char **argv)
{
	struct worker *w = calloc(1, sizeof(*w));
	uint64_t *tab = malloc(TAB_ENTRIES * sizeof(*tab));
	uint64_t x = 88172645463325252ull;
	enum { PLAN = 11 };

	printf("1..%d\n", PLAN);
	fflush(stdout);
	if (argc != 2 || !w || !tab) {
		fprintf(stderr, "usage: policy_vm_test HANDLER_IR\n");
		return PLAN;
	}
	for (uint32_t i = 0; i < TAB_ENTRIES; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		tab[i] = x;
	}
	w->tab = tab;
	if (run(argv[1], w))
		nr_failed += PLAN - nr_tests;
	free(tab);
	free(w);
	return nr_failed;
}
