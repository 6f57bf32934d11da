// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: sampler-set parsing. Each case builds a payload into an skb as a
 * client would send it and checks the parsed configuration or the refusal
 * (errno and extack text).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include "../compat.h"
#include "../parse.h"

static void put_event(struct sk_buff *skb, int type, u32 kind, bool cfg,
		      bool pmu)
{
	struct nlattr *nest = nla_nest_start(skb, type);

	if (kind)
		nla_put_u32(skb, IOCA_A_EVENT_KIND, kind);
	if (pmu)
		nla_put_u32(skb, IOCA_A_EVENT_TYPE, 42);
	if (cfg)
		nla_put_u64_64bit(skb, IOCA_A_EVENT_CONFIG, 0x1234,
				  IOCA_A_EVENT_PAD);
	nla_nest_end(skb, nest);
}

static void b_ok(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_INTERVAL_US, 10000);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0, 0);
}

static void b_cpu0(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_CPU, 0);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CPU_CLOCK, 0, 0);
}

static void b_raw(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_RAW, 1, 0);
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT, IOCA_EVENT_KIND_RAW, 1, 1);
}

static void b_dup_cpu(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_CPU, 0);
	nla_put_u32(skb, IOCA_A_SAMPLER_CPU, 0);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0, 0);
}

static void b_bad_cpu(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_CPU, nr_cpu_ids);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0, 0);
}

static void b_no_event(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_INTERVAL_US, 10000);
}

static void b_fast(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_INTERVAL_US,
		    IOCA_SAMPLER_INTERVAL_MIN_US - 1);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0, 0);
}

static void b_slow(struct sk_buff *skb)
{
	nla_put_u32(skb, IOCA_A_SAMPLER_INTERVAL_US,
		    IOCA_SAMPLER_INTERVAL_MAX_US + 1);
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0, 0);
}

static void b_no_kind(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT, 0, 1, 0);
}

static void b_kind_range(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_MAX + 1, 0, 0);
}

static void b_raw_no_config(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_RAW, 0, 0);
}

static void b_generic_config(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_LLC_MISSES, 1, 0);
}

static void b_uncore_generic(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT, IOCA_EVENT_KIND_CYCLES, 0,
		  0);
}

static void b_uncore_no_type(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT, IOCA_EVENT_KIND_RAW, 1, 0);
}

/* A raw event on PMU type @type, with a config. */
static void put_typed(struct sk_buff *skb, int attr, u32 type)
{
	struct nlattr *nest = nla_nest_start(skb, attr);

	nla_put_u32(skb, IOCA_A_EVENT_KIND, IOCA_EVENT_KIND_RAW);
	nla_put_u32(skb, IOCA_A_EVENT_TYPE, type);
	nla_put_u64_64bit(skb, IOCA_A_EVENT_CONFIG, 3, IOCA_A_EVENT_PAD);
	nla_nest_end(skb, nest);
}

static void b_cpu_software(struct sk_buff *skb)
{
	put_typed(skb, IOCA_A_SAMPLER_EVENT, PERF_TYPE_SOFTWARE);
}

static void b_cpu_tracepoint(struct sk_buff *skb)
{
	put_typed(skb, IOCA_A_SAMPLER_EVENT, PERF_TYPE_TRACEPOINT);
}

static void b_cpu_dynamic(struct sk_buff *skb)
{
	put_typed(skb, IOCA_A_SAMPLER_EVENT, 42);
}

static void b_cpu_hw_cache(struct sk_buff *skb)
{
	put_typed(skb, IOCA_A_SAMPLER_EVENT, PERF_TYPE_HW_CACHE);
}

static void b_uncore_software(struct sk_buff *skb)
{
	put_typed(skb, IOCA_A_SAMPLER_UNCORE_EVENT, PERF_TYPE_SOFTWARE);
}

