// SPDX-License-Identifier: GPL-2.0
/*
 * Exhaustive policy, before any step: which candidates a space and its opts
 * give (product, extras, duplicates, guards), and how bad opts are refused
 * with an errno and a message naming the opt.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "policy/policy_exhaustive.h"
#include "testutil.h"

static double zero_metric(void *ctx)
{
	(void)ctx;
	return 0;
}

struct seen {
	char text[64][64];
	int n;
};

static void remember(void *ctx, enum spec_policy_event ev, const struct spec_policy_result *r)
{
	struct seen *s = ctx;

	if (ev == SPEC_POLICY_MEASURED && s->n < 64)
		snprintf(s->text[s->n++], sizeof(s->text[0]), "%s", r->text);
}

static int setup(void **state)
{
	struct spec_runtime *rt = tu_open("policy_points");

	*state = rt;
	return rt ? 0 : -1;
}

static int teardown(void **state)
{
	spec_runtime__close(*state);
	return 0;
}

/* Candidates of @o, or -errno. */
static long count(struct spec_runtime *rt, const struct spec_policy_exhaustive_opts *o)
{
	struct spec_policy_exhaustive *p = spec_policy_exhaustive__new(rt, o);
	long n = p ? (long)spec_policy_exhaustive__nr_candidates(p) : -errno;

	spec_policy_exhaustive__free(p);
	return n;
}

static void test_policy_space_is_product_of_enumerable_points(void **state)
{
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = zero_metric);

	/* pk: 4 values, pr: 4 values, pa: off/on; pg generic, pc custom: left out */
	assert_int_equal(count(*state, &o), 32);
	o.include_generic = true;
	assert_int_equal(count(*state, &o), 33);
	o.max_range_values = 3; /* pr [0, 3] no longer enumerated */
	assert_int_equal(count(*state, &o), 9);
}

static void test_policy_space_crosses_extra_and_drops_duplicates(void **state)
{
	static const char *const only_pk[] = {"pk"};
	struct spec_config *none = spec_config__new(), *g7 = spec_config__parse("pg=7");
	struct spec_config *pk2 = spec_config__parse("pk=2");
	const struct spec_config *extra[3] = {none, g7, none};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = zero_metric, .labels = only_pk,
		     .nr_labels = 1, .extra = extra, .nr_extra = 2);

	assert_int_equal(count(*state, &o), 8);
	o.nr_extra = 3; /* the second empty extra adds nothing new */
	assert_int_equal(count(*state, &o), 8);
	/* an extra that sets pk itself wins: every product point collapses */
	extra[0] = pk2;
	o.nr_extra = 1;
	assert_int_equal(count(*state, &o), 1);
	spec_config__free(none);
	spec_config__free(g7);
	spec_config__free(pk2);
}

static void test_policy_space_order_and_noguard(void **state)
{
	static const char *const labels[] = {"pk", "pa"}, *const free_pk[] = {"pk"};
	struct seen s = {.n = 0};
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = zero_metric, .labels = labels,
		     .nr_labels = 2, .noguard_labels = free_pk, .nr_noguard_labels = 1,
		     .dwell_ns = 1000, .report = remember, .report_ctx = &s);
	struct spec_policy_exhaustive *p = spec_policy_exhaustive__new(*state, &o);
	uint64_t next;
	int i;

	assert_non_null(p);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(p), 8);
	for (i = 0; i < 100000 && s.n < 8; i++)
		assert_int_equal(spec_policy_exhaustive__step(p, &next), 0);
	assert_int_equal(s.n, 8);
	/* first label varies slowest; pk's guard off, pa's assumption guarded */
	assert_string_equal(s.text[0], "pk=1!noguard");
	assert_string_equal(s.text[1], "pa+,pk=1!noguard");
	assert_string_equal(s.text[2], "pk=2!noguard");
	assert_string_equal(s.text[7], "pa+,pk=4!noguard");
	spec_policy_exhaustive__free(p);
}

struct bad_case {
	const char *desc;
	int err;
	const char *msg; /* part of the logged message */
};

static void expect_refused(struct spec_runtime *rt, const struct spec_policy_exhaustive_opts *o,
			   const struct bad_case *c)
{
	struct spec_policy_exhaustive *p;

	tu_capture();
	p = spec_policy_exhaustive__new(rt, o);
	if (p) {
		spec_policy_exhaustive__free(p);
		fail_msg("%s: accepted", c->desc);
	}
	if (errno != c->err)
		fail_msg("%s: errno %d, expected %d", c->desc, errno, c->err);
	if (c->msg && !strstr(tu_last_msg(), c->msg))
		fail_msg("%s: message '%s' lacks '%s'", c->desc, tu_last_msg(), c->msg);
}

