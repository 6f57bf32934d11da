// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The sample decoder's nests, byte by byte: the counter layout the module
 * writes (which the decoder reads through its fast path), the same
 * attributes laid out otherwise (which take the checked walk), and each
 * way a nest can break the policy, which must refuse the message whichever
 * path it reaches -- in particular bytes of the module's total size whose
 * headers say something else.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include "decode_sample.h"
#include "msgs.h"

/* A nest's payload, packed attribute by attribute as the kernel does. */
struct raw {
	char buf[512];
	int len;
};

static void add(struct raw *r, int type, const void *data, int len)
{
	struct nlattr h = {.nla_len = (uint16_t)(NLA_HDRLEN + len), .nla_type = (uint16_t)type};

	memcpy(r->buf + r->len, &h, sizeof(h));
	memcpy(r->buf + r->len + NLA_HDRLEN, data, (size_t)len);
	r->len += NLA_ALIGN(NLA_HDRLEN + len);
}

static void add_u32(struct raw *r, int type, uint32_t v)
{
	add(r, type, &v, sizeof(v));
}

static void add_u64(struct raw *r, int type, uint64_t v)
{
	add(r, type, &v, sizeof(v));
}

/* Decodes a sample of one CPU (id 7) whose counter nests are @c[0..n). */
static int decode(const struct raw *c, int n, struct ioca_sample *s, struct t_log *tl)
{
	struct ioca_log log = t_logger(tl);
	struct nl_msg *msg = t_sample_msg(1, 0, 0, false);
	struct nlattr *cpu = nla_nest_start(msg, IOCA_A_SAMPLE_CPU);
	struct ioca_sample_head h;
	int err;

	assert_int_equal(nla_put_u32(msg, IOCA_A_CPU_ID, 7), 0);
	assert_int_equal(nla_put_u8(msg, IOCA_A_CPU_ONLINE, 1), 0);
	for (int i = 0; i < n; i++)
		t_put_raw(msg, IOCA_A_CPU_COUNTER, c[i].buf, c[i].len);
	nla_nest_end(msg, cpu);
	memset(s, 0, sizeof(*s));
	err = ioca_decode_sample_head(nlmsg_hdr(msg), &h, &log);
	if (!err)
		err = ioca_decode_sample_body(&h, s, &log);
	nlmsg_free(msg);
	return err;
}

/* The module's counter: INDEX, VALUE, ENABLED_NS, RUNNING_NS. */
static struct raw module_counter(uint32_t index)
{
	struct raw r = {.len = 0};

	add_u32(&r, IOCA_A_COUNTER_INDEX, index);
	add_u64(&r, IOCA_A_COUNTER_VALUE, 1000 + index);
	add_u64(&r, IOCA_A_COUNTER_ENABLED_NS, 500);
	add_u64(&r, IOCA_A_COUNTER_RUNNING_NS, 400);
	return r;
}

static void assert_counter(const struct ioca_sample *s, uint32_t k, uint32_t index)
{
	assert_int_equal(s->ncpus, 1);
	assert_int_equal(s->cpus[0].id, 7);
	assert_true(s->cpus[0].online);
	assert_int_equal(s->cpus[0].counters[k].index, index);
	assert_int_equal(s->cpus[0].counters[k].value, 1000 + index);
	assert_int_equal(s->cpus[0].counters[k].enabled_ns, 500);
	assert_int_equal(s->cpus[0].counters[k].running_ns, 400);
}

static void test_dec_module_layout(void **state)
{
	struct raw c[4] = {module_counter(0), module_counter(1), module_counter(2),
			   module_counter(3)};
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};

	assert_int_equal(decode(c, 4, s, &tl), 0);
	assert_int_equal(s->cpus[0].ncounters, 4);
	for (uint32_t k = 0; k < 4; k++)
		assert_counter(s, k, k);
	assert_int_equal(tl.count, 0);
}

