// SPDX-License-Identifier: GPL-2.0
/* Way planner: invariants over randomized tenant sets, and shuffling. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "planner.h"
#include "ways.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned int rnd(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

/* A group is protected if any member is PS or the vswitch. */
static bool protected(const struct config *c, unsigned int i)
{
	unsigned int l = config_leader(c, i);

	for (unsigned int j = 0; j < c->ntenants; j++)
		if (config_leader(c, j) == l &&
		    (c->tenant[j].prio == CONFIG_PRIO_PS || c->tenant[j].vswitch))
			return true;
	return false;
}

/* A random set: llc ways, DDIO ways, tenants (some in groups) whose ways fit. */
static void random_set(struct config *c, struct planner_alloc *a, double *refs)
{
	unsigned int n, left;

	memset(a, 0, sizeof(*a));
	config_defaults(c);
	a->llc_ways = 4 + rnd(17);
	a->ddio_ways = 1 + rnd(a->llc_ways - 1);
	n = 1 + rnd(a->llc_ways < 10 ? a->llc_ways : 10);
	left = a->llc_ways;
	for (unsigned int i = 0; i < n && (left > 0 || i > 0); i++) {
		struct config_tenant *t = &c->tenant[i];

		if (i > 0 && (left == 0 || rnd(4) == 0)) {
			/* join an earlier tenant's group: shares its ways and mask */
			unsigned int l = config_leader(c, rnd(i));

			t->group_leader = l + 1;
			t->ways = c->tenant[l].ways;
			a->ways[i] = a->ways[l];
			t->prio = rnd(3) ? CONFIG_PRIO_BE : CONFIG_PRIO_PS;
			refs[i] = rnd(1000);
			c->ntenants = a->ntenants = i + 1;
			continue;
		}

		t->ways = 1 + rnd(left < 4 ? left : 4);
		left -= t->ways;
		t->prio = rnd(3) ? CONFIG_PRIO_BE : CONFIG_PRIO_PS;
		t->vswitch = i == 0 && rnd(4) == 0;
		a->ways[i] = t->ways + (left && rnd(3) == 0 ? 1 : 0);
		left -= a->ways[i] - t->ways;
		refs[i] = rnd(1000);
		c->ntenants = a->ntenants = i + 1;
	}
	c->llc_ways = a->llc_ways;
}

static double group_refs(const struct config *c, const double *refs, unsigned int l)
{
	double r = 0;

	for (unsigned int j = 0; j < c->ntenants; j++)
		if (config_leader(c, j) == l)
			r += refs[j];
	return r;
}

/* Ways used by no tenant and not by DDIO. */
static unsigned int free_ways(const struct planner_alloc *a)
{
	uint32_t used = a->ddio_mask;

	for (unsigned int i = 0; i < a->ntenants; i++)
		used |= a->mask[i];
	return a->llc_ways - (unsigned int)__builtin_popcount(used);
}

static void check_invariants(const struct config *c, const struct planner_alloc *a,
			     const double *refs)
{
	unsigned int n = a->ntenants, w = planner_tenant_ways(a);
	unsigned int room = a->llc_ways - a->ddio_ways, be = 0, overlap = 0;
	uint32_t all = ways_all(a->llc_ways);

	assert_int_equal(a->ddio_mask, planner_ddio_mask(a->llc_ways, a->ddio_ways));
	assert_true(a->ddio_mask & (1u << (a->llc_ways - 1))); /* most significant way */
	for (unsigned int i = 0; i < n; i++) {
		bool leader = config_leader(c, i) == i;

		assert_true(ways_contiguous(a->mask[i]));
		assert_int_equal((a->mask[i] & ~all), 0);
		assert_int_equal(__builtin_popcount(a->mask[i]), a->ways[i]);
		/* one mask per group, groups disjoint */
		for (unsigned int j = i + 1; j < n; j++)
			if (config_leader(c, j) == config_leader(c, i))
				assert_int_equal(a->mask[i], a->mask[j]);
			else
				assert_int_equal(a->mask[i] & a->mask[j], 0);
		if (!leader)
			continue;
		overlap += planner_ddio_overlap(a, i);
		if (!protected(c, i))
			be += a->ways[i];
	}
	/* no sharing at all while free ways exist */
	if (w <= room)
		assert_int_equal(overlap, 0);
	else
		assert_int_equal(overlap, w - room);
	if (free_ways(a))
		assert_int_equal(overlap, 0);
	for (unsigned int i = 0; i < n; i++) {
		/* PS isolated whenever the BE tenants can take the overlap */
		if (protected(c, i) && w - room <= be && w > room)
			assert_int_equal(planner_ddio_overlap(a, i), 0);
		/* sharers are the BE groups with the fewest references */
		if (protected(c, i) || !planner_ddio_overlap(a, i) || config_leader(c, i) != i)
			continue;
		for (unsigned int k = 0; k < n; k++)
			if (!protected(c, k) && !planner_ddio_overlap(a, k) &&
			    config_leader(c, k) == k)
				assert_true(group_refs(c, refs, i) <= group_refs(c, refs, k));
	}
}

