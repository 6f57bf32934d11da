// SPDX-License-Identifier: GPL-2.0
/* The simulator behind the platform interface: time, events, counters, plans, binding. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fake_platform.h"
#include "sim_platform.h"

static const char scn[] = "[platform]\n"
			  "ways = 11\n"
			  "duration = 6s\n"
			  "noise = 0.02\n"
			  "seed = 5\n"
			  "[tenant net]\n"
			  "cpus = 0-1\n"
			  "rate = 1M\n"
			  "pkt = 1500\n"
			  "queues = 8\n"
			  "[tenant be]\n"
			  "cpus = 2\n"
			  "ws = 4M\n"
			  "[events]\n"
			  "at 2500ms traffic net rate=3M\n"
			  "at 4s leave be\n"
			  "at 5s ddio 0x700\n";

struct fx {
	char path[64];
	struct platform pf;
	struct platform_sample s[8];
	char err[256];
};

static void write_file(char *path, const char *text)
{
	int fd;

	strcpy(path, "/tmp/test_sim_XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	write_file(f->path, scn);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	if (f->pf.ops)
		f->pf.ops->destroy(f->pf.ctx);
	unlink(f->path);
	free(f);
	return 0;
}

static int open_sim(struct fx *f, const struct sim_platform_opts *o)
{
	return sim_platform_open(f->path, o, &f->pf, f->err, sizeof(f->err));
}

static void poll_all(struct fx *f, unsigned int want)
{
	unsigned int i;

	for (i = 0; i < want; i++)
		assert_int_equal(f->pf.ops->poll(f->pf.ctx, &f->s[i]), 0);
	assert_int_equal(f->pf.ops->poll(f->pf.ctx, &f->s[want]), PLATFORM_END);
}

static void test_sim_platform_runs_for_the_scenario_duration(void **state)
{
	struct fx *f = *state;
	struct platform_info info;
	unsigned int i;

	assert_int_equal(open_sim(f, NULL), 0);
	assert_int_equal(f->pf.ops->info(f->pf.ctx, &info), 0);
	assert_int_equal(info.socket[0].llc_ways, 11);
	assert_int_equal(info.ncpus, 3);
	assert_int_equal(info.socket[0].ddio_mask, 0x600);
	assert_true(info.socket[0].ddio_counters);
	assert_int_equal(info.cpu_socket[2], 0);
	assert_int_equal(info.cpu_socket[3], PLATFORM_CPU_ABSENT);
	poll_all(f, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(f->s[i].seq, i + 1);
		assert_int_equal(f->s[i].t_ns, (i + 1) * 1000000000ULL);
		assert_true(f->s[i].cpu[2].cycles > 0);
		if (i) {
			assert_true(f->s[i].socket[0].ddio_hits > f->s[i - 1].socket[0].ddio_hits);
			assert_true(f->s[i].cpu[0].instructions >= f->s[i - 1].cpu[0].instructions);
		}
	}
	/* A tenant's work is split evenly over its cores. */
	assert_true(f->s[0].cpu[0].cycles == f->s[0].cpu[1].cycles);
}

static void test_sim_platform_events_apply_mid_interval(void **state)
{
	struct fx *f = *state;
	double d2, d3, d4;

	assert_int_equal(open_sim(f, NULL), 0);
	poll_all(f, 6);
	/* rate triples at 2.5 s: interval 3 is half and half. */
	d2 = (double)(f->s[1].socket[0].ddio_hits + f->s[1].socket[0].ddio_misses) -
	     (double)(f->s[0].socket[0].ddio_hits + f->s[0].socket[0].ddio_misses);
	d3 = (double)(f->s[2].socket[0].ddio_hits + f->s[2].socket[0].ddio_misses) -
	     (double)(f->s[1].socket[0].ddio_hits + f->s[1].socket[0].ddio_misses);
	d4 = (double)(f->s[3].socket[0].ddio_hits + f->s[3].socket[0].ddio_misses) -
	     (double)(f->s[2].socket[0].ddio_hits + f->s[2].socket[0].ddio_misses);
	assert_true(d3 > 1.6 * d2 && d3 < 2.4 * d2);
	assert_true(d4 > 2.6 * d2 && d4 < 3.4 * d2);
	/* "be" leaves at 4 s: its core stops counting. */
	assert_int_equal(f->s[5].cpu[2].cycles, f->s[3].cpu[2].cycles);
	assert_int_equal(sim_platform_ddio_mask(&f->pf), 0x700);
}

