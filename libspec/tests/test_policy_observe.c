// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive policy with an observation phase: the generic point "pg" is
 * sampled while the test calls the handler, and the value that dominates
 * the calls becomes a candidate constant (fake clock, real JIT).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "policy/policy_exhaustive.h"
#include "testutil.h"

typedef long (*stride_fn)(long, long);

struct world {
	struct spec_runtime *rt;
	uint64_t now;
	int chosen;
	char chosen_text[64];
};

static uint64_t world_clock(void *ctx)
{
	return ((struct world *)ctx)->now;
}

static int64_t installed(struct world *w, const char *label)
{
	struct spec_config *cfg;
	int64_t v = 0;
	char text[128];

	assert_true(spec_runtime__current(w->rt, text, sizeof(text)) >= 0);
	cfg = spec_config__parse(text);
	assert_non_null(cfg);
	if (spec_config__get_value(cfg, label, &v) != 1)
		v = 0;
	spec_config__free(cfg);
	return v;
}

/* Best: pk=3, and better still with pg specialized to 7. */
static double metric(void *ctx)
{
	struct world *w = ctx;
	static const double by_pk[] = {0, 10, 30, 100, 20};

	return by_pk[installed(w, "pk")] + (installed(w, "pg") == 7 ? 50 : 0);
}

static void report(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	struct world *w = ctx;

	if (ev == SPEC_POLICY_CHOSEN) {
		w->chosen++;
		snprintf(w->chosen_text, sizeof(w->chosen_text), "%s", r->text);
	}
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	if (!w)
		return -1;
	w->rt = tu_open("policy_points");
	if (!w->rt || spec_runtime__load(w->rt)) {
		spec_runtime__close(w->rt);
		free(w);
		return -1;
	}
	w->now = 1000000000ull;
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	spec_runtime__close(w->rt);
	free(w);
	return 0;
}

static struct spec_policy_exhaustive *observing_policy(struct world *w)
{
	static const char *const only_pk[] = {"pk"}, *const obs[] = {"pg"};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = metric, .metric_ctx = w,
		     .labels = only_pk, .nr_labels = 1, .observe_labels = obs,
		     .nr_observe_labels = 1, .observe_every = 1, .observe_ns = 50000000,
		     .clock = world_clock, .clock_ctx = w, .report = report, .report_ctx = w);
	struct spec_policy_exhaustive *p = spec_policy_exhaustive__new(w->rt, &o);

	if (!p)
		fail_msg("policy: %s (%s)", strerror(errno), tu_last_msg());
	return p;
}

/* Step until the observation phase is open; return its end. */
static void open_observation(struct spec_policy_exhaustive *p, struct world *w)
{
	uint64_t next;

	assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
	assert_int_equal(next, w->now + 50000000);
	assert_int_equal(installed(w, "pk"), 0); /* the generic variant samples */
}

/* @n calls, @n_seven of them with g = 7 and the rest with g = 9. */
static void serve(struct world *w, int n, int n_seven)
{
	stride_fn stride = (stride_fn)spec_runtime__handler(w->rt, "policy_stride");
	int i;

	assert_non_null(stride);
	for (i = 0; i < n; i++) {
		long g = i < n_seven ? 7 : 9;

		assert_int_equal(stride(i, g), i * g + 1);
	}
}

static void finish(struct spec_policy_exhaustive *p, struct world *w)
{
	uint64_t next;
	int i;

	for (i = 0; i < 1000 && !w->chosen; i++) {
		assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
		if (next > w->now)
			w->now = next;
	}
	assert_int_equal(w->chosen, 1);
}

static void test_policy_observe_dominant_value_becomes_candidate(void **state)
{
	struct world *w = *state;
	struct spec_policy_exhaustive *p = observing_policy(w);
	stride_fn stride = (stride_fn)spec_runtime__handler(w->rt, "policy_stride");

	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 4);
	open_observation(p, w);
	serve(w, 1000, 900);
	w->now += 50000000;
	finish(p, w);
	/* pk (4 values) x pg (not set, 7); 9 was only 10% of the calls */
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 8);
	assert_string_equal(w->chosen_text, "pg=7,pk=3");
	assert_int_equal(installed(w, "pg"), 7);
	/* The guard on pg keeps the other 10% right. */
	assert_int_equal(stride(5, 7), 36);
	assert_int_equal(stride(5, 9), 46);
	spec_policy_exhaustive__free(p);
}

static void test_policy_observe_no_dominant_value(void **state)
{
	struct world *w = *state;
	struct spec_policy_exhaustive *p = observing_policy(w);

	open_observation(p, w);
	serve(w, 1000, 600); /* 60% < the default share of 70% */
	w->now += 50000000;
	finish(p, w);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 4);
	assert_string_equal(w->chosen_text, "pk=3");
	spec_policy_exhaustive__free(p);
}

static void test_policy_observe_nothing_seen(void **state)
{
	struct world *w = *state;
	struct spec_policy_exhaustive *p = observing_policy(w);

	open_observation(p, w);
	w->now += 50000000; /* no call during the observation */
	finish(p, w);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 4);
	assert_string_equal(w->chosen_text, "pk=3");
	spec_policy_exhaustive__free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_policy_observe_dominant_value_becomes_candidate, setup, teardown),
		cmocka_unit_test_setup_teardown(test_policy_observe_no_dominant_value, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_policy_observe_nothing_seen, setup, teardown),
	};

	return cmocka_run_group_tests_name("policy_observe", tests, NULL, NULL);
}
