// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the run and DDIO epochs past their u32 range. 0 means "no epoch"
 * to every reader (a socket whose register was never read, an older
 * module), so an epoch that wraps must skip it: a DDIO mask published with
 * epoch 0 would vanish from the samples, and a run epoch 0 would read as
 * a module that sends none.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include "../compat.h"
#include "../ddio.h"
#include "../sampler.h"

static void epoch_test_ddio_wrap_skips_zero(struct kunit *test)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct ioca_ddio_req req = { .socket = 0, .mask = 0x780 };
	const char *why = NULL;
	u32 mask = 0;

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ioca_ddio_init_emulated(d, 1, 11, 2), 0);
	/* Arrange: the socket's last write took the highest epoch. */
	d->sock[0].epoch = U32_MAX;
	/* Act */
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	/* Assert: the write has an epoch and the samples still see its mask */
	KUNIT_EXPECT_NE(test, req.epoch, 0u);
	KUNIT_EXPECT_EQ(test, ioca_ddio_snapshot(&d->sock[0], &mask), req.epoch);
	KUNIT_EXPECT_EQ(test, mask, 0x780u);
	ioca_ddio_exit(d);
}

static void epoch_test_run_wrap_skips_zero(struct kunit *test)
{
	struct ioca_sampler *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	struct ioca_sampler_config *cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	struct netlink_ext_ack extack = {};
	int err;

	KUNIT_ASSERT_NOT_NULL(test, s);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_EQ(test, ioca_sampler_init(s), 0);
	cfg->interval_us = 100000;
	cfg->nr_events = 1;
	cfg->events[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	cfg->cpus[cfg->nr_cpus++] = cpumask_first(cpu_online_mask);
	s->epoch = U32_MAX;
	/* Act: a set, then a start, each past the top */
	err = ioca_sampler_configure(s, cfg, &extack);
	if (err)
		kfree(cfg);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, s->epoch, 1u);
	s->epoch = U32_MAX;
	KUNIT_EXPECT_EQ(test, ioca_sampler_start(s, &extack), 0);
	KUNIT_EXPECT_EQ(test, s->epoch, 1u);
	ioca_sampler_shutdown(s);
	ioca_sampler_exit(s);
}

static struct kunit_case epoch_test_cases[] = {
	KUNIT_CASE(epoch_test_ddio_wrap_skips_zero),
	KUNIT_CASE(epoch_test_run_wrap_skips_zero),
	{}
};

static struct kunit_suite epoch_test_suite = {
	.name = "ioca-epochs",
	.test_cases = epoch_test_cases,
};

kunit_test_suite(epoch_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for the ioca run and DDIO epochs");
IOCA_IMPORT_KUNIT_NS();