static void test_sim_platform_same_seed_same_counters(void **state)
{
	struct fx *f = *state;
	struct platform other;
	struct platform_sample a, b;
	struct sim_platform_opts o = {.sz = sizeof(o), .seed = 99, .noise = 0.05};
	int i;

	assert_int_equal(open_sim(f, &o), 0);
	assert_int_equal(sim_platform_open(f->path, &o, &other, f->err, sizeof(f->err)), 0);
	for (i = 0; i < 6; i++) {
		assert_int_equal(f->pf.ops->poll(f->pf.ctx, &a), 0);
		assert_int_equal(other.ops->poll(other.ctx, &b), 0);
		assert_memory_equal(&a, &b, sizeof(a));
	}
	other.ops->destroy(other.ctx);
	/* Another seed with noise gives other counters. */
	o.seed = 100;
	assert_int_equal(sim_platform_open(f->path, &o, &other, f->err, sizeof(f->err)), 0);
	assert_int_equal(other.ops->poll(other.ctx, &b), 0);
	f->pf.ops->destroy(f->pf.ctx);
	assert_int_equal(o.seed, 100);
	o.seed = 99;
	assert_int_equal(open_sim(f, &o), 0);
	assert_int_equal(f->pf.ops->poll(f->pf.ctx, &a), 0);
	assert_true(a.cpu[2].instructions != b.cpu[2].instructions);
	other.ops->destroy(other.ctx);
}

static void test_sim_platform_apply_is_all_or_nothing(void **state)
{
	struct fx *f = *state;
	struct platform_plan plan = {0};
	struct platform_group *g = plan.socket[0].group;

	assert_int_equal(open_sim(f, NULL), 0);
	fake_plan_group(&plan, 0, "net", 0x7, 0, 1);
	fake_plan_group(&plan, 0, "be", 0x18, 2, 2);
	plan.socket[0].ddio_mask = 0x600;
	assert_int_equal(f->pf.ops->check(f->pf.ctx, &plan), 0);
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), 0);
	assert_int_equal(sim_platform_tenant_mask(&f->pf, "net"), 0x7);
	assert_int_equal(sim_platform_tenant_mask(&f->pf, "be"), 0x18);

	plan.socket[0].ddio_mask = 0x700;
	g[0].mask = 0x5; /* not contiguous */
	assert_int_equal(f->pf.ops->check(f->pf.ctx, &plan), -EINVAL);
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), -EINVAL);
	g[0].mask = 0x3;
	g[1].mask = 0x1000; /* beyond 11 ways */
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), -EINVAL);
	g[1].mask = 0x18;
	/* a group whose CPUs run no tenant: like resctrl, the class is by CPU */
	memset(&g[1].cpus, 0, sizeof(g[1].cpus));
	platform_cpuset_add(&g[1].cpus, 7);
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), -ENOENT);
	assert_non_null(strstr(f->pf.ops->last_error(f->pf.ctx), "group 'be'"));
	/* a socket the scenario does not simulate */
	plan.socket[0].id = 1;
	assert_int_equal(f->pf.ops->check(f->pf.ctx, &plan), -ENOENT);
	assert_int_equal(sim_platform_tenant_mask(&f->pf, "net"), 0x7);
	assert_int_equal(sim_platform_ddio_mask(&f->pf), 0x600);

	assert_int_equal(f->pf.ops->restore(f->pf.ctx), 0);
	assert_int_equal(sim_platform_tenant_mask(&f->pf, "net"), 0x7ff);
	assert_int_equal(sim_platform_ddio_mask(&f->pf), 0x600);
}