static void test_planner_random_sets_keep_invariants(void **u)
{
	struct config *c = malloc(sizeof(*c));
	double refs[PLATFORM_MAX_TENANTS];
	struct planner_alloc a;

	(void)u;
	assert_non_null(c);
	for (int iter = 0; iter < 20000; iter++) {
		random_set(c, &a, refs);
		assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &a), 0);
		check_invariants(c, &a, refs);
		/* replanning with the same inputs moves nothing */
		struct planner_alloc b = a;

		assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &b), 0);
		assert_memory_equal(a.mask, b.mask, sizeof(a.mask));
	}
	free(c);
}

static void test_planner_unaware_packs_in_config_order(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {.llc_ways = 11, .ddio_ways = 2, .ntenants = 3, .ways = {3, 4, 3}};

	(void)u;
	config_defaults(c);
	c->ntenants = 3;
	c->tenant[2].prio = CONFIG_PRIO_PS;
	assert_int_equal(planner_plan(c, PLANNER_IO_UNAWARE, NULL, 0, &a), 0);
	assert_int_equal(a.mask[0], 0x007);
	assert_int_equal(a.mask[1], 0x078);
	assert_int_equal(a.mask[2], 0x380); /* blind to DDIO at 0x600: PS shares */
	assert_int_equal(a.ddio_mask, 0x600);
	/* the aware planner moves a BE tenant onto DDIO instead */
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), 0);
	assert_int_equal(planner_ddio_overlap(&a, 2), 0);
	free(c);
}

static void test_planner_shuffles_lighter_be_onto_ddio(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {.llc_ways = 11, .ddio_ways = 3, .ntenants = 3, .ways = {4, 3, 3}};
	double refs[3] = {5000, 100, 900};

	(void)u;
	config_defaults(c);
	c->ntenants = 3;
	c->tenant[0].prio = CONFIG_PRIO_PS;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0.1, &a), 0);
	assert_int_equal(planner_ddio_overlap(&a, 1), 2); /* 10 ways - 8 room */
	assert_int_equal(planner_ddio_overlap(&a, 2), 0);
	/* tenant 1 turns LLC-hungry: tenant 2 now has fewer references */
	refs[1] = 3000;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0.1, &a), 0);
	assert_int_equal(planner_ddio_overlap(&a, 1), 0);
	assert_int_equal(planner_ddio_overlap(&a, 2), 2);
	assert_int_equal(planner_ddio_overlap(&a, 0), 0);
	/* within the hysteresis the current sharer stays */
	refs[1] = 850;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0.1, &a), 0);
	assert_int_equal(planner_ddio_overlap(&a, 2), 2);
	free(c);
}

static void test_planner_ps_shares_only_when_unavoidable(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {.llc_ways = 8, .ddio_ways = 4, .ntenants = 2, .ways = {5, 1}};

	(void)u;
	config_defaults(c);
	c->ntenants = 2;
	c->tenant[0].prio = CONFIG_PRIO_PS;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), 0);
	/* 6 ways, room 4: the BE tenant's one way is not enough */
	assert_int_equal(planner_ddio_overlap(&a, 1), 1);
	assert_int_equal(planner_ddio_overlap(&a, 0), 1);
	free(c);
}

static void test_planner_rejects_what_does_not_fit(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {.llc_ways = 8, .ddio_ways = 2, .ntenants = 2, .ways = {5, 4}};
	struct planner_alloc b;

	(void)u;
	config_defaults(c);
	c->ntenants = 2;
	b = a;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), -28);
	assert_memory_equal(&a, &b, sizeof(a));
	a.ways[0] = 0;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), -28);
	a.ways[0] = 1;
	a.ddio_ways = 9;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, NULL, 0, &a), -28);
	free(c);
}

