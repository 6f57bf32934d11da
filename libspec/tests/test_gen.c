// SPDX-License-Identifier: GPL-2.0
/*
 * spec_gen() points, differentially: every variant a generator makes must
 * answer what the natively compiled handler answers, on random tables and
 * inputs (32- and 128-bit keys, two inputs, ranges, dense tables, the hot
 * inputs' fast path, thousands of rules), for the table it was compiled
 * for and for any other; invalidation must keep stale code out.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "libspec/gen.h"
#include "libspec/policy.h"
#include "testutil.h"
#include "handlers/gen.h"

#define ROUNDS 3000

/* ---- fixed code the handlers call (also the reference) ----------------- */

static long match(const struct gen_table *t, unsigned __int128 x)
{
	int best = -1;
	long out = t->dflt;
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct gen_rule *r = &t->r[i];
		int bits = __builtin_popcountll((uint64_t)r->mask) +
			   __builtin_popcountll((uint64_t)(r->mask >> 64));

		if ((x & r->mask) == r->value && bits > best) {
			best = bits;
			out = r->out;
		}
	}
	return out;
}

long gen_match32(const struct gen_table *t, uint32_t x)
{
	return match(t, x);
}

long gen_match128(const struct gen_table *t, unsigned __int128 x)
{
	return match(t, x);
}

long gen_two(const struct gen_table *t, uint32_t a, uint16_t b)
{
	(void)t;
	return (long)a * 3 + b;
}

long gen_in_ranges(const struct gen_ranges *r, uint32_t x)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->lo[i] <= x && x <= r->hi[i])
			return r->out[i];
	}
	return -1;
}

/* ---- generators --------------------------------------------------------- */

enum gen_mode { MASKED, HOT_FAST_PATH, TWO_INPUTS, RANGES, TABLE, FAILING };

struct gen_ctx {
	enum gen_mode mode;
	long hot_offset; /* added to fast-path answers: proves they are compiled */
	int calls;
};

static struct spec_u128 u128(unsigned __int128 v)
{
	return (struct spec_u128){(uint64_t)v, (uint64_t)(v >> 64)};
}

static int gen_masked(struct spec_gen *g)
{
	const struct gen_table *t = spec_gen__data(g);
	struct spec_gen_mask *m = calloc(t->n + 1, sizeof(*m));
	size_t i;
	int ret;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < t->n; i++)
		m[i] = (struct spec_gen_mask){u128(t->r[i].mask), u128(t->r[i].value), t->r[i].out};
	ret = spec_gen__masked(g, 0, m, t->n);
	free(m);
	if (!ret)
		ret = spec_gen__default_value(g, t->dflt);
	return ret;
}

static int gen_hot(struct spec_gen *g, long offset)
{
	size_t n, i;
	struct spec_gen_exact *c;
	int ret;

	spec_gen__hot(g, &n);
	c = calloc(n + 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct spec_observed *h = spec_gen__hot_at(g, i);

		c[i].key = (struct spec_u128){(uint64_t)h->value, (uint64_t)h->value_hi};
		c[i].out = h->out + offset;
	}
	assert_null(spec_gen__hot_at(g, n));
	ret = spec_gen__exact(g, 0, c, n);
	free(c);
	return ret; /* misses: the generic function */
}

static int gen_two_inputs(struct spec_gen *g)
{
	LLVMBuilderRef b = spec_gen__builder(g);
	LLVMTypeRef i64 =
		LLVMInt64TypeInContext(LLVMGetTypeContext(LLVMTypeOf(spec_gen__input(g, 0))));
	LLVMValueRef a = LLVMBuildZExt(b, spec_gen__input(g, 0), i64, "");
	LLVMValueRef c = LLVMBuildZExt(b, spec_gen__input(g, 1), i64, "");

	if (spec_gen__nr_inputs(g) != 2 || spec_gen__input_bits(g, 1) > 32)
		return -EINVAL;
	return spec_gen__yield(
		g, LLVMBuildAdd(b, LLVMBuildMul(b, a, LLVMConstInt(i64, 3, 0), ""), c, ""));
}

