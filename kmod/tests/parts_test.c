// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: samples at the ABI's limits go out in parts that each stay well
 * under 32 KiB, cover every CPU and socket exactly once and in order, and
 * carry their index and count; the emulated DDIO counters integrate their
 * rate over time.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include "../compat.h"
#include "../emul_counters.h"
#include "../sample_msg.h"

struct parts_fixture {
	struct ioca_sample_cpu cpus[IOCA_MAX_CPUS];
	struct ioca_sample_socket sockets[IOCA_MAX_SOCKETS];
	struct ioca_count counts[IOCA_MAX_SOCKETS * IOCA_MAX_UNCORE_EVENTS];
	struct ioca_sample_part parts[IOCA_MAX_CPUS + IOCA_MAX_SOCKETS + 1];
};

static void parts_full_sample(struct parts_fixture *f, struct ioca_sample *s)
{
	unsigned int i;

	for (i = 0; i < IOCA_MAX_CPUS; i++) {
		f->cpus[i].cpu = i;
		f->cpus[i].socket = i / (IOCA_MAX_CPUS / IOCA_MAX_SOCKETS);
		f->cpus[i].online = i % 7 != 3;
	}
	for (i = 0; i < IOCA_MAX_SOCKETS; i++) {
		f->sockets[i].id = i;
		f->sockets[i].present = true;
		f->sockets[i].ddio_mask = 0x600 >> i;
		f->sockets[i].c = &f->counts[i * IOCA_MAX_UNCORE_EVENTS];
	}
	memset(s, 0, sizeof(*s));
	s->seq = 42;
	s->nr_events = IOCA_MAX_CPU_EVENTS;
	s->nr_cpus = IOCA_MAX_CPUS;
	s->cpus = f->cpus;
	s->nr_uncore = IOCA_MAX_UNCORE_EVENTS;
	s->nr_sockets = IOCA_MAX_SOCKETS;
	s->sockets = f->sockets;
}