static void b_uncore_emulated(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT,
		  IOCA_EVENT_KIND_DDIO_HIT_EMULATED, 0, 0);
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT,
		  IOCA_EVENT_KIND_DDIO_MISS_EMULATED, 0, 0);
}

static void b_cpu_emulated(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_EVENT,
		  IOCA_EVENT_KIND_DDIO_MISS_EMULATED, 0, 0);
}

static void b_emulated_with_type(struct sk_buff *skb)
{
	put_event(skb, IOCA_A_SAMPLER_UNCORE_EVENT,
		  IOCA_EVENT_KIND_DDIO_HIT_EMULATED, 0, 1);
}

static void b_too_many(struct sk_buff *skb)
{
	int i;

	for (i = 0; i <= IOCA_MAX_CPU_EVENTS; i++)
		put_event(skb, IOCA_A_SAMPLER_EVENT, IOCA_EVENT_KIND_CYCLES, 0,
			  0);
}

static void b_reply_attr(struct sk_buff *skb)
{
	b_ok(skb);
	nla_put_u32(skb, IOCA_A_SAMPLER_STATE, 1);
}

struct parse_case {
	const char *desc;
	void (*build)(struct sk_buff *skb);
	int err;
	const char *msg;
};

static const struct parse_case parse_cases[] = {
	{ "interval and one event", b_ok, 0, NULL },
	{ "one listed CPU", b_cpu0, 0, NULL },
	{ "raw and uncore events", b_raw, 0, NULL },
	{ "CPU listed twice", b_dup_cpu, -EINVAL, "CPU listed twice" },
	{ "CPU beyond nr_cpu_ids", b_bad_cpu, -EINVAL,
	  "CPU is not a possible CPU" },
	{ "no event", b_no_event, -EINVAL, "no event configured" },
	{ "interval under the minimum", b_fast, -ERANGE, NULL },
	{ "interval over the maximum", b_slow, -ERANGE, NULL },
	{ "event without kind", b_no_kind, -EINVAL, "event kind missing" },
	{ "kind out of range", b_kind_range, -ERANGE, NULL },
	{ "raw event without config", b_raw_no_config, -EINVAL,
	  "raw event needs config" },
	{ "generic event with config", b_generic_config, -EINVAL,
	  "type and config apply to raw events only" },
	{ "generic uncore event", b_uncore_generic, -EINVAL,
	  "uncore events must be raw (or emulated DDIO)" },
	{ "per-CPU software PMU", b_cpu_software, -EINVAL,
	  "PMU type not allowed: hardware, hw-cache or raw only" },
	{ "per-CPU tracepoint PMU", b_cpu_tracepoint, -EINVAL,
	  "PMU type not allowed: hardware, hw-cache or raw only" },
	{ "per-CPU dynamic PMU", b_cpu_dynamic, -EINVAL,
	  "PMU type not allowed: hardware, hw-cache or raw only" },
	{ "per-CPU hw-cache event", b_cpu_hw_cache, 0, NULL },
	{ "uncore on the software PMU", b_uncore_software, -EINVAL,
	  "uncore event type must be an uncore PMU's" },
	{ "emulated DDIO uncore events", b_uncore_emulated, 0, NULL },
	{ "emulated DDIO per-CPU event", b_cpu_emulated, -EINVAL,
	  "emulated DDIO events are uncore events only" },
	{ "emulated DDIO event with a type", b_emulated_with_type, -EINVAL,
	  "type and config apply to raw events only" },
	{ "uncore event without type", b_uncore_no_type, -EINVAL,
	  "uncore event needs a PMU type" },
	{ "one event too many", b_too_many, -EINVAL,
	  "more than IOCA_MAX_CPU_EVENTS events" },
	{ "reply-only attribute", b_reply_attr, -EINVAL, NULL },
};

static void parse_desc(const struct parse_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parse, parse_cases, parse_desc);