static int gen_ranges(struct spec_gen *g, bool dense)
{
	const struct gen_ranges *r = spec_gen__data(g);
	struct spec_gen_range *rg = calloc(r->n + 1, sizeof(*rg));
	int64_t *out = calloc(r->n + 1, sizeof(*out));
	size_t i;
	int ret;

	if (!rg || !out) {
		free(rg);
		free(out);
		return -ENOMEM;
	}
	for (i = 0; i < r->n; i++) {
		rg[i] = (struct spec_gen_range){{r->lo[i], 0}, {r->hi[i], 0}, r->out[i]};
		out[i] = r->out[i];
	}
	/* Dense: ranges of width one starting at lo[0], one table load. */
	ret = dense ? spec_gen__table(g, 0, r->lo[0], out, r->n) : spec_gen__ranges(g, 0, rg, r->n);
	free(rg);
	free(out);
	if (!ret)
		ret = spec_gen__default_value(g, -1);
	return ret;
}

static int generate(void *arg, struct spec_gen *g)
{
	struct gen_ctx *c = arg;

	c->calls++;
	switch (c->mode) {
	case MASKED:
		return gen_masked(g);
	case HOT_FAST_PATH:
		return gen_hot(g, c->hot_offset);
	case TWO_INPUTS:
		return gen_two_inputs(g);
	case RANGES:
		return gen_ranges(g, false);
	case TABLE:
		return gen_ranges(g, true);
	case FAILING:
		break;
	}
	return -EPROTO;
}

/* ---- random tables ------------------------------------------------------ */

static unsigned __int128 prefix_mask(int len, int width)
{
	unsigned __int128 all =
		width == 128 ? ~(unsigned __int128)0 : (((unsigned __int128)1 << width) - 1);

	return len ? all & ~((((unsigned __int128)1) << (width - len)) - 1) : 0;
}

static unsigned __int128 rnd128(uint64_t *s)
{
	return ((unsigned __int128)tu_rand(s) << 64) | tu_rand(s);
}

/* Prefix rules (they nest or are disjoint); some duplicates on purpose. */
static void random_table(struct gen_table *t, size_t n, int width, uint64_t *s)
{
	size_t i;

	t->n = n;
	t->r = calloc(n, sizeof(*t->r));
	t->dflt = -7;
	for (i = 0; i < n; i++) {
		int len = (int)(tu_rand(s) % (unsigned)(width + 1));
		unsigned __int128 m = prefix_mask(len, width);

		if (i && tu_rand(s) % 8 == 0) {
			t->r[i] = t->r[tu_rand(s) % i];
			t->r[i].out = (long)(tu_rand(s) % 1000);
			continue;
		}
		t->r[i].mask = m;
		t->r[i].value = rnd128(s) & m;
		t->r[i].out = (long)(tu_rand(s) % 1000);
	}
}

/* An input that falls under rule r (most of the time a specific one). */
static unsigned __int128 input_for(const struct gen_table *t, int width, uint64_t *s)
{
	unsigned __int128 x = rnd128(s) & prefix_mask(width, width);

	if (t->n && tu_rand(s) % 4) {
		const struct gen_rule *r = &t->r[tu_rand(s) % t->n];

		x = (x & ~r->mask) | r->value;
	}
	return x;
}

static struct spec_runtime *rt;
static struct gen_ctx ctx;

static int setup(void **state)
{
	(void)state;
	rt = tu_open("gen");
	if (!rt)
		return -1;
	return spec_runtime__add_gen(rt, "m32", generate, &ctx) ||
	       spec_runtime__add_gen(rt, "m128", generate, &ctx) ||
	       spec_runtime__add_gen(rt, "two", generate, &ctx) ||
	       spec_runtime__add_gen(rt, "rg", generate, &ctx);
}

static int teardown(void **state)
{
	(void)state;
	spec_runtime__close(rt);
	return 0;
}

/*
 * Tests reuse stack addresses and switch generator modes: the data behind
 * the pointer changed, so invalidate first (what a service must do too).
 */
static int specialize_data(const char *label, const void *data, uint32_t every, bool invalidate)
{
	struct spec_config *cfg = spec_config__new();
	int ret;

	if (invalidate)
		assert_int_equal(spec_runtime__invalidate(rt, label, NULL), 0);
	assert_int_equal(spec_config__set_data(cfg, label, data), 0);
	if (every)
		assert_int_equal(spec_config__set_sampling(cfg, label, every), 0);
	ret = spec_runtime__specialize_sync(rt, cfg, NULL);
	spec_config__free(cfg);
	return ret;
}

