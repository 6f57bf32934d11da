// SPDX-License-Identifier: GPL-2.0
/*
 * ddio-set: every accepted form changes exactly what it names; every
 * rejected form returns the documented errno, an extack message naming the
 * problem at the offending attribute, and leaves every socket as it was.
 */
#include "ioca_fixture.h"

/* Request layout: nlmsghdr, genlmsghdr, then the socket nest. */
#define OFF_NEST (NLMSG_HDRLEN + GENL_HDRLEN)
#define OFF_FIRST (OFF_NEST + NLA_HDRLEN)
#define U32_ATTR NLA_ALIGN(NLA_HDRLEN + 4)

/* Offset of the mask (or, with no mask, the ways) attribute in the nest. */
static int off_value(int64_t sock)
{
	return OFF_FIRST + (sock >= 0 ? U32_ATTR : 0);
}

static void restore_boot(struct tnl *nl)
{
	struct tnl_reply r;

	ioca_ddio_restore(nl, &r);
}

struct reject {
	int64_t sock, mask, ways;
	int err;
	const char *msg;
	int offs; /* -1: do not check */
};

static void expect_rejected(struct __test_metadata *_metadata, struct tnl *nl,
			    const struct ioca_info *before, const struct reject *rj)
{
	struct tnl_reply r;
	struct ioca_info after;

	ASSERT_EQ(rj->err, ioca_ddio_set(nl, rj->sock, rj->mask, rj->ways, &r))
	TH_LOG("sock %lld mask 0x%llx ways %lld: extack \"%s\"", (long long)rj->sock,
	       (long long)rj->mask, (long long)rj->ways, r.msg);
	EXPECT_STREQ(rj->msg, r.msg);
	if (rj->offs >= 0)
		EXPECT_EQ(rj->offs, r.offs);
	ASSERT_EQ(0, ioca_info_get(nl, &after, &r));
	ASSERT_DDIO_UNCHANGED(before, &after);
}

TEST_F(ioca_nl, ddio_set_by_mask_applies_to_that_socket)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	uint32_t want = libioca_top_ways(s->llc_ways, 3);
	struct ioca_info after;

	if (want == s->ddio_mask)
		want = libioca_top_ways(s->llc_ways, 4);
	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, want, -1, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(want, after.sockets[0].ddio_mask);
	EXPECT_EQ((uint32_t)__builtin_popcount(want), after.sockets[0].ddio_ways);
	EXPECT_EQ(s->boot_mask, after.sockets[0].boot_mask);
	restore_boot(&self->nl);
}

TEST_F(ioca_nl, ddio_set_by_ways_takes_the_most_significant_ways)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	struct ioca_info after;

	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, -1, 4, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(libioca_top_ways(s->llc_ways, 4), after.sockets[0].ddio_mask);
	EXPECT_EQ(4, after.sockets[0].ddio_ways);
	restore_boot(&self->nl);
}

TEST_F(ioca_nl, ddio_set_accepts_every_way_of_the_llc)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	struct ioca_info after;

	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, -1, s->llc_ways, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(s->valid_mask, after.sockets[0].ddio_mask);
	restore_boot(&self->nl);
}

TEST_F(ioca_nl, ddio_restore_returns_every_socket_to_its_boot_mask)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	struct ioca_info after;
	uint32_t i;

	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, -1, s->llc_ways - 1, &self->r));
	ASSERT_EQ(0, ioca_ddio_restore(&self->nl, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	for (i = 0; i < after.nsockets; i++)
		EXPECT_EQ(after.sockets[i].boot_mask, after.sockets[i].ddio_mask);
}

TEST_F(ioca_nl, ddio_set_rejects_empty_mask)
{
	/* The handler, not a policy minimum, names the problem. */
	const struct reject by_mask = {0, 0, -1, -EINVAL, "DDIO mask is empty", off_value(0)};
	const struct reject by_ways = {0, -1, 0, -EINVAL, "DDIO mask is empty", off_value(0)};

	expect_rejected(_metadata, &self->nl, &self->before, &by_mask);
	expect_rejected(_metadata, &self->nl, &self->before, &by_ways);
}

TEST_F(ioca_nl, ddio_set_rejects_way_count_beyond_the_policy)
{
	/* 33 ways cannot exist on any LLC: the policy maximum catches it. */
	const struct reject rj = {
		0, -1, IOCA_LLC_MAX_WAYS + 1, -ERANGE, "integer out of range", off_value(0)};

	expect_rejected(_metadata, &self->nl, &self->before, &rj);
}

TEST_F(ioca_nl, ddio_set_rejects_non_contiguous_mask)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	const struct reject rj = {0,	   (int64_t)(0x5u << (l - 3)),	  -1,
				  -EINVAL, "DDIO mask is not contiguous", off_value(0)};

	expect_rejected(_metadata, &self->nl, &self->before, &rj);
}

TEST_F(ioca_nl, ddio_set_rejects_fewer_ways_than_min_ways)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	const struct reject by_mask = {0,
				       libioca_top_ways(l, 1),
				       -1,
				       -EINVAL,
				       "DDIO mask has fewer ways than min_ways",
				       off_value(0)};
	const struct reject by_ways = {
		0, -1, 1, -EINVAL, "DDIO mask has fewer ways than min_ways", off_value(0)};

	expect_rejected(_metadata, &self->nl, &self->before, &by_mask);
	expect_rejected(_metadata, &self->nl, &self->before, &by_ways);
}