static void parts_test_split_at_abi_limits(struct kunit *test)
{
	struct parts_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int n, i, next_cpu = 0, next_sock = 0;
	struct ioca_sample whole, part;

	KUNIT_ASSERT_NOT_NULL(test, f);
	parts_full_sample(f, &whole);
	/* Arrange: one message would be far beyond 32 KiB */
	KUNIT_ASSERT_GT(test, ioca_sample_msg_size(&whole), (size_t)100000);
	/* Act */
	n = ioca_sample_plan(&whole, IOCA_PART_BUDGET, f->parts,
			     ARRAY_SIZE(f->parts));
	/* Assert */
	KUNIT_ASSERT_GT(test, n, 1u);
	for (i = 0; i < n; i++) {
		struct nlattr *collect;
		struct sk_buff *skb;
		size_t size;

		ioca_sample_select(&whole, &f->parts[i], i, n, &part);
		size = ioca_sample_msg_size(&part);
		/* The plan sizes each message, exactly when it is split */
		KUNIT_EXPECT_EQ(test, (size_t)f->parts[i].size, size);
		KUNIT_EXPECT_LE(test, size, (size_t)IOCA_PART_BUDGET);
		KUNIT_EXPECT_LT(test, (size_t)genlmsg_total_size(size),
				(size_t)(32 * 1024));
		KUNIT_EXPECT_EQ(test, f->parts[i].cpu_first, next_cpu);
		if (f->parts[i].nr_sockets)
			KUNIT_EXPECT_EQ(test, f->parts[i].sock_first, next_sock);
		next_cpu += f->parts[i].nr_cpus;
		next_sock += f->parts[i].nr_sockets;
		skb = alloc_skb(size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_EXPECT_EQ(test, ioca_sample_fill(skb, &part, &collect), 0);
		KUNIT_EXPECT_NOT_NULL(test,
				      nla_find((struct nlattr *)skb->data,
					       skb->len, IOCA_A_SAMPLE_PART));
		KUNIT_EXPECT_EQ(test, nla_get_u32(nla_find((struct nlattr *)skb->data,
							   skb->len,
							   IOCA_A_SAMPLE_PARTS)),
				n);
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, next_cpu, (unsigned int)IOCA_MAX_CPUS);
	KUNIT_EXPECT_EQ(test, next_sock, (unsigned int)IOCA_MAX_SOCKETS);
}

/*
 * At the smallest budget the module accepts, every CPU (and socket) of a
 * sample at the ABI's limits goes in a part of its own: the most parts a
 * sample can take, which is what IOCA_MAX_SAMPLE_PARTS says (libioca
 * refuses more), and each part fits the size planned for it.
 */
static void parts_test_smallest_budget_stays_within_max_parts(struct kunit *test)
{
	struct parts_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int n, i, cpus = 0, socks = 0;
	struct ioca_sample whole, part;

	KUNIT_ASSERT_NOT_NULL(test, f);
	parts_full_sample(f, &whole);
	/* Act */
	n = ioca_sample_plan(&whole, IOCA_PART_BUDGET_MIN, f->parts,
			     ARRAY_SIZE(f->parts));
	/* Assert */
	KUNIT_EXPECT_EQ(test, n, (unsigned int)IOCA_MAX_SAMPLE_PARTS);
	KUNIT_EXPECT_EQ(test, IOCA_MAX_SAMPLE_PARTS,
			IOCA_MAX_CPUS + IOCA_MAX_SOCKETS);
	for (i = 0; i < n; i++) {
		struct nlattr *collect;
		struct sk_buff *skb;

		KUNIT_EXPECT_EQ(test, f->parts[i].nr_cpus + f->parts[i].nr_sockets,
				1u);
		cpus += f->parts[i].nr_cpus;
		socks += f->parts[i].nr_sockets;
		ioca_sample_select(&whole, &f->parts[i], i, n, &part);
		skb = alloc_skb(f->parts[i].size, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, skb);
		KUNIT_EXPECT_EQ(test, ioca_sample_fill(skb, &part, &collect), 0);
		/* The plan is an upper bound (ON_DEMAND is sized, not sent) */
		KUNIT_EXPECT_LE(test, (size_t)skb->len, (size_t)f->parts[i].size);
		kfree_skb(skb);
	}
	KUNIT_EXPECT_EQ(test, cpus, (unsigned int)IOCA_MAX_CPUS);
	KUNIT_EXPECT_EQ(test, socks, (unsigned int)IOCA_MAX_SOCKETS);
}

static void parts_test_small_sample_is_one_message(struct kunit *test)
{
	struct parts_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ioca_sample whole, part;
	struct nlattr *collect;
	struct sk_buff *skb;

	KUNIT_ASSERT_NOT_NULL(test, f);
	parts_full_sample(f, &whole);
	whole.nr_cpus = 4;
	whole.nr_sockets = 1;
	whole.nr_uncore = 2;
	KUNIT_ASSERT_EQ(test, ioca_sample_plan(&whole, IOCA_PART_BUDGET,
					       f->parts, ARRAY_SIZE(f->parts)),
			1u);
	ioca_sample_select(&whole, &f->parts[0], 0, 1, &part);
	/* Room for PART/PARTS too: never short, at most two u32s over */
	KUNIT_EXPECT_GE(test, (size_t)f->parts[0].size,
			ioca_sample_msg_size(&part));
	KUNIT_EXPECT_LE(test, (size_t)f->parts[0].size,
			ioca_sample_msg_size(&part) +
			2 * nla_total_size(sizeof(u32)));
	skb = alloc_skb(ioca_sample_msg_size(&part), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, ioca_sample_fill(skb, &part, &collect), 0);
	/* Without PART/PARTS a message is a whole sample (old clients) */
	KUNIT_EXPECT_NULL(test, nla_find((struct nlattr *)skb->data, skb->len,
					 IOCA_A_SAMPLE_PART));
	kfree_skb(skb);
}

static void parts_test_too_few_slots(struct kunit *test)
{
	struct parts_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	struct ioca_sample whole;

	KUNIT_ASSERT_NOT_NULL(test, f);
	parts_full_sample(f, &whole);
	KUNIT_EXPECT_EQ(test, ioca_sample_plan(&whole, IOCA_PART_BUDGET,
					       f->parts, 2), 0u);
}

static void parts_test_emulated_rate_integrates(struct kunit *test)
{
	struct ioca_emul_counters *e = kunit_kzalloc(test, sizeof(*e),
						     GFP_KERNEL);
	const u32 hit = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	const u32 miss = IOCA_EVENT_KIND_DDIO_MISS_EMULATED;

	KUNIT_ASSERT_NOT_NULL(test, e);
	ioca_emul_init(e, 2);
	KUNIT_EXPECT_EQ(test, ioca_emul_read(e, 0, hit, 5 * NSEC_PER_SEC), 0ull);
	/* 1000/s from t=1 s: 2500 at t=3.5 s */
	KUNIT_ASSERT_EQ(test, ioca_emul_set_rate(e, 0, hit, 1000,
						 NSEC_PER_SEC), 0);
	KUNIT_EXPECT_EQ(test, ioca_emul_read(e, 0, hit, 3500 * NSEC_PER_MSEC),
			2500ull);
	/* Rate change at t=4 s keeps what was counted: 3000 + 10/s */
	KUNIT_ASSERT_EQ(test, ioca_emul_set_rate(e, 0, hit, 10,
						 4 * NSEC_PER_SEC), 0);
	KUNIT_EXPECT_EQ(test, ioca_emul_read(e, 0, hit, 6 * NSEC_PER_SEC),
			3020ull);
	/* Other counters untouched; bad socket and kind refused */
	KUNIT_EXPECT_EQ(test, ioca_emul_read(e, 0, miss, 6 * NSEC_PER_SEC), 0ull);
	KUNIT_EXPECT_EQ(test, ioca_emul_read(e, 1, hit, 6 * NSEC_PER_SEC), 0ull);
	KUNIT_EXPECT_EQ(test, ioca_emul_set_rate(e, 2, hit, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_emul_set_rate(e, 0, IOCA_EVENT_KIND_RAW, 1,
						 0), -EINVAL);
}

static struct kunit_case parts_test_cases[] = {
	KUNIT_CASE(parts_test_split_at_abi_limits),
	KUNIT_CASE(parts_test_smallest_budget_stays_within_max_parts),
	KUNIT_CASE(parts_test_small_sample_is_one_message),
	KUNIT_CASE(parts_test_too_few_slots),
	KUNIT_CASE(parts_test_emulated_rate_integrates),
	{}
};

static struct kunit_suite parts_test_suite = {
	.name = "ioca-parts",
	.test_cases = parts_test_cases,
};

kunit_test_suite(parts_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca sample parts and emulated counters");
IOCA_IMPORT_KUNIT_NS();