static void test_planner_groups_share_one_mask(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {
		.llc_ways = 11, .ddio_ways = 2, .ntenants = 4, .ways = {3, 2, 3, 2}};

	(void)u;
	config_defaults(c);
	c->ntenants = 4;
	c->tenant[2].group_leader = 1; /* tenant 2 shares tenant 0's ways */
	assert_int_equal(planner_plan(c, PLANNER_IO_UNAWARE, NULL, 0, &a), 0);
	assert_int_equal(a.mask[0], 0x07);
	assert_int_equal(a.mask[2], 0x07);
	assert_int_equal(a.mask[1], 0x18);
	assert_int_equal(a.mask[3], 0x60);
	assert_int_equal(planner_tenant_ways(&a), 7);
	planner_group_add(&a, 2, 1);
	assert_int_equal(a.ways[0], 4);
	assert_int_equal(a.ways[2], 4);
	assert_int_equal(a.ways[1], 2);
	/* members that disagree on ways cannot be planned */
	a.ways[2] = 1;
	assert_int_equal(planner_plan(c, PLANNER_IO_UNAWARE, NULL, 0, &a), -28);
	free(c);
}

/* DDIO keeps its place and changes size at its ends (issue 19). */
static void test_planner_ddio_at_grows_and_shrinks_at_its_ends(void **u)
{
	(void)u;
	/* an operator's mask in the middle: up to the top way, then down */
	assert_int_equal(planner_ddio_at(0x180, 0x180, 11, 2), 0x180);
	assert_int_equal(planner_ddio_at(0x180, 0x180, 11, 3), 0x380);
	assert_int_equal(planner_ddio_at(0x380, 0x180, 11, 4), 0x780);
	assert_int_equal(planner_ddio_at(0x780, 0x180, 11, 5), 0x7c0);
	/* reclaim undoes the grows, back to the operator's range */
	assert_int_equal(planner_ddio_at(0x7c0, 0x180, 11, 4), 0x780);
	assert_int_equal(planner_ddio_at(0x780, 0x180, 11, 3), 0x380);
	assert_int_equal(planner_ddio_at(0x380, 0x180, 11, 2), 0x180);
	/* the hardware's default, the top ways: grows and shrinks at the bottom */
	assert_int_equal(planner_ddio_at(0x600, 0x600, 11, 3), 0x700);
	assert_int_equal(planner_ddio_at(0x700, 0x600, 11, 2), 0x600);
	assert_int_equal(planner_ddio_at(0x600, 0x600, 11, 1), 0x400);
	/* at way 0 (an io_alloc-style mask): at the top end */
	assert_int_equal(planner_ddio_at(0x3, 0x3, 11, 3), 0x7);
	assert_int_equal(planner_ddio_at(0x7, 0x3, 11, 1), 0x1);
	/* nothing usable to start from: the top ways */
	assert_int_equal(planner_ddio_at(0, 0, 11, 2), 0x600);
	assert_int_equal(planner_ddio_at(0x5, 0, 11, 2), 0x600);
	assert_int_equal(planner_ddio_at(0x1800, 0, 11, 2), 0x600);
}

/*
 * Tenants around DDIO's ways wherever they are: a PS tenant that the
 * top-aligned layout would have put on ways 6-8 sits beside 0x180, and
 * when sharing is needed the lightest BE tenant sits next to DDIO.
 */
static void test_planner_places_tenants_around_ddio_anywhere(void **u)
{
	struct config *c = malloc(sizeof(*c));
	struct planner_alloc a = {.llc_ways = 11,
				  .ddio_ways = 2,
				  .ddio_mask = 0x180,
				  .ddio_origin = 0x180,
				  .ntenants = 4,
				  .ways = {2, 2, 2, 3}};
	double refs[4] = {900, 500, 100, 800};

	(void)u;
	config_defaults(c);
	c->ntenants = 4;
	c->tenant[0].vswitch = true;
	c->tenant[3].prio = CONFIG_PRIO_PS;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &a), 0);
	assert_int_equal(a.ddio_mask, 0x180);
	for (unsigned int i = 0; i < 4; i++) {
		assert_true(ways_contiguous(a.mask[i]));
		assert_int_equal(planner_ddio_overlap(&a, i), 0);
		for (unsigned int j = i + 1; j < 4; j++)
			assert_int_equal(a.mask[i] & a.mask[j], 0);
	}
	/*
	 * from the top-aligned layout (vswitch, BE1, BE2, PS from way 0), an
	 * operator's 0x180 moves only PS (below DDIO) and BE2 (above it)
	 */
	memcpy(a.mask, (uint32_t[]){0x3, 0xc, 0x30, 0x1c0}, 4 * sizeof(uint32_t));
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &a), 0);
	assert_int_equal(a.mask[0], 0x3);
	assert_int_equal(a.mask[1], 0xc);
	assert_int_equal(a.mask[2], 0x600);
	assert_int_equal(a.mask[3], 0x70);
	/* one way more for DDIO (0x380): one way shared, by the lightest BE tenant */
	a.ddio_ways = 3;
	assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &a), 0);
	assert_int_equal(a.ddio_mask, 0x380);
	assert_int_equal(planner_ddio_overlap(&a, 2), 1);
	assert_int_equal(planner_ddio_overlap(&a, 0) + planner_ddio_overlap(&a, 1) +
				 planner_ddio_overlap(&a, 3),
			 0);
	free(c);
}

