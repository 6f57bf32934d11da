// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: ddio-set parsing. Each case builds the socket nests of a request
 * as a client sends them, parses them against two emulated sockets of 11
 * ways, and checks the resolved masks or the refusal (errno, extack text
 * and the attribute it points at).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/skbuff.h>
#include <net/netlink.h>
#include "../compat.h"
#include "../ddio.h"
#include "../parse.h"

/* One IOCA_A_DDIO_SOCKET nest; a negative value leaves that attribute out. */
static void put_sock(struct sk_buff *skb, s64 id, s64 mask, s64 ways)
{
	struct nlattr *nest = nla_nest_start(skb, IOCA_A_DDIO_SOCKET);

	if (id >= 0)
		nla_put_u32(skb, IOCA_A_SOCKET_ID, id);
	if (mask >= 0)
		nla_put_u32(skb, IOCA_A_SOCKET_DDIO_MASK, mask);
	if (ways >= 0)
		nla_put_u32(skb, IOCA_A_SOCKET_DDIO_WAYS, ways);
	nla_nest_end(skb, nest);
}

static void b_two(struct sk_buff *skb)
{
	put_sock(skb, 0, 0x780, -1);
	put_sock(skb, 1, -1, 3);
}

static void b_twice(struct sk_buff *skb)
{
	put_sock(skb, 1, 0x600, -1);
	put_sock(skb, 1, 0x700, -1);
}

static void b_both(struct sk_buff *skb)
{
	put_sock(skb, 0, 0x600, 2);
}

static void b_neither(struct sk_buff *skb)
{
	put_sock(skb, 0, -1, -1);
}

static void b_no_id(struct sk_buff *skb)
{
	put_sock(skb, -1, 0x600, -1);
}

static void b_unknown(struct sk_buff *skb)
{
	put_sock(skb, 5, 0x600, -1);
}

static void b_gap(struct sk_buff *skb)
{
	put_sock(skb, 0, 0x500, -1);
}

static void b_zero_ways(struct sk_buff *skb)
{
	put_sock(skb, 0, -1, 0);
}

static void b_ways_range(struct sk_buff *skb)
{
	put_sock(skb, 0, -1, IOCA_LLC_MAX_WAYS + 1);
}

static void b_too_few(struct sk_buff *skb)
{
	put_sock(skb, 1, 0x400, -1);
}

struct ddio_parse_case {
	const char *desc;
	void (*build)(struct sk_buff *skb);
	int err;
	const char *msg;
	/* The attribute extack points at: 0 none, else its type in the nest */
	int bad;
};

static const struct ddio_parse_case ddio_parse_cases[] = {
	{ "two sockets, by mask and by ways", b_two, 0, NULL, 0 },
	{ "socket listed twice", b_twice, -EINVAL, "socket listed twice",
	  IOCA_A_DDIO_SOCKET },
	{ "mask and ways", b_both, -EINVAL,
	  "give exactly one of ddio-mask and ddio-ways", IOCA_A_DDIO_SOCKET },
	{ "neither mask nor ways", b_neither, -EINVAL,
	  "give exactly one of ddio-mask and ddio-ways", IOCA_A_DDIO_SOCKET },
	{ "no socket id", b_no_id, -EINVAL, "socket id missing",
	  IOCA_A_DDIO_SOCKET },
	{ "unknown socket", b_unknown, -ENODEV, "unknown socket",
	  IOCA_A_SOCKET_ID },
	{ "mask with a gap", b_gap, -EINVAL, "DDIO mask is not contiguous",
	  IOCA_A_SOCKET_DDIO_MASK },
	{ "zero ways", b_zero_ways, -EINVAL, "DDIO mask is empty",
	  IOCA_A_SOCKET_DDIO_WAYS },
	{ "ways above the policy", b_ways_range, -ERANGE, NULL,
	  IOCA_A_SOCKET_DDIO_WAYS },
	{ "fewer ways than min_ways", b_too_few, -EINVAL,
	  "DDIO mask has fewer ways than min_ways", IOCA_A_SOCKET_DDIO_MASK },
};

static void ddio_parse_desc(const struct ddio_parse_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ddio_parse, ddio_parse_cases, ddio_parse_desc);

static void ddio_parse_test_request(struct kunit *test)
{
	const struct ddio_parse_case *c = test->param_value;
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);
	struct sk_buff *skb = alloc_skb(1024, GFP_KERNEL);
	struct ioca_ddio_req reqs[IOCA_MAX_SOCKETS];
	struct netlink_ext_ack extack = {};
	unsigned int n = 0;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	/* Arrange */
	KUNIT_ASSERT_EQ(test, ioca_ddio_init_emulated(d, 2, 11, 2), 0);
	c->build(skb);
	/* Act */
	err = ioca_ddio_parse(d, (const struct nlattr *)skb->data, skb->len,
			      reqs, &n, &extack);
	/* Assert */
	KUNIT_EXPECT_EQ(test, err, c->err);
	if (c->msg) {
		KUNIT_ASSERT_NOT_NULL(test, extack._msg);
		KUNIT_EXPECT_STREQ(test, extack._msg, c->msg);
	}
	if (c->bad) {
		KUNIT_ASSERT_NOT_NULL(test, extack.bad_attr);
		KUNIT_EXPECT_EQ(test, nla_type(extack.bad_attr), c->bad);
	}
	if (!c->err) {
		KUNIT_EXPECT_EQ(test, n, 2u);
		KUNIT_EXPECT_EQ(test, reqs[0].mask, 0x780u);
		KUNIT_EXPECT_EQ(test, reqs[1].socket, 1u);
		/* Three ways at the top of 11 */
		KUNIT_EXPECT_EQ(test, reqs[1].mask, 0x700u);
	}
	kfree_skb(skb);
	ioca_ddio_exit(d);
}

static struct kunit_case ddio_parse_test_cases[] = {
	KUNIT_CASE_PARAM(ddio_parse_test_request, ddio_parse_gen_params),
	{}
};

static struct kunit_suite ddio_parse_test_suite = {
	.name = "ioca-ddio-parse",
	.test_cases = ddio_parse_test_cases,
};

kunit_test_suite(ddio_parse_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca ddio-set request parsing");
IOCA_IMPORT_KUNIT_NS();