static int set_data(const char *label, const void *data, uint32_t every)
{
	return specialize_data(label, data, every, true);
}

static void free_table(struct gen_table *t)
{
	free(t->r);
}

/* ---- tests -------------------------------------------------------------- */

static void test_gen_disabled_point_calls_the_function(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct gen_table t;
	uint64_t s = 1;
	int i;

	(void)state;
	random_table(&t, 50, 32, &s);
	assert_int_equal(tu_specialize(rt, ""), 0);
	for (i = 0; i < ROUNDS; i++) {
		uint32_t x = (uint32_t)input_for(&t, 32, &s);

		assert_int_equal(f(&t, x), gen_h32(&t, x));
	}
	free_table(&t);
}

static void test_gen_masked_rules_match_the_reference(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct gen_table t, other;
	uint64_t s = 2;
	int i, round;

	(void)state;
	ctx = (struct gen_ctx){.mode = MASKED};
	random_table(&other, 30, 32, &s);
	for (round = 0; round < 5; round++) {
		random_table(&t, 20 + 60 * (size_t)round, 32, &s);
		assert_int_equal(set_data("m32", &t, 0), 0);
		for (i = 0; i < ROUNDS; i++) {
			uint32_t x = (uint32_t)input_for(&t, 32, &s);
			uint32_t y = (uint32_t)input_for(&other, 32, &s);

			assert_int_equal(f(&t, x), gen_h32(&t, x));
			/* Another table: the identity check sends it the generic way. */
			assert_int_equal(f(&other, y), gen_h32(&other, y));
		}
		free_table(&t);
	}
	free_table(&other);
}

static void test_gen_128_bit_keys_keep_their_high_bits(void **state)
{
	long (*f)(const struct gen_table *, unsigned __int128) = (long (*)(
		const struct gen_table *, unsigned __int128))spec_runtime__handler(rt, "gen_h128");
	struct gen_table t;
	uint64_t s = 3;
	int i;

	(void)state;
	ctx = (struct gen_ctx){.mode = MASKED};
	random_table(&t, 200, 128, &s);
	assert_int_equal(set_data("m128", &t, 0), 0);
	for (i = 0; i < ROUNDS; i++) {
		unsigned __int128 x = input_for(&t, 128, &s);

		assert_int_equal(f(&t, x), gen_h128(&t, x));
		/* Same low half, other high half: must not answer alike by accident. */
		x ^= (unsigned __int128)1 << 127;
		assert_int_equal(f(&t, x), gen_h128(&t, x));
	}
	free_table(&t);
}

static void test_gen_two_inputs_through_the_llvm_api(void **state)
{
	long (*f)(const struct gen_table *, uint32_t, uint16_t) = (long (*)(
		const struct gen_table *, uint32_t, uint16_t))spec_runtime__handler(rt, "gen_h2");
	uint64_t s = 4;
	int i;

	(void)state;
	ctx = (struct gen_ctx){.mode = TWO_INPUTS};
	assert_int_equal(tu_specialize(rt, "two+"), 0);
	for (i = 0; i < ROUNDS; i++) {
		uint32_t a = (uint32_t)tu_rand(&s);
		uint16_t b = (uint16_t)tu_rand(&s);

		assert_int_equal(f(NULL, a, b), gen_h2(NULL, a, b));
	}
	assert_int_equal(ctx.calls, 1);
}