static void test_dec_other_order_pad_and_unknown(void **state)
{
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};
	struct raw c[2] = {{.len = 0}, {.len = 0}};

	/* reversed */
	add_u64(&c[0], IOCA_A_COUNTER_RUNNING_NS, 400);
	add_u64(&c[0], IOCA_A_COUNTER_ENABLED_NS, 500);
	add_u64(&c[0], IOCA_A_COUNTER_VALUE, 1005);
	add_u32(&c[0], IOCA_A_COUNTER_INDEX, 5);
	/* a pad before the u64s (an arch without unaligned access) and a
	 * type the policy does not know */
	add_u32(&c[1], IOCA_A_COUNTER_INDEX, 6);
	add(&c[1], IOCA_A_COUNTER_PAD, "", 0);
	add_u64(&c[1], IOCA_A_COUNTER_VALUE, 1006);
	add_u64(&c[1], IOCA_A_COUNTER_ENABLED_NS, 500);
	add_u64(&c[1], IOCA_A_COUNTER_RUNNING_NS, 400);
	add_u32(&c[1], 60, 99);
	assert_int_equal(decode(c, 2, s, &tl), 0);
	assert_int_equal(s->cpus[0].ncounters, 2);
	assert_counter(s, 0, 5);
	assert_counter(s, 1, 6);
}

static void test_dec_module_size_with_wrong_lengths(void **state)
{
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};
	struct raw c = {.len = 0};

	/* 44 bytes like the module's, but INDEX has 8 and VALUE 4 */
	add_u64(&c, IOCA_A_COUNTER_INDEX, 1);
	add_u32(&c, IOCA_A_COUNTER_VALUE, 2);
	add_u64(&c, IOCA_A_COUNTER_ENABLED_NS, 500);
	add_u64(&c, IOCA_A_COUNTER_RUNNING_NS, 400);
	assert_int_equal(c.len, module_counter(0).len);
	assert_int_equal(decode(&c, 1, s, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "sample: counter: attribute 1 (8 bytes): length"));
}

static void test_dec_short_value_and_missing_value(void **state)
{
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};
	struct raw c = {.len = 0};

	add_u32(&c, IOCA_A_COUNTER_INDEX, 1);
	add_u32(&c, IOCA_A_COUNTER_VALUE, 2);
	assert_int_equal(decode(&c, 1, s, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "attribute 2 (4 bytes): length"));
	c.len = 0;
	add_u32(&c, IOCA_A_COUNTER_INDEX, 1);
	add_u64(&c, IOCA_A_COUNTER_ENABLED_NS, 500);
	assert_int_equal(decode(&c, 1, s, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "without IOCA_A_COUNTER_INDEX or _VALUE"));
}

static void test_dec_truncated_counter(void **state)
{
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};
	struct raw c = module_counter(0);

	/* the module's 44 bytes and 2 of a further header */
	c.buf[c.len] = 8;
	c.buf[c.len + 1] = 0;
	c.len += 2;
	assert_int_equal(decode(&c, 1, s, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "sample: counter: 2 bytes at the end"));
}

static void test_dec_too_many_counters(void **state)
{
	struct ioca_sample *s = *state;
	struct t_log tl = {.count = 0};
	struct raw c[IOCA_MAX_CPU_EVENTS + 1];

	for (uint32_t k = 0; k <= IOCA_MAX_CPU_EVENTS; k++)
		c[k] = module_counter(k);
	assert_int_equal(decode(c, IOCA_MAX_CPU_EVENTS, s, &tl), 0);
	assert_int_equal(s->cpus[0].ncounters, IOCA_MAX_CPU_EVENTS);
	assert_int_equal(decode(c, IOCA_MAX_CPU_EVENTS + 1, s, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "more than 8 counters"));
}

static int setup(void **state)
{
	*state = calloc(1, sizeof(struct ioca_sample));
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	free(*state);
	return 0;
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_dec_module_layout),
		T(test_dec_other_order_pad_and_unknown),
		T(test_dec_module_size_with_wrong_lengths),
		T(test_dec_short_value_and_missing_value),
		T(test_dec_truncated_counter),
		T(test_dec_too_many_counters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
