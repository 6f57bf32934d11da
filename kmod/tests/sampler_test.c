// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the sampler with real in-kernel perf events. Each case runs its own
 * sampler instance beside the module's: control-op ordering, the software
 * fallback when the PMU lacks a hardware event, intervals counted while
 * nobody listens, and counters released and re-created across CPU hotplug.
 */
#include <kunit/test.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include "../compat.h"
#include "../sampler.h"

static struct ioca_sampler_config *sampler_cfg(struct kunit *test, u32 kind,
					       u32 interval_us)
{
	/* kmalloc, not kunit_kzalloc: the sampler owns and frees it. */
	struct ioca_sampler_config *cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	unsigned int cpu;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	cfg->interval_us = interval_us;
	cfg->nr_events = 1;
	cfg->events[0].kind = kind;
	for_each_possible_cpu(cpu)
		if (cfg->nr_cpus < IOCA_MAX_CPUS)
			cfg->cpus[cfg->nr_cpus++] = cpu;
	return cfg;
}

static void sampler_configure(struct kunit *test, u32 kind, u32 interval_us)
{
	struct ioca_sampler_config *cfg = sampler_cfg(test, kind, interval_us);
	struct netlink_ext_ack extack = {};
	int err;

	err = ioca_sampler_configure(test->priv, cfg, &extack);
	if (err)
		kfree(cfg);
	KUNIT_ASSERT_EQ(test, err, 0);
}

static int sampler_slot_of(const struct ioca_sampler *s, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < s->cfg->nr_cpus; i++)
		if (s->cfg->cpus[i] == cpu)
			return i;
	return -1;
}

static int sampler_test_init(struct kunit *test)
{
	struct ioca_sampler *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_EQ(test, ioca_sampler_init(s), 0);
	test->priv = s;
	return 0;
}

static void sampler_test_exit(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;

	ioca_sampler_shutdown(s);
	ioca_sampler_exit(s);
}

static void sampler_test_start_unconfigured_is_refused(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;
	struct netlink_ext_ack extack = {};

	KUNIT_EXPECT_EQ(test, ioca_sampler_start(s, &extack), -EINVAL);
	KUNIT_ASSERT_NOT_NULL(test, extack._msg);
	KUNIT_EXPECT_STREQ(test, extack._msg, "sampler is not configured");
	KUNIT_EXPECT_EQ(test, s->state, IOCA_SAMPLER_STATE_UNCONFIGURED);
}

static void sampler_test_configure_while_running_is_busy(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;
	struct netlink_ext_ack extack = {};
	struct ioca_sampler_config *again;

	sampler_configure(test, IOCA_EVENT_KIND_CPU_CLOCK, 100000);
	KUNIT_ASSERT_EQ(test, ioca_sampler_start(s, &extack), 0);
	KUNIT_EXPECT_EQ(test, s->state, IOCA_SAMPLER_STATE_RUNNING);
	KUNIT_EXPECT_EQ(test, ioca_sampler_start(s, &extack), -EBUSY);

	again = sampler_cfg(test, IOCA_EVENT_KIND_CPU_CLOCK, 1000);
	KUNIT_EXPECT_EQ(test, ioca_sampler_configure(s, again, &extack),
			-EBUSY);
	kfree(again);
	KUNIT_EXPECT_STREQ(test, extack._msg,
			   "sampler is running: stop it first");
	KUNIT_EXPECT_EQ(test, s->cfg->interval_us, 100000u);

	KUNIT_EXPECT_EQ(test, ioca_sampler_stop(s, &extack), 0);
	KUNIT_EXPECT_EQ(test, s->state, IOCA_SAMPLER_STATE_CONFIGURED);
	KUNIT_EXPECT_NULL(test, s->slots);
	KUNIT_EXPECT_EQ(test, ioca_sampler_stop(s, &extack), -EINVAL);
}