static void ranges_case(enum gen_mode mode, size_t n, uint64_t seed)
{
	long (*f)(const struct gen_ranges *, uint32_t) =
		(long (*)(const struct gen_ranges *, uint32_t))spec_runtime__handler(rt, "gen_hr");
	uint32_t lo[400], hi[400];
	long out[400];
	struct gen_ranges r = {n, lo, hi, out};
	uint64_t s = seed;
	uint32_t at = 1000;
	size_t i;

	ctx = (struct gen_ctx){.mode = mode};
	for (i = 0; i < r.n; i++) {
		/* Dense: consecutive single values; else random widths and gaps. */
		lo[i] = at;
		hi[i] = mode == TABLE ? at : at + (uint32_t)(tu_rand(&s) % 50);
		at = hi[i] + 1 + (mode == TABLE ? 0 : (uint32_t)(tu_rand(&s) % 3));
		out[i] = (long)(tu_rand(&s) % 100000);
	}
	assert_int_equal(set_data("rg", &r, 0), 0);
	for (i = 0; i < ROUNDS; i++) {
		uint32_t x =
			i % 2 ? 900 + (uint32_t)(tu_rand(&s) % (at - 800)) : (uint32_t)tu_rand(&s);

		assert_int_equal(f(&r, x), gen_hr(&r, x));
	}
	for (i = 0; i < r.n; i++) {
		assert_int_equal(f(&r, lo[i]), out[i]);
		assert_int_equal(f(&r, hi[i]), out[i]);
		/* Either side of every range: a gap misses, a neighbour answers. */
		assert_int_equal(f(&r, lo[i] - 1), gen_hr(&r, lo[i] - 1));
		assert_int_equal(f(&r, hi[i] + 1), gen_hr(&r, hi[i] + 1));
	}
	assert_int_equal(f(&r, lo[0] - 1), -1);
	assert_int_equal(f(&r, hi[r.n - 1] + 1), -1);
}

static void test_gen_ranges_tree_matches_the_reference(void **state)
{
	(void)state;
	/* 400 ranges: a tree ending in chunks searched by counting compares. */
	ranges_case(RANGES, 400, 5);
}

static void test_gen_few_ranges_tree_matches_the_reference(void **state)
{
	(void)state;
	/* 40 ranges: one leaf per range. */
	ranges_case(RANGES, 40, 8);
}

static void test_gen_dense_table_matches_the_reference(void **state)
{
	(void)state;
	ranges_case(TABLE, 400, 6);
}

