// SPDX-License-Identifier: GPL-2.0
/*
 * The LPM example, differentially: route4/route6 through every
 * specialization (FP, NI, NI-FP) must answer what the table's own lookup
 * answers, on random IPv4 and IPv6 tables, also while a writer updates the
 * table under the invalidate-update-specialize protocol.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include <libspec/libspec.h>

#include "handlers.h"
#include "lpm_gen.h"
#include "test_lpm.h"

struct spec_runtime *rt;

uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

lpm_u128 rnd_addr(int width, uint64_t *s)
{
	lpm_u128 x = ((lpm_u128)rnd(s) << 64) | rnd(s);

	return x & lpm_mask(width, width);
}

/* Routes of random lengths, a default route half of the time. */
static struct lpm *random_table(int width, size_t n, uint64_t *s)
{
	struct lpm *t = lpm_new(width);
	size_t i;

	assert_non_null(t);
	for (i = 0; i < n; i++) {
		int len = width == 32 ? 8 + (int)(rnd(s) % 25) : 16 + (int)(rnd(s) % 113);

		assert_int_equal(lpm_add(t, rnd_addr(width, s), len, (long)(rnd(s) % 4096)), 0);
	}
	if (rnd(s) % 2)
		assert_int_equal(lpm_add(t, 0, 0, 9999), 0);
	return t;
}

/* An address under a random route (or anywhere, a quarter of the time). */
lpm_u128 addr_for(const struct lpm *t, uint64_t *s)
{
	int width = lpm_width(t);
	struct lpm_route r[64];
	size_t n = lpm_routes(t, r, 64);
	lpm_u128 x = rnd_addr(width, s);

	if (n && rnd(s) % 4) {
		const struct lpm_route *p = &r[rnd(s) % (n < 64 ? n : 64)];
		lpm_u128 m = lpm_mask(p->len, width);

		x = (x & ~m) | p->prefix;
	}
	return x;
}

long call(void *f, int width, const struct lpm *t, lpm_u128 x)
{
	return width == 32 ? ((route4_fn)f)(t, (uint32_t)x) : ((route_fn)f)(t, x);
}

static int setup(void **state)
{
	(void)state;
	rt = spec_runtime__open(LPM_IR, NULL);
	if (!rt)
		return -1;
	return spec_runtime__add_gen(rt, "lpm4", lpm_gen, NULL) ||
	       spec_runtime__add_gen(rt, "lpm6", lpm_gen, NULL);
}

static int teardown(void **state)
{
	(void)state;
	spec_runtime__close(rt);
	return 0;
}

int specialize(const char *label, const struct lpm *t, int64_t param, uint32_t every)
{
	struct spec_config *c = lpm_gen_config(label, t, param, every);
	int ret;

	assert_non_null(c);
	ret = spec_runtime__specialize_sync(rt, c, NULL);
	spec_config__free(c);
	return ret;
}

static void differential(int width, int64_t param, uint64_t seed)
{
	const char *label = width == 32 ? "lpm4" : "lpm6";
	void *f = spec_runtime__handler(rt, width == 32 ? "route4" : "route6");
	uint64_t s = seed;
	lpm_u128 hot[8];
	int round, i;

	assert_non_null(f);
	for (round = 0; round < 3; round++) {
		struct lpm *t = random_table(width, 50 + 400 * (size_t)round, &s);

		for (i = 0; i < 8; i++)
			hot[i] = addr_for(t, &s);
		/* Sample the hot destinations through the generic code first. */
		assert_int_equal(spec_runtime__invalidate(rt, label, NULL), 0);
		assert_int_equal(specialize(label, t, 0, 1), 0);
		for (i = 0; i < 800; i++)
			call(f, width, t, hot[i % 8]);
		assert_int_equal(specialize(label, t, param, 16), 0);
		for (i = 0; i < LOOKUPS; i++) {
			lpm_u128 x = i % 2 ? hot[i % 8] : addr_for(t, &s);

			assert_int_equal(call(f, width, t, x), lpm_lookup(t, x));
		}
		lpm_free(t);
	}
}

static void test_lpm_fp_ipv4(void **state)
{
	(void)state;
	differential(32, LPM_GEN_FP(8), 1);
}

static void test_lpm_ni_ipv4(void **state)
{
	(void)state;
	differential(32, LPM_GEN_NI, 2);
}

static void test_lpm_ni_fp_ipv4(void **state)
{
	(void)state;
	differential(32, LPM_GEN_NI | LPM_GEN_FP(8), 3);
}

static void test_lpm_fp_ipv6(void **state)
{
	(void)state;
	differential(128, LPM_GEN_FP(8), 4);
}

static void test_lpm_ni_ipv6(void **state)
{
	(void)state;
	differential(128, LPM_GEN_NI, 5);
}

