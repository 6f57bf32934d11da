// SPDX-License-Identifier: GPL-2.0
/* Whole decisions over sequences of intervals: Fig. 7(a) and the modes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "decide_fx.h"

static const char fig7a[] = "[platform]\nmodel = aggregation\nllc_ways = 11\nddio_ways = 2\n"
			    "ddio_growth = paper\n"
			    "threshold_miss_low = 1000\n"
			    "[tenant ovs]\ncpus = 0\nways = 2\nvswitch = yes\n"
			    "[tenant ps]\ncpus = 1\nways = 3\npriority = PS\nnetworking = yes\n"
			    "[tenant be1]\ncpus = 2\nways = 2\n"
			    "[tenant be2]\ncpus = 3\nways = 2\n";

static const char latent[] = "[platform]\nllc_ways = 11\nddio_ways = 4\n"
			     "threshold_miss_low = 1e9\n"
			     "[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
			     "[tenant be3]\ncpus = 1\nways = 2\n"
			     "[tenant xmem]\ncpus = 2\nways = 2\npriority = PS\n";

static struct decide_fx *load(const char *text, enum iocad_mode mode)
{
	struct decide_fx *f = decide_fx_load(text, "d.ini", mode);

	f->iv.tenant[2].llc_refs = 2e6; /* be1 is heavier than be2 */
	return f;
}

static void refs(struct decide_fx *f, unsigned int i, double r, double m)
{
	f->iv.tenant[i].llc_refs = r;
	f->iv.tenant[i].llc_misses = m;
	f->iv.tenant[i].miss_rate = m / r;
}

static void test_decide_fig7a_vswitch_grows_then_gives_back(void **u)
{
	struct decide_fx *f = load(fig7a, IOCAD_MODE_IOCA);
	const struct planner_alloc *a = &f->ctx.alloc;

	(void)u;
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_string_equal(decide_reason_name(&f->out), "first");
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_int_equal(planner_ddio_overlap(a, 3), 0); /* 9 ways fit beside DDIO */

	/* t1: many flows: DDIO misses up, hits down, the vswitch's refs up */
	f->iv.ddio_hits = 6e5;
	f->iv.ddio_misses = 5e4;
	refs(f, 0, 3e6, 9e5);
	assert_string_equal(decide_fx_step(f), "core_demand");
	assert_string_equal(decide_reason_name(&f->out), "core_contention");
	assert_int_equal(a->ways[0], 3);
	assert_int_equal(planner_ddio_overlap(a, 3), 1); /* be2, the lighter BE, shares */
	f->iv.ddio_hits = 7e5;
	f->iv.ddio_misses = 3e4;
	assert_string_equal(decide_fx_step(f), "core_demand");
	assert_int_equal(a->ways[0], 4);
	assert_int_equal(planner_ddio_overlap(a, 3), 2);
	assert_int_equal(planner_ddio_overlap(a, 1), 0);
	assert_int_equal(planner_ddio_overlap(a, 0), 0);

	/* balance: misses fall under THRESHOLD_MISS_LOW; nothing is idle yet */
	f->iv.ddio_hits = 1e6;
	f->iv.ddio_misses = 500;
	assert_string_equal(decide_fx_step(f), "reclaim");
	assert_string_equal(decide_reason_name(&f->out), "balanced");
	assert_true(f->out.blocked); /* logged as [hold: nothing idle] */
	assert_int_equal(a->ways[0], 4);
	/* Reclaim does not sit holding: with nothing idle it is Low Keep */
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_string_equal(decide_reason_name(&f->out), "nothing_idle");
	assert_int_equal(a->ways[0], 4);
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_int_equal(a->ways[0], 4);

	/* t2: flows end: the vswitch's demand falls, two ways come back */
	refs(f, 0, 1e6, 1e5);
	assert_string_equal(decide_fx_step(f), "reclaim");
	assert_string_equal(decide_reason_name(&f->out), "idle_ways");
	assert_int_equal(a->ways[0], 3);
	assert_string_equal(decide_fx_step(f), "reclaim");
	assert_int_equal(a->ways[0], 2);
	assert_int_equal(planner_ddio_overlap(a, 3), 0); /* sharing ends */
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_string_equal(decide_reason_name(&f->out), "reclaim_done");
	free(f);
}

static void io_sequence(struct decide_fx *f)
{
	decide_fx_step(f);
	decide_fx_step(f);
	for (int k = 0; k < 6; k++) {
		f->iv.ddio_misses = 1e4 * (k + 2);
		decide_fx_step(f);
	}
}

static void test_decide_static_never_changes(void **u)
{
	struct decide_fx *f = load(fig7a, IOCAD_MODE_STATIC);
	struct planner_alloc before = f->ctx.alloc;

	(void)u;
	io_sequence(f);
	assert_string_equal(decide_reason_name(&f->out), "static");
	assert_false(f->out.changed);
	assert_memory_equal(&before, &f->ctx.alloc, sizeof(before));
	free(f);
}

static void test_decide_core_only_never_grows_ddio(void **u)
{
	struct decide_fx *f = load(fig7a, IOCAD_MODE_CORE_ONLY);
	struct decide_fx *g = load(fig7a, IOCAD_MODE_IOCA);

	(void)u;
	io_sequence(f);
	assert_int_equal(f->ctx.alloc.ddio_ways, 2);
	assert_string_equal(fsm_state_name(f->ctx.state), "low_keep");
	assert_string_equal(decide_reason_name(&f->out), "io_disabled");
	io_sequence(g);
	assert_int_equal(g->ctx.alloc.ddio_ways, 6);
	assert_string_equal(fsm_state_name(g->ctx.state), "high_keep");
	free(f);
	free(g);
}

