// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: sample message construction. Build a sample into an skb, parse it
 * back as a client would, and compare; check the size computation is enough
 * and that a message one byte short fails cleanly.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include "../compat.h"
#include "../sample_msg.h"

static const struct nla_policy counter_pol[IOCA_A_COUNTER_MAX + 1] = {
	[IOCA_A_COUNTER_INDEX] = { .type = NLA_U32 },
	[IOCA_A_COUNTER_VALUE] = { .type = NLA_U64 },
	[IOCA_A_COUNTER_ENABLED_NS] = { .type = NLA_U64 },
	[IOCA_A_COUNTER_RUNNING_NS] = { .type = NLA_U64 },
	[IOCA_A_COUNTER_PAD] = { .type = NLA_UNSPEC },
};

static void check_counter(struct kunit *test, const struct nlattr *nest,
			  u32 index, const struct ioca_count *want)
{
	struct nlattr *tb[IOCA_A_COUNTER_MAX + 1];

	KUNIT_ASSERT_EQ(test, nla_parse_nested_deprecated(tb, IOCA_A_COUNTER_MAX,
							  nest, counter_pol,
							  NULL), 0);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_COUNTER_INDEX]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_COUNTER_VALUE]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_COUNTER_ENABLED_NS]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_COUNTER_RUNNING_NS]);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[IOCA_A_COUNTER_INDEX]), index);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_COUNTER_VALUE]),
			want->value);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_COUNTER_ENABLED_NS]),
			want->enabled);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_COUNTER_RUNNING_NS]),
			want->running);
}

static void check_cpu(struct kunit *test, const struct nlattr *nest,
		      const struct ioca_sample_cpu *want, unsigned int nr_ev)
{
	const struct nlattr *a;
	unsigned int n = 0;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		switch (nla_type(a)) {
		case IOCA_A_CPU_ID:
			KUNIT_EXPECT_EQ(test, nla_get_u32(a), want->cpu);
			break;
		case IOCA_A_CPU_SOCKET:
			KUNIT_EXPECT_EQ(test, nla_get_u32(a), want->socket);
			break;
		case IOCA_A_CPU_ONLINE:
			KUNIT_EXPECT_EQ(test, nla_get_u8(a), (u8)want->online);
			break;
		case IOCA_A_CPU_GENERATION:
			KUNIT_EXPECT_EQ(test, nla_get_u32(a), want->generation);
			break;
		case IOCA_A_CPU_COUNTER:
			KUNIT_ASSERT_LT(test, n, nr_ev);
			check_counter(test, a, n, &want->c[n]);
			n++;
			break;
		default:
			KUNIT_FAIL(test, "unexpected CPU attribute %d",
				   nla_type(a));
		}
	}
	KUNIT_EXPECT_EQ(test, n, want->online ? nr_ev : 0);
}

static struct ioca_count sock_counts[2] = {
	{ 111, 5000, 5000 }, { 222, 5000, 2500 },
};

static const struct ioca_sample_cpu sample_cpus[] = {
	{ .cpu = 0, .socket = 0, .online = true, .generation = 3,
	  .c = { { 1000, 900, 800 }, { U64_MAX, 2, 1 } } },
	{ .cpu = 3, .socket = 1, .online = false },
	{ .cpu = 7, .socket = 1, .online = true,
	  .c = { { 5, 6, 7 }, { 8, 9, 10 } } },
};

static const struct ioca_sample_socket sample_sockets[] = {
	{ .id = 0, .present = true, .c = sock_counts },
	{ .id = 1, .present = false },
};

static void sample_example(struct ioca_sample *s, bool on_demand)
{
	*s = (struct ioca_sample) {
		.seq = 41, .time_ns = 123456789, .realtime_ns = 987654321,
		.interval_us = 10000, .on_demand = on_demand,
		.nr_events = 2, .nr_cpus = ARRAY_SIZE(sample_cpus),
		.cpus = sample_cpus, .nr_uncore = 2,
		.nr_sockets = ARRAY_SIZE(sample_sockets),
		.sockets = sample_sockets,
	};
}

static void check_header(struct kunit *test, struct nlattr **tb,
			 const struct ioca_sample *s)
{
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_SAMPLE_SEQ]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_SAMPLE_TIME_NS]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_SAMPLE_REALTIME_NS]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_SAMPLE_COLLECT_NS]);
	KUNIT_ASSERT_NOT_NULL(test, tb[IOCA_A_SAMPLE_INTERVAL_US]);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_SAMPLE_SEQ]), s->seq);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_SAMPLE_TIME_NS]),
			s->time_ns);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_SAMPLE_REALTIME_NS]),
			s->realtime_ns);
	KUNIT_EXPECT_EQ(test, nla_get_u64(tb[IOCA_A_SAMPLE_COLLECT_NS]), 77ull);
	KUNIT_EXPECT_EQ(test, nla_get_u32(tb[IOCA_A_SAMPLE_INTERVAL_US]),
			s->interval_us);
	KUNIT_EXPECT_EQ(test, !!tb[IOCA_A_SAMPLE_ON_DEMAND], s->on_demand);
}