static void test_gen_hot_inputs_come_with_their_answers(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct spec_space *sp;
	const struct spec_point_info *pi;
	struct gen_table t;
	uint32_t hot[4];
	uint64_t s = 7;
	size_t i;

	(void)state;
	random_table(&t, 100, 32, &s);
	for (i = 0; i < 4; i++)
		hot[i] = (uint32_t)input_for(&t, 32, &s);
	assert_int_equal(spec_runtime__reset_counters(rt), 0);
	assert_int_equal(tu_specialize(rt, "m32~1"), 0);
	for (i = 0; i < 4000; i++)
		f(&t, hot[i % 4]);
	sp = spec_runtime__space(rt);
	pi = spec_space__find(sp, "m32");
	assert_non_null(pi);
	assert_true(pi->nr_observed >= 4);
	for (i = 0; i < pi->nr_observed; i++) {
		const struct spec_observed *o = spec_point_info__observed(pi, i);

		assert_ptr_equal(o, &pi->observed[i]);
		assert_int_equal(o->out, gen_h32(&t, (uint32_t)o->value));
	}
	assert_null(spec_point_info__observed(pi, pi->nr_observed));
	assert_int_equal(errno, ERANGE);
	spec_space__free(sp);

	/* The fast path answers from the samples: offset answers show it ran. */
	ctx = (struct gen_ctx){.mode = HOT_FAST_PATH, .hot_offset = 1000000};
	/* Invalidating with the generic variant installed keeps the samples. */
	assert_int_equal(spec_runtime__invalidate(rt, "m32", NULL), 0);
	assert_int_equal(specialize_data("m32", &t, 0, false), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(f(&t, hot[i]), gen_h32(&t, hot[i]) + 1000000);
	for (i = 0; i < ROUNDS; i++) {
		uint32_t x = (uint32_t)tu_rand(&s);

		if (x != hot[0] && x != hot[1] && x != hot[2] && x != hot[3])
			assert_int_equal(f(&t, x), gen_h32(&t, x));
	}
	free_table(&t);
}

static void test_gen_invalidate_keeps_stale_code_out(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct spec_runtime_stats st0, st1;
	struct gen_table t;
	char cur[256];
	uint64_t s = 8;
	int i, round;

	(void)state;
	ctx = (struct gen_ctx){.mode = MASKED};
	random_table(&t, 100, 32, &s);
	assert_int_equal(set_data("m32", &t, 0), 0);
	for (round = 0; round < 4; round++) {
		char want[64];

		snprintf(want, sizeof(want), "m32=%lld", (long long)(uintptr_t)&t);
		assert_int_equal(spec_runtime__invalidate(rt, "m32", NULL), 0);
		/* The generic variant answers while the table changes. */
		assert_int_equal(spec_runtime__current(rt, cur, sizeof(cur)), 0);
		assert_string_equal(cur, "");
		for (i = 0; i < 20; i++)
			t.r[tu_rand(&s) % t.n].out = (long)(tu_rand(&s) % 1000);
		for (i = 0; i < 200; i++) {
			uint32_t x = (uint32_t)input_for(&t, 32, &s);

			assert_int_equal(f(&t, x), gen_h32(&t, x));
		}
		/* Same configuration text: must compile again, not hit the cache. */
		spec_runtime__stats(rt, &st0, sizeof(st0));
		assert_int_equal(specialize_data("m32", &t, 0, false), 0);
		spec_runtime__stats(rt, &st1, sizeof(st1));
		assert_int_equal(st1.compiles, st0.compiles + 1);
		/* Nothing invalidated: now it is a cache hit. */
		assert_int_equal(tu_specialize(rt, ""), 0);
		assert_int_equal(specialize_data("m32", &t, 0, false), 0);
		spec_runtime__stats(rt, &st0, sizeof(st0));
		assert_int_equal(st0.compiles, st1.compiles);
		assert_int_equal(spec_runtime__current(rt, cur, sizeof(cur)), (int)strlen(want));
		assert_string_equal(cur, want);
		for (i = 0; i < ROUNDS; i++) {
			uint32_t x = (uint32_t)input_for(&t, 32, &s);

			assert_int_equal(f(&t, x), gen_h32(&t, x));
		}
	}
	assert_int_equal(spec_runtime__invalidate(rt, "nope", NULL), -ENOENT);
	free_table(&t);
}

static void test_gen_thousands_of_rules_compile(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct spec_runtime_stats st;
	struct gen_table t;
	uint64_t s = 9;
	int i;

	(void)state;
	ctx = (struct gen_ctx){.mode = MASKED};
	random_table(&t, 5000, 32, &s);
	assert_int_equal(set_data("m32", &t, 0), 0);
	spec_runtime__stats(rt, &st, sizeof(st));
	print_message("5000 rules: compiled in %.1f ms\n", (double)st.last_compile_ns / 1e6);
	for (i = 0; i < ROUNDS; i++) {
		uint32_t x = (uint32_t)input_for(&t, 32, &s);

		assert_int_equal(f(&t, x), gen_h32(&t, x));
	}
	free_table(&t);
}

struct thread_arg {
	long (*f)(const struct gen_table *, uint32_t);
	struct gen_table *t;
	uint64_t seed;
	int bad;
};

static void *lookups(void *p)
{
	struct thread_arg *a = p;
	int i;

	for (i = 0; i < 20000; i++) {
		uint32_t x = (uint32_t)input_for(a->t, 32, &a->seed);

		a->bad += a->f(a->t, x) != gen_h32(a->t, x);
	}
	return NULL;
}

static void test_gen_two_tables_in_two_threads(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	struct gen_table a, b;
	struct thread_arg ta, tb;
	pthread_t th[2];
	uint64_t s = 10;

	(void)state;
	ctx = (struct gen_ctx){.mode = MASKED};
	random_table(&a, 300, 32, &s);
	random_table(&b, 300, 32, &s);
	assert_int_equal(set_data("m32", &a, 0), 0);
	ta = (struct thread_arg){f, &a, 11, 0};
	tb = (struct thread_arg){f, &b, 12, 0};
	pthread_create(&th[0], NULL, lookups, &ta);
	pthread_create(&th[1], NULL, lookups, &tb);
	/* Swap which table is compiled while both threads look up. */
	assert_int_equal(set_data("m32", &b, 0), 0);
	assert_int_equal(set_data("m32", &a, 0), 0);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	assert_int_equal(ta.bad, 0);
	assert_int_equal(tb.bad, 0);
	free_table(&a);
	free_table(&b);
}

static void test_gen_errors_are_reported(void **state)
{
	struct gen_table t = {0};
	char msg[512];

	(void)state;
	tu_capture();
	ctx = (struct gen_ctx){.mode = FAILING};
	assert_int_equal(set_data("m32", &t, 0), -EPROTO);
	assert_int_not_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "generator of spec_gen point 'm32' failed"));
	/* A success afterwards clears the error. */
	assert_int_equal(tu_specialize(rt, ""), 0);
	assert_int_equal(spec_runtime__last_error(rt, msg, sizeof(msg)), 0);
	assert_int_equal(spec_runtime__add_gen(rt, "nope", generate, &ctx), -ENOENT);
}