static void sampler_test_missing_hw_event_counts_cpu_clock(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;
	struct netlink_ext_ack extack = {};
	unsigned int cpu;

	if (s->hw_counters)
		kunit_skip(test, "the PMU has hardware events here");
	sampler_configure(test, IOCA_EVENT_KIND_CYCLES, 100000);
	KUNIT_ASSERT_EQ(test, ioca_sampler_start(s, &extack), 0);
	KUNIT_EXPECT_EQ(test, s->eff_kind[0], (u32)IOCA_EVENT_KIND_CPU_CLOCK);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		int i = sampler_slot_of(s, cpu);

		KUNIT_ASSERT_GE(test, i, 0);
		KUNIT_EXPECT_NOT_NULL(test, s->slots[i].ev[0]);
	}
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, ioca_sampler_stop(s, &extack), 0);
}

static void sampler_test_counts_intervals_without_listener(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;
	struct netlink_ext_ack extack = {};
	u64 intervals, no_listener, seq;

	sampler_configure(test, IOCA_EVENT_KIND_CPU_CLOCK, 2000);
	KUNIT_ASSERT_EQ(test, ioca_sampler_start(s, &extack), 0);
	msleep(100);
	mutex_lock(&s->lock);
	intervals = s->intervals;
	no_listener = s->no_listener;
	seq = s->seq;
	mutex_unlock(&s->lock);
	KUNIT_EXPECT_EQ(test, ioca_sampler_stop(s, &extack), 0);

	KUNIT_EXPECT_GT(test, intervals, 0ull);
	KUNIT_EXPECT_EQ(test, no_listener, intervals);
	KUNIT_EXPECT_EQ(test, seq, 0ull);
	KUNIT_EXPECT_EQ(test, s->nr_collect, 0ull);
}

static void sampler_test_offline_cpu_releases_counters(struct kunit *test)
{
	struct ioca_sampler *s = test->priv;
	struct netlink_ext_ack extack = {};
	u32 gen;
	int i;

	if (num_online_cpus() < 2 || !cpu_online(1))
		kunit_skip(test, "needs CPU 1 online");
	sampler_configure(test, IOCA_EVENT_KIND_CPU_CLOCK, 100000);
	KUNIT_ASSERT_EQ(test, ioca_sampler_start(s, &extack), 0);
	i = sampler_slot_of(s, 1);
	KUNIT_ASSERT_GE(test, i, 0);
	KUNIT_EXPECT_NOT_NULL(test, s->slots[i].ev[0]);
	gen = s->generation[1];

	/* Act: take CPU 1 away, then bring it back */
	if (remove_cpu(1)) {
		ioca_sampler_stop(s, &extack);
		kunit_skip(test, "CPU 1 cannot go offline");
	}
	KUNIT_EXPECT_NULL(test, s->slots[i].ev[0]);
	KUNIT_ASSERT_EQ(test, add_cpu(1), 0);
	KUNIT_EXPECT_NOT_NULL(test, s->slots[i].ev[0]);
	/* Re-created from zero: a new generation, so no delta spans it */
	KUNIT_EXPECT_EQ(test, s->generation[1], gen + 1);

	KUNIT_EXPECT_EQ(test, ioca_sampler_stop(s, &extack), 0);
}

static struct kunit_case sampler_test_cases[] = {
	KUNIT_CASE(sampler_test_start_unconfigured_is_refused),
	KUNIT_CASE(sampler_test_configure_while_running_is_busy),
	KUNIT_CASE(sampler_test_missing_hw_event_counts_cpu_clock),
	KUNIT_CASE(sampler_test_counts_intervals_without_listener),
	KUNIT_CASE(sampler_test_offline_cpu_releases_counters),
	{}
};

static struct kunit_suite sampler_test_suite = {
	.name = "ioca-sampler",
	.init = sampler_test_init,
	.exit = sampler_test_exit,
	.test_cases = sampler_test_cases,
};

kunit_test_suite(sampler_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the ioca sampler");
IOCA_IMPORT_KUNIT_NS();