/* Random sets around a DDIO range at a random place: never more overlap than needed. */
static void test_planner_random_ddio_places_keep_invariants(void **u)
{
	struct config *c = malloc(sizeof(*c));
	double refs[PLATFORM_MAX_TENANTS];
	struct planner_alloc a;

	(void)u;
	assert_non_null(c);
	for (int iter = 0; iter < 20000; iter++) {
		unsigned int lo, w, room, overlap = 0, below, above, fit = 1;

		random_set(c, &a, refs);
		lo = rnd(a.llc_ways - a.ddio_ways + 1);
		a.ddio_mask = a.ddio_origin = ways_mask(lo, a.ddio_ways);
		assert_int_equal(planner_plan(c, PLANNER_IO_AWARE, refs, 0, &a), 0);
		assert_int_equal(a.ddio_mask, ways_mask(lo, a.ddio_ways));
		w = planner_tenant_ways(&a);
		room = a.llc_ways - a.ddio_ways;
		below = lo;
		above = room - lo;
		for (unsigned int i = 0; i < a.ntenants; i++) {
			assert_true(ways_contiguous(a.mask[i]));
			assert_int_equal(__builtin_popcount(a.mask[i]), a.ways[i]);
			for (unsigned int j = i + 1; j < a.ntenants; j++)
				if (config_leader(c, j) != config_leader(c, i))
					assert_int_equal(a.mask[i] & a.mask[j], 0);
			if (config_leader(c, i) == i) {
				overlap += planner_ddio_overlap(&a, i);
				fit = fit && a.ways[i] == 1;
			}
		}
		assert_true(overlap >= (w > room ? w - room : 0));
		/* one side only, or one-way tenants: the two bins lose nothing */
		if (!below || !above || fit)
			assert_int_equal(overlap, w > room ? w - room : 0);
	}
	free(c);
}

static void test_planner_mask_helpers(void **u)
{
	(void)u;
	assert_int_equal(ways_mask(2, 3), 0x1c);
	assert_int_equal(ways_mask(0, 32), 0xffffffffu);
	assert_int_equal(ways_mask(5, 0), 0);
	assert_int_equal(ways_mask(32, 1), 0);
	assert_int_equal(ways_all(11), 0x7ff);
	assert_int_equal(ways_top(11, 2), 0x600);
	assert_int_equal(ways_top(11, 12), 0);
	assert_int_equal(planner_ddio_mask(11, 2), 0x600);
	assert_int_equal(planner_ddio_mask(11, 12), 0x7ff);
	assert_true(ways_contiguous(0x1c));
	assert_true(ways_contiguous(0xffffffffu));
	assert_false(ways_contiguous(0x14));
	assert_false(ways_contiguous(0));
	assert_true(ways_fits(0x600, 11));
	assert_false(ways_fits(0x800, 11));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_planner_random_sets_keep_invariants),
		cmocka_unit_test(test_planner_ddio_at_grows_and_shrinks_at_its_ends),
		cmocka_unit_test(test_planner_places_tenants_around_ddio_anywhere),
		cmocka_unit_test(test_planner_random_ddio_places_keep_invariants),
		cmocka_unit_test(test_planner_unaware_packs_in_config_order),
		cmocka_unit_test(test_planner_shuffles_lighter_be_onto_ddio),
		cmocka_unit_test(test_planner_ps_shares_only_when_unavoidable),
		cmocka_unit_test(test_planner_rejects_what_does_not_fit),
		cmocka_unit_test(test_planner_groups_share_one_mask),
		cmocka_unit_test(test_planner_mask_helpers),
	};

	return cmocka_run_group_tests_name("planner", tests, NULL, NULL);
}