static void test_gen_point_without_generator_is_refused(void **state)
{
	struct spec_runtime *r2 = tu_open("gen");
	struct spec_config *cfg = spec_config__parse("m32+");

	(void)state;
	assert_int_equal(spec_runtime__specialize_sync(r2, cfg, NULL), -EINVAL);
	assert_non_null(strstr(tu_last_msg(), "no generator registered"));
	spec_config__free(cfg);
	spec_runtime__close(r2);
}

/* @n inputs of @t's rules, none of @avoid[navoid]. */
static void distinct_inputs(const struct gen_table *t, uint64_t *s, uint32_t *out, size_t n,
			    const uint32_t *avoid, size_t navoid)
{
	size_t i = 0, k;

	while (i < n) {
		uint32_t x = (uint32_t)input_for(t, 32, s);
		bool dup = false;

		for (k = 0; k < navoid; k++)
			dup |= avoid[k] == x;
		for (k = 0; k < i; k++)
			dup |= out[k] == x;
		if (!dup)
			out[i++] = x;
	}
}

/*
 * The fast-path policy: a fast path built for hot set A; the lookups move
 * to B; the policy sees the coverage fall, re-instruments, and rebuilds the
 * installed configuration from fresh samples. B is then answered by the
 * fast path (offset answers) and A by the generic function: a cache hit on
 * the old configuration text would have served A's fast path again.
 */
static void test_gen_fastpath_policy_rebuilds_after_a_hot_set_shift(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	LIBSPEC_OPTS(spec_invalidate_opts, keep, .keep_current = true);
	LIBSPEC_OPTS(spec_policy_fastpath_opts, po, .hot = 4, .min_samples = 256);
	struct spec_runtime_stats st0, st1;
	struct spec_policy_fastpath *fp;
	uint32_t a[4] = {0}, b[4] = {0};
	struct gen_table t;
	uint64_t s = 21;
	int i;

	(void)state;
	random_table(&t, 200, 32, &s);
	distinct_inputs(&t, &s, a, 4, NULL, 0);
	distinct_inputs(&t, &s, b, 4, a, 4);
	ctx = (struct gen_ctx){.mode = HOT_FAST_PATH, .hot_offset = 1000000};
	assert_int_equal(spec_runtime__reset_counters(rt), 0);
	assert_int_equal(specialize_data("m32", &t, 1, true), 0);
	for (i = 0; i < 4000; i++)
		f(&t, a[i % 4]);
	assert_int_equal(spec_runtime__invalidate(rt, "m32", &keep), 0);
	assert_int_equal(specialize_data("m32", &t, 1, false), 0);
	for (i = 0; i < 4; i++)
		assert_int_equal(f(&t, a[i]), gen_h32(&t, a[i]) + 1000000);

	fp = spec_policy_fastpath__new(rt, "m32", &po);
	assert_non_null(fp);
	assert_int_equal(spec_policy_fastpath__step(fp), 0);
	assert_true(spec_policy_fastpath__coverage(fp) > 0.9);
	for (i = 0; i < 20000; i++)
		f(&t, b[i % 4]);
	assert_int_equal(spec_policy_fastpath__step(fp), 0);
	assert_true(spec_policy_fastpath__coverage(fp) < 0.5);
	/* Re-instrumented: too few fresh samples yet, nothing rebuilt. */
	assert_int_equal(spec_policy_fastpath__step(fp), 0);
	for (i = 0; i < 4000; i++)
		f(&t, b[i % 4]);
	assert_int_equal(spec_runtime__stats(rt, &st0, sizeof(st0)), 0);
	assert_int_equal(spec_policy_fastpath__step(fp), 1);
	assert_int_equal(spec_runtime__stats(rt, &st1, sizeof(st1)), 0);
	assert_true(st1.compiles > st0.compiles);
	for (i = 0; i < 4; i++) {
		assert_int_equal(f(&t, b[i]), gen_h32(&t, b[i]) + 1000000);
		assert_int_equal(f(&t, a[i]), gen_h32(&t, a[i]));
	}
	assert_int_equal(spec_policy_fastpath__step(fp), 0);
	spec_policy_fastpath__free(fp);
	free_table(&t);
}