TEST_F(ioca_nl, ddio_set_rejects_more_ways_than_the_llc_has)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	const struct reject by_ways = {
		0, -1, l + 1, -EINVAL, "DDIO way count exceeds the LLC ways", off_value(0)};
	/* Contiguous, enough ways, but its top two bits lie above the LLC. */
	const struct reject by_mask = {0,
				       (int64_t)(0x7u << (l - 1)),
				       -1,
				       -EINVAL,
				       "DDIO mask has bits beyond the LLC ways",
				       off_value(0)};

	expect_rejected(_metadata, &self->nl, &self->before, &by_ways);
	if (l + 2 < 32)
		expect_rejected(_metadata, &self->nl, &self->before, &by_mask);
}

TEST_F(ioca_nl, ddio_set_rejects_unknown_socket)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	const struct reject known_range = {self->before.nsockets,
					   libioca_top_ways(l, 3),
					   -1,
					   -ENODEV,
					   "unknown socket",
					   OFF_FIRST};
	/* Beyond IOCA_MAX_SOCKETS too: the same errno and message. */
	const struct reject out_of_range = {IOCA_MAX_SOCKETS, libioca_top_ways(l, 3), -1,
					    -ENODEV,	      "unknown socket",	      OFF_FIRST};

	if (self->before.nsockets < IOCA_MAX_SOCKETS)
		expect_rejected(_metadata, &self->nl, &self->before, &known_range);
	expect_rejected(_metadata, &self->nl, &self->before, &out_of_range);
}

TEST_F(ioca_nl, ddio_set_rejects_mask_and_ways_together)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	struct tnl_reply r;
	struct ioca_info after;

	ASSERT_EQ(-EINVAL, ioca_ddio_set(&self->nl, 0, libioca_top_ways(l, 3), 3, &r));
	EXPECT_STREQ("give exactly one of ddio-mask and ddio-ways", r.msg);
	EXPECT_EQ(OFF_NEST, r.offs);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
}

TEST_F(ioca_nl, ddio_set_rejects_socket_without_id_or_value)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	struct tnl_reply r;
	struct ioca_info after;

	ASSERT_EQ(-EINVAL, ioca_ddio_set(&self->nl, -1, libioca_top_ways(l, 3), -1, &r));
	EXPECT_STREQ("socket id missing", r.msg);
	EXPECT_EQ(OFF_NEST, r.offs);
	ASSERT_EQ(-EINVAL, ioca_ddio_set(&self->nl, 0, -1, -1, &r));
	EXPECT_STREQ("give exactly one of ddio-mask and ddio-ways", r.msg);
	EXPECT_EQ(OFF_NEST, r.offs);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
}

TEST_F(ioca_nl, ddio_set_rejects_nest_without_nla_f_nested)
{
	struct nl_msg *msg = tnl_msg(&self->nl, IOCA_CMD_DDIO_SET, 0);
	/* libnl's nla_nest_start() always sets the flag: lay the nest out by hand. */
	struct {
		struct nlattr id_hdr;
		uint32_t id;
		struct nlattr ways_hdr;
		uint32_t ways;
	} body = {{8, IOCA_A_SOCKET_ID}, 0, {8, IOCA_A_SOCKET_DDIO_WAYS}, 3};
	struct ioca_info after;

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, nla_put(msg, IOCA_A_DDIO_SOCKET, sizeof(body), &body));
	ASSERT_EQ(-EINVAL, tnl_do(&self->nl, msg, &self->r));
	EXPECT_STREQ("NLA_F_NESTED is missing", self->r.msg);
	EXPECT_EQ(OFF_NEST, self->r.offs);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
}

TEST_F(ioca_nl, ddio_set_rejects_unknown_attribute)
{
	struct nl_msg *msg = tnl_msg(&self->nl, IOCA_CMD_DDIO_SET, 0);

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, nla_put_u32(msg, IOCA_A_DDIO_MAX + 1, 0));
	ASSERT_EQ(-EINVAL, tnl_do(&self->nl, msg, &self->r));
	EXPECT_STREQ("Unknown attribute type", self->r.msg);
	EXPECT_EQ(OFF_NEST, self->r.offs);
}

TEST_F(ioca_nl, ddio_set_rejects_an_empty_request)
{
	struct nl_msg *msg = tnl_msg(&self->nl, IOCA_CMD_DDIO_SET, 0);

	ASSERT_NE(NULL, msg);
	ASSERT_EQ(-EINVAL, tnl_do(&self->nl, msg, &self->r));
	EXPECT_STREQ("no socket given", self->r.msg);
}

TEST_F(ioca_nl, ddio_set_is_all_or_nothing_across_sockets)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	struct nl_msg *msg = tnl_msg(&self->nl, IOCA_CMD_DDIO_SET, 0);
	struct nlattr *nest;
	struct ioca_info after;
	uint32_t good = libioca_top_ways(l, 3) == self->before.sockets[0].ddio_mask
				? libioca_top_ways(l, 4)
				: libioca_top_ways(l, 3);

	ASSERT_NE(NULL, msg);
	nest = nla_nest_start(msg, IOCA_A_DDIO_SOCKET | NLA_F_NESTED);
	ASSERT_EQ(0, nla_put_u32(msg, IOCA_A_SOCKET_ID, 0));
	ASSERT_EQ(0, nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, good));
	nla_nest_end(msg, nest);
	nest = nla_nest_start(msg, IOCA_A_DDIO_SOCKET | NLA_F_NESTED);
	ASSERT_EQ(0, nla_put_u32(msg, IOCA_A_SOCKET_ID, 0));
	ASSERT_EQ(0, nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, 0x5u << (l - 3)));
	nla_nest_end(msg, nest);
	ASSERT_EQ(-EINVAL, tnl_do(&self->nl, msg, &self->r));
	EXPECT_STREQ("DDIO mask is not contiguous", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
}

TEST_HARNESS_MAIN