static int parse_run(struct kunit *test, const struct parse_case *c,
		     struct ioca_sampler_config *cfg,
		     struct netlink_ext_ack *extack)
{
	struct sk_buff *skb = alloc_skb(8192, GFP_KERNEL);
	int err;

	KUNIT_ASSERT_NOT_NULL(test, skb);
	c->build(skb);
	err = ioca_parse_sampler_config((const struct nlattr *)skb->data,
					skb->len, cfg, extack);
	/* extack points at static strings only; bad_attr is not read */
	kfree_skb(skb);
	return err;
}

static void parse_test_sampler_config(struct kunit *test)
{
	const struct parse_case *c = test->param_value;
	struct netlink_ext_ack extack = {};
	struct ioca_sampler_config *cfg;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_EXPECT_EQ(test, parse_run(test, c, cfg, &extack), c->err);
	if (c->msg) {
		KUNIT_ASSERT_NOT_NULL(test, extack._msg);
		KUNIT_EXPECT_STREQ(test, extack._msg, c->msg);
	}
	if (c->err)
		KUNIT_EXPECT_NOT_NULL(test, extack._msg);
}

static void parse_test_defaults_to_possible_cpus(struct kunit *test)
{
	const struct parse_case c = { "ok", b_ok };
	struct netlink_ext_ack extack = {};
	struct ioca_sampler_config *cfg;
	unsigned int i;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_EQ(test, parse_run(test, &c, cfg, &extack), 0);
	KUNIT_EXPECT_EQ(test, cfg->interval_us, 10000u);
	KUNIT_EXPECT_EQ(test, cfg->nr_events, 1u);
	KUNIT_EXPECT_EQ(test, cfg->events[0].kind, IOCA_EVENT_KIND_CYCLES);
	KUNIT_EXPECT_EQ(test, cfg->nr_cpus, num_possible_cpus());
	for (i = 0; i < cfg->nr_cpus; i++)
		KUNIT_EXPECT_TRUE(test, cpu_possible(cfg->cpus[i]));
	for (i = 1; i < cfg->nr_cpus; i++)
		KUNIT_EXPECT_LT(test, cfg->cpus[i - 1], cfg->cpus[i]);
}

static void parse_test_listed_cpu_and_raw_defaults(struct kunit *test)
{
	const struct parse_case one = { "cpu0", b_cpu0 };
	const struct parse_case raw = { "raw", b_raw };
	struct netlink_ext_ack extack = {};
	struct ioca_sampler_config *cfg;

	cfg = kunit_kzalloc(test, sizeof(*cfg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_EQ(test, parse_run(test, &one, cfg, &extack), 0);
	KUNIT_EXPECT_EQ(test, cfg->nr_cpus, 1u);
	KUNIT_EXPECT_EQ(test, cfg->cpus[0], 0u);
	KUNIT_EXPECT_EQ(test, cfg->interval_us,
			(u32)IOCA_SAMPLER_INTERVAL_DEFAULT_US);

	KUNIT_ASSERT_EQ(test, parse_run(test, &raw, cfg, &extack), 0);
	KUNIT_EXPECT_EQ(test, cfg->events[0].type, (u32)PERF_TYPE_RAW);
	KUNIT_EXPECT_EQ(test, cfg->events[0].config, 0x1234ull);
	KUNIT_EXPECT_EQ(test, cfg->nr_uncore, 1u);
	KUNIT_EXPECT_EQ(test, cfg->uncore[0].type, 42u);
}

static struct kunit_case parse_test_cases[] = {
	KUNIT_CASE_PARAM(parse_test_sampler_config, parse_gen_params),
	KUNIT_CASE(parse_test_defaults_to_possible_cpus),
	KUNIT_CASE(parse_test_listed_cpu_and_raw_defaults),
	{}
};

static struct kunit_suite parse_test_suite = {
	.name = "ioca-parse",
	.test_cases = parse_test_cases,
};

kunit_test_suite(parse_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca sampler request parsing");
IOCA_IMPORT_KUNIT_NS();