static void check_sockets(struct kunit *test, const struct nlattr *nest,
			  unsigned int *sockets)
{
	const struct nlattr *a;
	unsigned int n = 0, id = U32_MAX;
	int rem;

	nla_for_each_nested(a, nest, rem) {
		if (nla_type(a) == IOCA_A_SOCKET_ID) {
			id = nla_get_u32(a);
			continue;
		}
		KUNIT_ASSERT_EQ(test, nla_type(a), IOCA_A_SOCKET_COUNTER);
		KUNIT_ASSERT_LT(test, n, 2u);
		check_counter(test, a, n, &sock_counts[n]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, id, *sockets);
	KUNIT_EXPECT_EQ(test, n, sample_sockets[*sockets].present ? 2u : 0u);
	(*sockets)++;
}

static void sample_roundtrip(struct kunit *test, bool on_demand)
{
	struct nlattr *tb[IOCA_A_SAMPLE_MAX + 1] = {};
	unsigned int cpus = 0, sockets = 0;
	struct ioca_sample s;
	struct nlattr *collect = NULL, *a;
	struct sk_buff *skb;
	size_t size;
	int rem;

	/* Arrange */
	sample_example(&s, on_demand);
	size = ioca_sample_msg_size(&s);
	skb = alloc_skb(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* Act */
	KUNIT_ASSERT_EQ(test, ioca_sample_fill(skb, &s, &collect), 0);
	KUNIT_ASSERT_NOT_NULL(test, collect);
	memcpy(nla_data(collect), &(u64){ 77 }, sizeof(u64));
	/* Assert */
	KUNIT_EXPECT_LE(test, (size_t)skb->len, size);
	nla_for_each_attr(a, (struct nlattr *)skb->data, skb->len, rem) {
		if (nla_type(a) == IOCA_A_SAMPLE_CPU) {
			KUNIT_ASSERT_LT(test, cpus, (unsigned int)s.nr_cpus);
			check_cpu(test, a, &sample_cpus[cpus++], s.nr_events);
		} else if (nla_type(a) == IOCA_A_SAMPLE_SOCKET) {
			KUNIT_ASSERT_LT(test, sockets, s.nr_sockets);
			check_sockets(test, a, &sockets);
		} else if (nla_type(a) <= IOCA_A_SAMPLE_MAX) {
			tb[nla_type(a)] = a;
		}
	}
	KUNIT_EXPECT_EQ(test, rem, 0);
	KUNIT_EXPECT_EQ(test, cpus, s.nr_cpus);
	KUNIT_EXPECT_EQ(test, sockets, s.nr_sockets);
	check_header(test, tb, &s);
	kfree_skb(skb);
}

static void sample_test_roundtrip_periodic(struct kunit *test)
{
	sample_roundtrip(test, false);
}

static void sample_test_roundtrip_on_demand(struct kunit *test)
{
	sample_roundtrip(test, true);
}

static void sample_test_one_byte_short_fails(struct kunit *test)
{
	struct nlattr *collect = NULL;
	struct ioca_sample s;
	struct sk_buff *skb;
	size_t size;

	sample_example(&s, false);
	size = ioca_sample_msg_size(&s);
	skb = alloc_skb(size + 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* Leave exactly the bytes the fill uses, minus one. */
	KUNIT_ASSERT_EQ(test, ioca_sample_fill(skb, &s, &collect), 0);
	size = skb->len;
	skb_trim(skb, 0);
	skb_put(skb, skb_tailroom(skb) - (size - 1));
	KUNIT_EXPECT_EQ(test, ioca_sample_fill(skb, &s, &collect), -EMSGSIZE);
	kfree_skb(skb);
}

struct size_case {
	const char *desc;
	unsigned int nr_cpus;
	unsigned int nr_events;
	unsigned int nr_uncore;
};

static const struct size_case size_cases[] = {
	{ "no CPU, no socket", 0, 0, 0 },
	{ "one CPU, one event", 1, 1, 0 },
	{ "max CPUs and events", IOCA_MAX_CPUS, IOCA_MAX_CPU_EVENTS, 0 },
	{ "max uncore events", 1, 1, IOCA_MAX_UNCORE_EVENTS },
};

static void size_desc(const struct size_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(size, size_cases, size_desc);

static void sample_test_size_is_enough(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	struct ioca_sample_socket *so;
	struct ioca_sample_cpu *cpus;
	struct nlattr *collect;
	struct ioca_sample s = {};
	struct sk_buff *skb;
	unsigned int i;
	size_t size;

	cpus = kunit_kcalloc(test, c->nr_cpus + 1, sizeof(*cpus), GFP_KERNEL);
	so = kunit_kcalloc(test, IOCA_MAX_SOCKETS, sizeof(*so), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cpus);
	KUNIT_ASSERT_NOT_NULL(test, so);
	for (i = 0; i < c->nr_cpus; i++)
		cpus[i] = (struct ioca_sample_cpu){ .cpu = i, .online = true };
	for (i = 0; c->nr_uncore && i < IOCA_MAX_SOCKETS; i++) {
		so[i].present = true;
		so[i].c = kunit_kcalloc(test, c->nr_uncore, sizeof(*so[i].c),
					GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, so[i].c);
	}
	s.nr_cpus = c->nr_cpus;
	s.nr_events = c->nr_events;
	s.cpus = cpus;
	s.nr_uncore = c->nr_uncore;
	s.nr_sockets = c->nr_uncore ? IOCA_MAX_SOCKETS : 0;
	s.sockets = so;
	size = ioca_sample_msg_size(&s);
	skb = alloc_skb(size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, ioca_sample_fill(skb, &s, &collect), 0);
	KUNIT_EXPECT_LE(test, (size_t)skb->len, size);
	kfree_skb(skb);
}

static struct kunit_case sample_test_cases[] = {
	KUNIT_CASE(sample_test_roundtrip_periodic),
	KUNIT_CASE(sample_test_roundtrip_on_demand),
	KUNIT_CASE(sample_test_one_byte_short_fails),
	KUNIT_CASE_PARAM(sample_test_size_is_enough, size_gen_params),
	{}
};

static struct kunit_suite sample_test_suite = {
	.name = "ioca-sample",
	.test_cases = sample_test_cases,
};

kunit_test_suite(sample_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca sample messages");
IOCA_IMPORT_KUNIT_NS();
