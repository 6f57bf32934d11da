// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * libioca's attribute parser against libnl's nla_parse() with the same
 * policy, on well-formed attribute runs and on thousands of mutations of
 * them: whatever libioca accepts, nla_parse() accepts with the same table;
 * whatever nla_parse() refuses, libioca refuses. libioca also refuses what
 * nla_parse() lets through: trailing partial attributes and flags with data.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include "attrs.h"
#include "msgs.h"

enum { T_U8 = 1, T_U32, T_U64, T_STR, T_FLAG, T_NEST, T_FREE, T_MAX = T_FREE };

static const struct nla_policy pol[T_MAX + 1] = {
	[T_U8] = IOCA_POL_U8,	       [T_U32] = IOCA_POL_U32,	 [T_U64] = IOCA_POL_U64,
	[T_STR] = IOCA_POL_STRING(16), [T_FLAG] = IOCA_POL_FLAG, [T_NEST] = IOCA_POL_NESTED,
};

/* A run of attributes of every kind, one repeated, one beyond T_MAX. */
static struct nl_msg *sample_run(void)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlattr *n;

	assert_non_null(m);
	nla_put_u8(m, T_U8, 7);
	nla_put_u32(m, T_U32, 0x600);
	nla_put_u64(m, T_U64, 1ull << 40);
	nla_put_string(m, T_STR, "emulated");
	nla_put_flag(m, T_FLAG);
	n = nla_nest_start(m, T_NEST);
	nla_put_u32(m, 1, 5);
	nla_nest_end(m, n);
	nla_put_u32(m, T_U32, 0x700);
	nla_put_u16(m, T_FREE, 3);
	nla_put_u32(m, T_MAX + 3, 9);
	return m;
}

static int ioca_parse(struct nlattr **tb, void *head, int len)
{
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);

	return ioca_attrs_parse(tb, T_MAX, head, len, pol, &log, "run");
}

/* The property both parsers must keep on @len bytes at @head; libioca's verdict. */
static int compare(void *head, int len)
{
	struct nlattr *tb1[T_MAX + 1], *tb2[T_MAX + 1];
	int e1 = ioca_parse(tb1, head, len);
	int e2 = nla_parse(tb2, T_MAX, head, len, pol);

	if (!e1) {
		assert_int_equal(e2, 0);
		assert_memory_equal(tb1, tb2, sizeof(tb1));
	}
	if (e2)
		assert_int_equal(e1, -EBADMSG);
	return e1;
}

static void test_attrs_well_formed_run_parses_as_libnl_does(void **state)
{
	struct nl_msg *m = sample_run();
	struct nlattr *tb[T_MAX + 1];
	void *head = nlmsg_data(nlmsg_hdr(m));
	int len = (int)nlmsg_datalen(nlmsg_hdr(m));

	(void)state;
	assert_int_equal(ioca_parse(tb, head, len), 0);
	assert_int_equal(ioca_u8(tb[T_U8]), 7);
	assert_int_equal(ioca_u32(tb[T_U32]), 0x700); /* the last of two */
	assert_int_equal(ioca_u64(tb[T_U64]), 1ull << 40);
	assert_string_equal(ioca_nla_data(tb[T_STR]), "emulated");
	assert_non_null(tb[T_FLAG]);
	assert_non_null(tb[T_FREE]); /* NLA_UNSPEC: any length */
	compare(head, len);
	nlmsg_free(m);
}

static void test_attrs_every_mutation_keeps_the_property(void **state)
{
	struct nl_msg *m = sample_run();
	int len = (int)nlmsg_datalen(nlmsg_hdr(m));
	unsigned char *orig = nlmsg_data(nlmsg_hdr(m));
	unsigned char *buf = malloc((size_t)len);
	unsigned int seed = 12345;
	int i, k, cut, accepted = 0;

	(void)state;
	for (i = 0; i < 20000; i++) {
		memcpy(buf, orig, (size_t)len);
		/* One to three bytes changed, then maybe a shorter length. */
		for (k = 0; k < 1 + (int)(rand_r(&seed) % 3); k++)
			buf[rand_r(&seed) % (unsigned int)len] = (unsigned char)rand_r(&seed);
		cut = rand_r(&seed) % 4 ? len : (int)(rand_r(&seed) % (unsigned int)len);
		accepted += !compare(buf, cut);
	}
	/* Both verdicts were exercised, not just one. */
	assert_in_range(accepted, 1000, 19000);
	free(buf);
	nlmsg_free(m);
}

static void test_attrs_refuses_what_nla_parse_lets_through(void **state)
{
	struct nl_msg *m = nlmsg_alloc();
	struct nlattr *tb[T_MAX + 1];
	uint32_t one = 1;
	void *head;
	int len;

	(void)state;
	nla_put(m, T_FLAG, sizeof(one), &one);
	head = nlmsg_data(nlmsg_hdr(m));
	len = (int)nlmsg_datalen(nlmsg_hdr(m));
	assert_int_equal(nla_parse(tb, T_MAX, head, len, pol), 0);
	assert_int_equal(ioca_parse(tb, head, len), -EBADMSG);
	nlmsg_free(m);

	m = sample_run();
	head = nlmsg_data(nlmsg_hdr(m));
	len = (int)nlmsg_datalen(nlmsg_hdr(m)) - 2; /* the last attribute cut */
	assert_int_equal(nla_parse(tb, T_MAX, head, len, pol), 0);
	assert_int_equal(ioca_parse(tb, head, len), -EBADMSG);
	nlmsg_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_attrs_well_formed_run_parses_as_libnl_does),
		cmocka_unit_test(test_attrs_every_mutation_keeps_the_property),
		cmocka_unit_test(test_attrs_refuses_what_nla_parse_lets_through),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