static void test_lpm_ni_fp_ipv6(void **state)
{
	(void)state;
	differential(128, LPM_GEN_NI | LPM_GEN_FP(8), 6);
}

struct shared {
	struct lpm *t;
	pthread_rwlock_t lock;
	route4_fn f;
	_Atomic bool stop;
	uint64_t seed;
	long lookups, wrong;
};

static void *reader(void *p)
{
	struct shared *sh = p;
	uint64_t s = sh->seed++;

	while (!sh->stop) {
		uint32_t x = (uint32_t)addr_for(sh->t, &s);
		long got, want;

		pthread_rwlock_rdlock(&sh->lock);
		got = sh->f(sh->t, x);
		want = lpm4_lookup(sh->t, x);
		pthread_rwlock_unlock(&sh->lock);
		sh->wrong += got != want;
		sh->lookups++;
	}
	return NULL;
}

static void test_lpm_updates_during_lookups(void **state)
{
	struct shared sh = {.seed = 77};
	uint64_t s = 7;
	pthread_t th[2];
	int round, i;

	(void)state;
	sh.t = random_table(32, 300, &s);
	sh.f = (route4_fn)spec_runtime__handler(rt, "route4");
	pthread_rwlock_init(&sh.lock, NULL);
	/* An earlier test's freed table may have had this address. */
	assert_int_equal(spec_runtime__invalidate(rt, "lpm4", NULL), 0);
	assert_int_equal(specialize("lpm4", sh.t, LPM_GEN_NI, 0), 0);
	for (i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, reader, &sh);
	for (round = 0; round < 20; round++) {
		/* The protocol: invalidate, change the data, specialize again. */
		assert_int_equal(spec_runtime__invalidate(rt, "lpm4", NULL), 0);
		pthread_rwlock_wrlock(&sh.lock);
		for (i = 0; i < 10; i++) {
			struct lpm_route r;

			if (rnd(&s) % 3 == 0 && lpm_routes(sh.t, &r, 1))
				lpm_del(sh.t, r.prefix, r.len);
			else
				lpm_add(sh.t, rnd_addr(32, &s), 8 + (int)(rnd(&s) % 25),
					(long)(rnd(&s) % 4096));
		}
		pthread_rwlock_unlock(&sh.lock);
		assert_int_equal(specialize("lpm4", sh.t, round % 2 ? LPM_GEN_NI : LPM_GEN_FP(4),
					    round % 2 ? 0 : 1),
				 0);
	}
	sh.stop = true;
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	print_message("%ld lookups during 20 updates\n", sh.lookups);
	assert_true(sh.lookups > 0);
	assert_int_equal(sh.wrong, 0);
	pthread_rwlock_destroy(&sh.lock);
	lpm_free(sh.t);
}

static void test_lpm_table_delete_and_replace(void **state)
{
	struct lpm *t = lpm_new(32);

	(void)state;
	assert_int_equal(lpm_add(t, 0x0a000000, 8, 1), 0);
	assert_int_equal(lpm_add(t, 0x0a010000, 16, 2), 0);
	assert_int_equal(lpm4_lookup(t, 0x0a010203), 2);
	assert_int_equal(lpm4_lookup(t, 0x0a020203), 1);
	assert_int_equal(lpm4_lookup(t, 0x0b020203), LPM_NONE);
	assert_int_equal(lpm_add(t, 0x0a01ffff, 16, 3), 0); /* same route: replaced */
	assert_int_equal(lpm_count(t), 2);
	assert_int_equal(lpm4_lookup(t, 0x0a010203), 3);
	assert_int_equal(lpm_del(t, 0x0a010000, 16), 0);
	assert_int_equal(lpm_del(t, 0x0a010000, 16), -ENOENT);
	assert_int_equal(lpm4_lookup(t, 0x0a010203), 1);
	assert_int_equal(lpm_add(t, 0, 33, 1), -EINVAL);
	lpm_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lpm_table_delete_and_replace),
		cmocka_unit_test(test_lpm_fp_ipv4),
		cmocka_unit_test(test_lpm_ni_ipv4),
		cmocka_unit_test(test_lpm_ni_fp_ipv4),
		cmocka_unit_test(test_lpm_fp_ipv6),
		cmocka_unit_test(test_lpm_ni_ipv6),
		cmocka_unit_test(test_lpm_ni_fp_ipv6),
		cmocka_unit_test(test_lpm_ni_bounds_ipv4),
		cmocka_unit_test(test_lpm_ni_bounds_ipv6),
		cmocka_unit_test(test_lpm_dump_pre_ir),
		cmocka_unit_test(test_lpm_updates_during_lookups),
	};

	return cmocka_run_group_tests_name("lpm", tests, setup, teardown);
}