static uint64_t point_samples(const char *label)
{
	struct spec_space *sp = spec_runtime__space(rt);
	const struct spec_point_info *pi;
	uint64_t n;

	assert_non_null(sp);
	pi = spec_space__find(sp, label);
	assert_non_null(pi);
	n = pi->samples;
	spec_space__free(sp);
	return n;
}

/*
 * Re-instrumenting one point's fast path forgets that point's samples
 * only: another sampled point ("two") keeps what it had seen.
 */
static void test_gen_fastpath_policy_keeps_other_points_samples(void **state)
{
	long (*f)(const struct gen_table *, uint32_t) =
		(long (*)(const struct gen_table *, uint32_t))spec_runtime__handler(rt, "gen_h32");
	long (*g)(const struct gen_table *, uint32_t, uint16_t) = (long (*)(
		const struct gen_table *, uint32_t, uint16_t))spec_runtime__handler(rt, "gen_h2");
	LIBSPEC_OPTS(spec_policy_fastpath_opts, po, .hot = 4, .min_samples = 256);
	struct spec_config *cfg = spec_config__new();
	struct spec_policy_fastpath *fp;
	uint32_t a[4] = {0}, b[4] = {0};
	struct gen_table t;
	uint64_t s = 33, two;
	int i;

	(void)state;
	random_table(&t, 200, 32, &s);
	distinct_inputs(&t, &s, a, 4, NULL, 0);
	distinct_inputs(&t, &s, b, 4, a, 4);
	ctx = (struct gen_ctx){.mode = HOT_FAST_PATH, .hot_offset = 1000000};
	assert_int_equal(spec_runtime__invalidate(rt, "m32", NULL), 0);
	assert_int_equal(spec_runtime__invalidate(rt, "two", NULL), 0);
	assert_int_equal(spec_runtime__reset_counters(rt), 0);
	assert_int_equal(spec_config__set_data(cfg, "m32", &t), 0);
	assert_int_equal(spec_config__set_sampling(cfg, "m32", 1), 0);
	assert_int_equal(spec_config__set_data(cfg, "two", &t), 0);
	assert_int_equal(spec_config__set_sampling(cfg, "two", 1), 0);
	assert_int_equal(spec_runtime__specialize_sync(rt, cfg, NULL), 0);
	spec_config__free(cfg);
	for (i = 0; i < 4000; i++) {
		f(&t, a[i % 4]);
		g(&t, a[i % 4], 7);
	}
	two = point_samples("two");
	assert_true(two >= 4000);
	fp = spec_policy_fastpath__new(rt, "m32", &po);
	assert_non_null(fp);
	for (i = 0; i < 20000; i++)
		f(&t, b[i % 4]);
	assert_int_equal(spec_policy_fastpath__step(fp), 0);
	assert_true(spec_policy_fastpath__coverage(fp) < 0.5);
	/* Re-instrumented: m32 starts afresh, "two" keeps its samples. */
	assert_int_equal(point_samples("m32"), 0);
	assert_int_equal(point_samples("two"), two);
	spec_policy_fastpath__free(fp);
	free_table(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_disabled_point_calls_the_function),
		cmocka_unit_test(test_gen_masked_rules_match_the_reference),
		cmocka_unit_test(test_gen_128_bit_keys_keep_their_high_bits),
		cmocka_unit_test(test_gen_two_inputs_through_the_llvm_api),
		cmocka_unit_test(test_gen_ranges_tree_matches_the_reference),
		cmocka_unit_test(test_gen_few_ranges_tree_matches_the_reference),
		cmocka_unit_test(test_gen_dense_table_matches_the_reference),
		cmocka_unit_test(test_gen_hot_inputs_come_with_their_answers),
		cmocka_unit_test(test_gen_invalidate_keeps_stale_code_out),
		cmocka_unit_test(test_gen_thousands_of_rules_compile),
		cmocka_unit_test(test_gen_two_tables_in_two_threads),
		cmocka_unit_test(test_gen_errors_are_reported),
		cmocka_unit_test(test_gen_point_without_generator_is_refused),
		cmocka_unit_test(test_gen_fastpath_policy_rebuilds_after_a_hot_set_shift),
		cmocka_unit_test(test_gen_fastpath_policy_keeps_other_points_samples),
	};

	return cmocka_run_group_tests_name("gen", tests, setup, teardown);
}