static void test_sim_platform_plan_changes_counters(void **state)
{
	struct fx *f = *state;
	struct platform_plan plan = {0};
	struct platform_sample a, b, c;

	assert_int_equal(open_sim(f, NULL), 0);
	fake_plan_group(&plan, 0, "be", 0x1, 2, 2); /* 2.25 MiB for a 4 MiB working set */
	plan.socket[0].ddio_mask = 0x600;
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), 0);
	assert_int_equal(f->pf.ops->poll(f->pf.ctx, &a), 0);
	assert_int_equal(f->pf.ops->poll(f->pf.ctx, &b), 0);
	plan.socket[0].group[0].mask = 0x7;
	assert_int_equal(f->pf.ops->apply(f->pf.ctx, &plan), 0);
	assert_int_equal(f->pf.ops->poll(f->pf.ctx, &c), 0);
	assert_true(b.cpu[2].llc_misses - a.cpu[2].llc_misses >
		    100 * (c.cpu[2].llc_misses - b.cpu[2].llc_misses + 1));
	assert_non_null(sim_platform_rates(&f->pf));
}

static void test_sim_platform_binds_config_tenants(void **state)
{
	struct fx *f = *state;
	static const unsigned int c0[] = {4, 5}, c1[] = {9};
	struct sim_tenant_cfg t[2] = {
		{.name = "net", .cpus = c0, .ncpus = 2, .networking = true},
		{.name = "be", .cpus = c1, .ncpus = 1},
	};
	struct sim_platform_opts o = {.sz = sizeof(o),
				      .tenants = t,
				      .ntenants = 2,
				      .llc_ways = 20,
				      .interval_ns = 500000000ULL,
				      .noise = -1};
	struct platform_info info;
	unsigned int n = 0;
	struct platform_sample s;

	assert_int_equal(open_sim(f, &o), 0);
	assert_int_equal(f->pf.ops->info(f->pf.ctx, &info), 0);
	assert_int_equal(info.ncpus, 10);
	assert_int_equal(info.socket[0].llc_ways, 20);
	assert_int_equal(info.socket[0].ddio_mask, 0xc0000); /* the default follows the way count */
	while (f->pf.ops->poll(f->pf.ctx, &s) == 0)
		n++;
	assert_int_equal(n, 12);
	assert_true(s.cpu[9].cycles > 0 && s.cpu[2].cycles == 0);
}

struct bind_case {
	const char *desc;
	struct sim_tenant_cfg t[2];
	unsigned int n;
	const char *msg;
};

static const unsigned int cpu0[] = {0}, cpu01[] = {0, 1};

static const struct bind_case bind_bad[] = {
	{"config tenant missing from the scenario",
	 {{.name = "net", .cpus = cpu0, .ncpus = 1, .networking = true},
	  {.name = "db", .cpus = cpu01, .ncpus = 1}},
	 2,
	 "no [tenant db] for the config's tenant"},
	{"traffic to a non-networking tenant",
	 {{.name = "net", .cpus = cpu0, .ncpus = 1}, {.name = "be", .cpus = cpu01 + 1, .ncpus = 1}},
	 2,
	 ":8: tenant 'net' gets traffic but the config says networking = no"},
	{"traffic past the vswitch",
	 {{.name = "net", .cpus = cpu0, .ncpus = 1, .networking = true},
	  {.name = "be", .cpus = cpu01 + 1, .ncpus = 1, .networking = true, .vswitch = true}},
	 2,
	 ":8: tenant 'net' gets NIC traffic but the config's vswitch 'be' owns the NIC"},
	{"one cpu for two tenants",
	 {{.name = "net", .cpus = cpu01, .ncpus = 2, .networking = true},
	  {.name = "be", .cpus = cpu0, .ncpus = 1}},
	 2,
	 "cpu 0 is also tenant 'net''s"},
};