static void test_policy_bad_opts_are_refused(void **state)
{
	static const char *const unknown[] = {"nope"}, *const generic[] = {"pg"};
	static const char *const twice[] = {"pk", "pk"}, *const assume[] = {"pa"};
	struct spec_config *bad_extra = spec_config__parse("pk=2,zz=1");
	const struct spec_config *extra[1] = {bad_extra};
	struct {
		struct spec_policy_exhaustive_opts o;
		char more[16];
	} big;
	LIBSPEC_OPTS(spec_policy_exhaustive_opts, o, .metric = zero_metric);
	struct spec_policy_exhaustive_opts b;

	assert_non_null(bad_extra);
	/* No runtime to inherit from: the opts' callback hears it. */
	b = o, b.print = tu_print;
	expect_refused(NULL, &b, &(struct bad_case){"NULL runtime", EINVAL, "runtime"});
	b = o, b.metric = NULL;
	expect_refused(*state, &b, &(struct bad_case){"no metric", EINVAL, "metric"});
	b = o, b.threshold = -0.1;
	expect_refused(*state, &b, &(struct bad_case){"negative threshold", EINVAL, "threshold"});
	b = o, b.threshold = NAN;
	expect_refused(*state, &b, &(struct bad_case){"NaN threshold", EINVAL, "threshold"});
	b = o, b.metric_mode = (enum spec_metric_mode)7;
	expect_refused(*state, &b, &(struct bad_case){"bad mode", EINVAL, "metric_mode"});
	b = o, b.labels = unknown, b.nr_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"unknown label", ENOENT, "'nope'"});
	b = o, b.labels = generic, b.nr_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"generic label", EINVAL, "'pg'"});
	b = o, b.labels = twice, b.nr_labels = 2;
	expect_refused(*state, &b, &(struct bad_case){"label twice", EINVAL, "twice"});
	b = o, b.labels = NULL, b.nr_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"NULL labels", EINVAL, "labels"});
	b = o, b.noguard_labels = unknown, b.nr_noguard_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"unknown noguard", ENOENT, "noguard"});
	b = o, b.observe_labels = unknown, b.nr_observe_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"unknown observe", ENOENT, "observe"});
	b = o, b.observe_labels = assume, b.nr_observe_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"observe assume", EINVAL, "value point"});
	b = o, b.observe_labels = twice, b.nr_observe_labels = 1, b.labels = twice, b.nr_labels = 1;
	expect_refused(*state, &b, &(struct bad_case){"observe listed", EINVAL, "in labels"});
	b = o, b.windows = 16;
	expect_refused(*state, &b, &(struct bad_case){"16 windows", EINVAL, "windows"});
	b = o, b.observe_share = 1.5;
	expect_refused(*state, &b, &(struct bad_case){"share > 1", EINVAL, "observe_share"});
	b = o, b.extra = extra, b.nr_extra = 1;
	expect_refused(*state, &b, &(struct bad_case){"unknown extra", ENOENT, "extra[0]"});
	b = o, b.max_candidates = 31;
	expect_refused(*state, &b, &(struct bad_case){"too many", E2BIG, "max_candidates"});
	b = o, b.sz = 4;
	expect_refused(*state, &b, &(struct bad_case){"tiny sz", EINVAL, NULL});
	memset(&big, 0, sizeof(big));
	big.o = o;
	big.o.sz = sizeof(big);
	big.more[3] = 1; /* a field this version does not know, set */
	expect_refused(*state, &big.o, &(struct bad_case){"unknown field", EINVAL, NULL});
	big.more[3] = 0; /* zero past the known fields is fine */
	assert_int_equal(count(*state, &big.o), 32);
	spec_config__free(bad_extra);
}

static void test_policy_null_arguments(void **state)
{
	(void)state;
	assert_int_equal(spec_policy_exhaustive__step(NULL, NULL), -EINVAL);
	assert_int_equal(spec_policy_exhaustive__best(NULL, NULL, NULL), -EINVAL);
	assert_int_equal(spec_policy_exhaustive__run(NULL), -EINVAL);
	assert_int_equal(spec_policy_exhaustive__nr_candidates(NULL), 0);
	spec_policy_exhaustive__stop(NULL);
	spec_policy_exhaustive__explore(NULL);
	spec_policy_exhaustive__free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy_space_is_product_of_enumerable_points),
		cmocka_unit_test(test_policy_space_crosses_extra_and_drops_duplicates),
		cmocka_unit_test(test_policy_space_order_and_noguard),
		cmocka_unit_test(test_policy_bad_opts_are_refused),
		cmocka_unit_test(test_policy_null_arguments),
	};

	return cmocka_run_group_tests_name("policy_space", tests, setup, teardown);
}
