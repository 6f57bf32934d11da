// SPDX-License-Identifier: GPL-2.0
/*
 * The fast path's size as a dimension a policy searches: the exhaustive
 * policy measures FP of 1, 2, 4 and 8 hot destinations, NI, and NI-FP of 4,
 * by lookups/s of a worker thread on workload B, and installs the best.
 * The sizes are generator parameters (lpm4=<table>/<param>), so each is its
 * own configuration and cache entry.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <libspec/policy.h>

#include "bench_lpm.h"
#include "lpm_gen.h"

#define EVERY 64 /* candidates keep sampling: the hot set stays known */

struct worker {
	void *f;
	const struct workload *w;
	_Atomic uint64_t lookups;
	_Atomic bool stop;
};

static void *work(void *arg)
{
	struct worker *k = arg;
	long (*f)(const struct lpm *, uint32_t) = (long (*)(const struct lpm *, uint32_t))k->f;
	volatile long sink = 0;
	size_t i = 0;

	while (!atomic_load_explicit(&k->stop, memory_order_relaxed)) {
		int j;

		for (j = 0; j < 1024; j++, i++)
			sink += f(k->w->t, (uint32_t)k->w->stream[i % WORKLOAD_STREAM]);
		atomic_fetch_add_explicit(&k->lookups, 1024, memory_order_relaxed);
	}
	(void)sink;
	return NULL;
}

static double lookups(void *ctx)
{
	return (double)atomic_load(&((struct worker *)ctx)->lookups);
}

static void report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	(void)ctx;
	if (ev == SPEC_POLICY_MEASURED && !r->err)
		printf("  %-40s %8.2f Mlookups/s\n", strchr(r->text, '/') ?: r->text,
		       r->score / 1e6);
	else if (ev == SPEC_POLICY_MEASURED)
		printf("  %-40s failed: %s\n", r->text, strerror(-r->err));
	else if (ev == SPEC_POLICY_CHOSEN)
		printf("  chose %s\n", strchr(r->text, '/') ?: r->text);
}

int bench_policy(struct spec_runtime *rt)
{
	static const int64_t params[] = {
		LPM_GEN_FP(1), LPM_GEN_FP(2), LPM_GEN_FP(4),
		LPM_GEN_FP(8), LPM_GEN_NI,    LPM_GEN_NI | LPM_GEN_FP(4),
	};
	const size_t n = sizeof(params) / sizeof(params[0]);
	struct spec_config *cand[sizeof(params) / sizeof(params[0])] = {0};
	struct worker k = {.f = spec_runtime__handler(rt, "route4")};
	struct spec_policy_exhaustive *pol = NULL;
	struct timespec ts;
	struct workload w;
	pthread_t th;
	size_t i, step;
	int ret = -1;

	if (!k.f || workload_init(&w, 32, 'B', 1000, 8, 5))
		return -1;
	k.w = &w;
	for (i = 0; i < n; i++) {
		cand[i] = lpm_gen_config("lpm4", w.t, params[i], EVERY);
		if (!cand[i])
			goto out;
	}
	printf("Policy over the fast path's size (IPv4 B, 8 hot destinations; the parameter "
	       "after '/': FP size, 65536 = NI)\n");
	spec_runtime__invalidate(rt, "lpm4", NULL);
	if (bench_specialize(rt, "lpm4", &w, 0, 1))
		goto out;
	bench_rate(k.f, &w, 20000); /* the instrumentation phase */
	{
		LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = lookups, .metric_ctx = &k,
			     .metric_mode = SPEC_METRIC_COUNTER, .dwell_ns = 200000000,
			     .warmup_ns = 20000000, .windows = 3,
			     .extra = (const struct spec_config *const *)cand, .nr_extra = n,
			     .report = report);

		pol = spec_policy_exhaustive__new(rt, &o);
	}
	if (!pol || pthread_create(&th, NULL, work, &k))
		goto out;
	/* Step the policy here until it has chosen (about n x 0.7 s). */
	for (step = 0; step < 10000; step++) {
		uint64_t next = 0, now;

		spec_policy_exhaustive__step(pol, &next);
		if (!spec_policy_exhaustive__best(pol, NULL, NULL))
			break;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
		if (next > now) {
			uint64_t d = next - now < 100000000 ? next - now : 100000000;

			ts = (struct timespec){0, (long)d};
			nanosleep(&ts, NULL);
		}
	}
	atomic_store(&k.stop, true);
	pthread_join(th, NULL);
	ret = 0;
out:
	spec_policy_exhaustive__free(pol);
	for (i = 0; i < n; i++)
		spec_config__free(cand[i]);
	workload_fini(&w);
	return ret;
}