static void test_sim_platform_binding_errors_say_where(void **state)
{
	struct fx *f = *state;
	size_t i;

	for (i = 0; i < sizeof(bind_bad) / sizeof(bind_bad[0]); i++) {
		struct sim_platform_opts o = {.sz = sizeof(o),
					      .noise = -1,
					      .tenants = bind_bad[i].t,
					      .ntenants = bind_bad[i].n};

		f->err[0] = '\0';
		assert_int_equal(open_sim(f, &o), -EINVAL);
		if (!strstr(f->err, bind_bad[i].msg))
			fail_msg("%s: got '%s'", bind_bad[i].desc, f->err);
	}
	f->pf.ops = NULL;
}

static void test_sim_platform_rejects_bad_opts(void **state)
{
	struct fx *f = *state;
	struct {
		struct sim_platform_opts o;
		long extra;
	} big = {.o = {.sz = sizeof(big)}, .extra = 1};
	struct sim_platform_opts o = {.sz = 8};

	assert_int_equal(open_sim(f, &o), -EINVAL);
	assert_int_equal(open_sim(f, &big.o), -EINVAL);
	big.extra = 0;
	big.o.noise = -1;
	assert_int_equal(open_sim(f, &big.o), 0); /* unknown but zero tail: fine */
	f->pf.ops->destroy(f->pf.ctx);
	f->pf.ops = NULL;
	o = (struct sim_platform_opts){.sz = sizeof(o), .noise = 0.9};
	assert_int_equal(open_sim(f, &o), -EINVAL);
	assert_int_equal(
		sim_platform_open("/nonexistent.scn", NULL, &f->pf, f->err, sizeof(f->err)),
		-ENOENT);
	assert_non_null(strstr(f->err, "/nonexistent.scn"));
	f->pf.ops = NULL;
}

/* Relative sd of a counter's per-interval deltas over a steady 200 s run. */
static double delta_cv(struct fx *f, double noise)
{
	static const char steady[] = "[platform]\nduration = 200s\nnoise = 0.3\nseed = 9\n"
				     "[tenant be]\ncpus = 0\nws = 8M\nrpi = 0.01\n";
	struct sim_platform_opts o = {.sz = sizeof(o), .noise = noise};
	struct platform_sample prev = {0}, cur;
	double sum = 0, sq = 0, n = 0;

	unlink(f->path);
	write_file(f->path, steady);
	assert_int_equal(open_sim(f, &o), 0);
	while (f->pf.ops->poll(f->pf.ctx, &cur) == 0) {
		double d = (double)(cur.cpu[0].llc_refs - prev.cpu[0].llc_refs);

		sum += d;
		sq += d * d;
		n++;
		prev = cur;
	}
	f->pf.ops->destroy(f->pf.ctx);
	f->pf.ops = NULL;
	assert_true(n == 200);
	return sqrt(sq / n - (sum / n) * (sum / n)) / (sum / n);
}

static void test_sim_platform_noise_has_the_asked_spread(void **state)
{
	struct fx *f = *state;
	double quiet = delta_cv(f, 0), noisy = delta_cv(f, 0.05);

	assert_true(quiet < 1e-6);
	if (noisy < 0.04 || noisy > 0.06)
		fail_msg("relative sd %.4f for noise 0.05", noisy);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_sim_platform_runs_for_the_scenario_duration),
		T(test_sim_platform_events_apply_mid_interval),
		T(test_sim_platform_same_seed_same_counters),
		T(test_sim_platform_apply_is_all_or_nothing),
		T(test_sim_platform_plan_changes_counters),
		T(test_sim_platform_binds_config_tenants),
		T(test_sim_platform_binding_errors_say_where),
		T(test_sim_platform_rejects_bad_opts),
		T(test_sim_platform_noise_has_the_asked_spread),
	};
#undef T
	return cmocka_run_group_tests(tests, NULL, NULL);
}
