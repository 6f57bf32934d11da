// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side cmocka tests of the selftests' own client code (run under
 * ASan/UBSan by vmrun.sh before any VM boots): if the extack parser or the
 * sample parser were wrong, every VM verdict built on them would be too.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "ioca_client.h"

static void test_client_mask_contiguous(void **state)
{
	static const struct {
		uint32_t mask;
		bool want;
	} cases[] = {
		{0x0, false},	    {0x1, true},	{0x600, true},
		{0x7ff, true},	    {0x5, false},	{0x601, false},
		{0x80000000, true}, {0xffffffff, true}, {0xc0000001, false},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(cases[i].want, libioca_mask_contiguous(cases[i].mask));
}

static void test_client_top_ways(void **state)
{
	(void)state;
	assert_int_equal(0x600, libioca_top_ways(11, 2));
	assert_int_equal(0x7ff, libioca_top_ways(11, 11));
	assert_int_equal(0xffffffff, libioca_top_ways(32, 32));
	assert_int_equal(0x80000000, libioca_top_ways(32, 1));
}

/* NLMSG_ERROR as the kernel builds it: header, nlmsgerr, then TLVs. */
static size_t build_error(unsigned char *buf, int capped, const char *text, uint32_t offs)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	struct nlmsgerr *e = (struct nlmsgerr *)(buf + NLMSG_HDRLEN);
	size_t off = NLMSG_HDRLEN + sizeof(*e);
	struct nlattr *a;
	size_t tlen = strlen(text) + 1;

	memset(buf, 0, 512);
	e->error = -EINVAL;
	e->msg.nlmsg_len = NLMSG_HDRLEN + 12; /* the request: header + 12 bytes */
	if (!capped)
		off += 12;
	a = (struct nlattr *)(buf + off);
	a->nla_type = NLMSGERR_ATTR_MSG;
	a->nla_len = (uint16_t)(NLA_HDRLEN + tlen);
	memcpy(buf + off + NLA_HDRLEN, text, tlen);
	off += NLA_ALIGN(a->nla_len);
	a = (struct nlattr *)(buf + off);
	a->nla_type = NLMSGERR_ATTR_OFFS;
	a->nla_len = NLA_HDRLEN + 4;
	memcpy(buf + off + NLA_HDRLEN, &offs, 4);
	off += NLA_ALIGN(a->nla_len);
	nlh->nlmsg_len = (uint32_t)off;
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_flags = NLM_F_ACK_TLVS | (capped ? NLM_F_CAPPED : 0);
	return off;
}

static void test_client_extack_capped_and_echoed(void **state)
{
	unsigned char *buf = calloc(1, 512);
	struct tnl_reply r;
	int capped;

	(void)state;
	assert_non_null(buf);
	for (capped = 0; capped <= 1; capped++) {
		memset(&r, 0, sizeof(r));
		r.offs = -1;
		build_error(buf, capped, "DDIO mask is not contiguous", 32);
		tnl_parse_extack((struct nlmsgerr *)(buf + NLMSG_HDRLEN), &r);
		assert_string_equal("DDIO mask is not contiguous", r.msg);
		assert_int_equal(32, r.offs);
	}
	free(buf);
}

static void test_client_extack_absent_without_flag(void **state)
{
	unsigned char *buf = calloc(1, 512);
	struct tnl_reply r = {.offs = -1};

	(void)state;
	assert_non_null(buf);
	build_error(buf, 1, "ignored", 8);
	((struct nlmsghdr *)buf)->nlmsg_flags = NLM_F_CAPPED;
	tnl_parse_extack((struct nlmsgerr *)(buf + NLMSG_HDRLEN), &r);
	assert_string_equal("", r.msg);
	assert_int_equal(-1, r.offs);
	free(buf);
}

static struct nl_msg *sample_msg(int ncpus, int ncounters)
{
	struct nl_msg *msg = nlmsg_alloc_size(1 << 16);
	struct nlattr *cpu, *cnt;
	int c, k;

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, 0, 0, 0x20, 0, 0, IOCA_CMD_SAMPLE_NTF, 1));
	assert_int_equal(0, nla_put_u64(msg, IOCA_A_SAMPLE_SEQ, 41));
	assert_int_equal(0, nla_put_u64(msg, IOCA_A_SAMPLE_COLLECT_NS, 1234));
	assert_int_equal(0, nla_put_u32(msg, IOCA_A_SAMPLE_INTERVAL_US, 10000));
	for (c = 0; c < ncpus; c++) {
		cpu = nla_nest_start(msg, IOCA_A_SAMPLE_CPU);
		assert_int_equal(0, nla_put_u32(msg, IOCA_A_CPU_ID, (uint32_t)c));
		assert_int_equal(0, nla_put_u8(msg, IOCA_A_CPU_ONLINE, 1));
		for (k = 0; k < ncounters; k++) {
			cnt = nla_nest_start(msg, IOCA_A_CPU_COUNTER);
			assert_int_equal(0, nla_put_u32(msg, IOCA_A_COUNTER_INDEX, (uint32_t)k));
			assert_int_equal(0, nla_put_u64(msg, IOCA_A_COUNTER_VALUE, 100u * c + k));
			nla_nest_end(msg, cnt);
		}
		nla_nest_end(msg, cpu);
	}
	return msg;
}

static void test_client_parse_sample_reads_every_cpu_and_counter(void **state)
{
	struct nl_msg *msg = sample_msg(3, 2);
	struct ioca_sample *s = calloc(1, sizeof(*s));

	(void)state;
	assert_non_null(s);
	assert_int_equal(0, ioca_parse_sample(nlmsg_hdr(msg), s));
	assert_int_equal(41, s->seq);
	assert_int_equal(1234, s->collect_ns);
	assert_int_equal(10000, s->interval_us);
	assert_false(s->on_demand);
	assert_int_equal(3, s->ncpus);
	assert_int_equal(2, s->cpus[2].id);
	assert_true(s->cpus[2].online);
	assert_int_equal(2, s->cpus[2].ncounters);
	assert_int_equal(1, s->cpus[2].counters[1].index);
	assert_int_equal(201, s->cpus[2].counters[1].value);
	nlmsg_free(msg);
	free(s);
}

static void test_client_parse_sample_refuses_more_counters_than_it_holds(void **state)
{
	struct nl_msg *msg = sample_msg(1, T_MAX_EVENTS + 1);
	struct ioca_sample *s = calloc(1, sizeof(*s));

	(void)state;
	assert_non_null(s);
	/* More than IOCA_MAX_CPU_EVENTS breaks the ABI: libioca refuses the message. */
	assert_int_equal(-EBADMSG, ioca_parse_sample(nlmsg_hdr(msg), s));
	nlmsg_free(msg);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_client_mask_contiguous),
		cmocka_unit_test(test_client_top_ways),
		cmocka_unit_test(test_client_extack_capped_and_echoed),
		cmocka_unit_test(test_client_extack_absent_without_flag),
		cmocka_unit_test(test_client_parse_sample_reads_every_cpu_and_counter),
		cmocka_unit_test(test_client_parse_sample_refuses_more_counters_than_it_holds),
	};

	return cmocka_run_group_tests_name("ioca-selftest-client", tests, NULL, NULL);
}