/* xmem's working set grows: both modes give it a way; only ioca moves it off DDIO. */
static void test_decide_latent_contender_ioca_isolates_ps(void **u)
{
	struct decide_fx *f = load(latent, IOCAD_MODE_IOCA);
	struct decide_fx *g = load(latent, IOCAD_MODE_CORE_ONLY);
	struct decide_fx *x[2] = {f, g};

	(void)u;
	for (int k = 0; k < 2; k++) {
		decide_fx_step(x[k]);
		decide_fx_step(x[k]);
		refs(x[k], 2, 4e6, 2e6);
		decide_fx_step(x[k]);
		assert_string_equal(decide_reason_name(&x[k]->out), "core_alloc");
		assert_int_equal(x[k]->out.tenant, 2);
		assert_int_equal(x[k]->ctx.alloc.ways[2], 3);
	}
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 2), 0);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 1), 1); /* the BE shares */
	assert_int_equal(planner_ddio_overlap(&g->ctx.alloc, 2), 1); /* I/O-unaware */
	/* the extra way helps: misses fall, the demand holds: one more way */
	refs(f, 2, 4e6, 1e6);
	decide_fx_step(f);
	assert_string_equal(decide_reason_name(&f->out), "core_alloc");
	assert_int_equal(f->ctx.alloc.ways[2], 4);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 2), 0);
	/* that one bought little: nothing more to do */
	refs(f, 2, 4e6, 0.95e6);
	decide_fx_step(f);
	assert_string_not_equal(decide_reason_name(&f->out), "core_alloc");
	assert_int_equal(f->ctx.alloc.ways[2], 4);
	/* its demand ends: the core-side allocator takes the ways back */
	refs(f, 2, 1e6, 1e5);
	decide_fx_step(f);
	assert_string_equal(decide_reason_name(&f->out), "core_release");
	assert_int_equal(f->ctx.alloc.ways[2], 3);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 2), 0);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 1), 1); /* the BE shares */
	free(f);
	free(g);
}

static void test_decide_shuffle_moves_hungry_be_off_ddio(void **u)
{
	static const char text[] =
		"[platform]\nllc_ways = 8\nddio_ways = 2\n"
		"threshold_miss_low = 1e9\n"
		"[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
		"[tenant be1]\ncpus = 1\nways = 2\n"
		"[tenant be2]\ncpus = 2\nways = 2\n";
	struct decide_fx *f = load(text, IOCAD_MODE_IOCA);

	(void)u;
	/* 7 ways, 6 beside DDIO: LLC Alloc has no counters yet, be1 shares one way */
	decide_fx_step(f);
	decide_fx_step(f);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 1), 1);
	/* be1 turns LLC-hungry while sharing, and DDIO feels it: shuffle first */
	refs(f, 1, 6e6, 2e6);
	f->iv.ddio_hits = 7e5;
	assert_string_equal(decide_fx_step(f), "low_keep");
	assert_string_equal(decide_reason_name(&f->out), "shuffle");
	assert_int_equal(f->out.tenant, 1);
	assert_true(f->out.changed);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 1), 0);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 2), 1);
	assert_int_equal(planner_ddio_overlap(&f->ctx.alloc, 0), 0);
	free(f);
}

static void test_decide_group_grows_as_one(void **u)
{
	static const char text[] =
		"[platform]\nllc_ways = 11\nddio_ways = 2\n"
		"threshold_miss_low = 1e9\n"
		"[tenant vf]\ncpus = 0\nways = 3\npriority = PS\nnetworking = yes\n"
		"[tenant x1]\ncpus = 1\nways = 2\ngroup = x\n"
		"[tenant x2]\ncpus = 2\nways = 2\ngroup = x\n";
	struct decide_fx *f = load(text, IOCAD_MODE_IOCA);

	(void)u;
	decide_fx_step(f);
	decide_fx_step(f);
	refs(f, 2, 4e6, 2e6); /* x2's working set grows */
	decide_fx_step(f);
	assert_string_equal(decide_reason_name(&f->out), "core_alloc");
	assert_int_equal(f->ctx.alloc.ways[1], 3);
	assert_int_equal(f->ctx.alloc.ways[2], 3);
	assert_int_equal(f->ctx.alloc.mask[1], f->ctx.alloc.mask[2]);
	assert_int_equal(planner_tenant_ways(&f->ctx.alloc), 6);
	free(f);
}

static void test_decide_mode_names_round_trip(void **u)
{
	enum iocad_mode m;

	(void)u;
	for (int k = 0; k < 3; k++) {
		assert_int_equal(decide_mode_parse(decide_mode_name(k), &m), 0);
		assert_int_equal(m, k);
	}
	assert_int_equal(decide_mode_parse("fast", &m), -22);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_fig7a_vswitch_grows_then_gives_back),
		cmocka_unit_test(test_decide_static_never_changes),
		cmocka_unit_test(test_decide_core_only_never_grows_ddio),
		cmocka_unit_test(test_decide_latent_contender_ioca_isolates_ps),
		cmocka_unit_test(test_decide_shuffle_moves_hungry_be_off_ddio),
		cmocka_unit_test(test_decide_group_grows_as_one),
		cmocka_unit_test(test_decide_mode_names_round_trip),
	};

	return cmocka_run_group_tests_name("decide", tests, NULL, NULL);
}
