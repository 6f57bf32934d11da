// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#include "msgs.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

struct nl_msg *t_msg(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc_size(256 * 1024);

	assert_non_null(msg);
	assert_non_null(genlmsg_put(msg, 0, 0, T_FAMILY, 0, 0, cmd, 1));
	return msg;
}

void t_put_raw(struct nl_msg *msg, int type, const void *data, int len)
{
	assert_int_equal(nla_put(msg, type, len, data), 0);
}

struct nl_msg *t_sample_msg(uint64_t seq, uint32_t part, uint32_t parts, bool on_demand)
{
	struct nl_msg *msg = t_msg(IOCA_CMD_SAMPLE_NTF);

	assert_int_equal(nla_put_u64(msg, IOCA_A_SAMPLE_SEQ, seq), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_SAMPLE_TIME_NS, 1000 + seq), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_SAMPLE_REALTIME_NS, 2000 + seq), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_SAMPLE_COLLECT_NS, 30), 0);
	assert_int_equal(nla_put_u32(msg, IOCA_A_SAMPLE_INTERVAL_US, 10000), 0);
	if (on_demand)
		assert_int_equal(nla_put_flag(msg, IOCA_A_SAMPLE_ON_DEMAND), 0);
	if (parts) {
		assert_int_equal(nla_put_u32(msg, IOCA_A_SAMPLE_PART, part), 0);
		assert_int_equal(nla_put_u32(msg, IOCA_A_SAMPLE_PARTS, parts), 0);
	}
	return msg;
}

static void put_counter(struct nl_msg *msg, int type, uint32_t index, uint64_t value)
{
	struct nlattr *c = nla_nest_start(msg, type);

	assert_non_null(c);
	assert_int_equal(nla_put_u32(msg, IOCA_A_COUNTER_INDEX, index), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_COUNTER_VALUE, value), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_COUNTER_ENABLED_NS, 500), 0);
	assert_int_equal(nla_put_u64(msg, IOCA_A_COUNTER_RUNNING_NS, 400), 0);
	nla_nest_end(msg, c);
}

void t_put_cpu(struct nl_msg *msg, uint32_t id, uint32_t socket, uint32_t gen, int n, uint64_t base)
{
	struct nlattr *nest = nla_nest_start(msg, IOCA_A_SAMPLE_CPU);
	int i;

	assert_non_null(nest);
	assert_int_equal(nla_put_u32(msg, IOCA_A_CPU_ID, id), 0);
	assert_int_equal(nla_put_u32(msg, IOCA_A_CPU_SOCKET, socket), 0);
	assert_int_equal(nla_put_u8(msg, IOCA_A_CPU_ONLINE, 1), 0);
	if (gen)
		assert_int_equal(nla_put_u32(msg, IOCA_A_CPU_GENERATION, gen), 0);
	for (i = 0; i < n; i++)
		put_counter(msg, IOCA_A_CPU_COUNTER, (uint32_t)i, base + (uint64_t)i);
	nla_nest_end(msg, nest);
}

void t_put_socket(struct nl_msg *msg, uint32_t id, int n, uint64_t base)
{
	t_put_socket_ddio(msg, id, n, base, 0);
}

void t_put_socket_ddio(struct nl_msg *msg, uint32_t id, int n, uint64_t base, uint32_t mask)
{
	struct nlattr *nest = nla_nest_start(msg, IOCA_A_SAMPLE_SOCKET);
	int i;

	assert_non_null(nest);
	assert_int_equal(nla_put_u32(msg, IOCA_A_SOCKET_ID, id), 0);
	if (mask)
		assert_int_equal(nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, mask), 0);
	for (i = 0; i < n; i++)
		put_counter(msg, IOCA_A_SOCKET_COUNTER, (uint32_t)i, base + (uint64_t)i);
	nla_nest_end(msg, nest);
}

void t_print(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	struct t_log *tl = ctx;

	(void)level;
	vsnprintf(tl->last, sizeof(tl->last), fmt, ap);
	tl->count++;
}

struct ioca_log t_logger(struct t_log *tl)
{
	struct ioca_log log = {.fn = t_print, .ctx = tl};

	tl->last[0] = '\0';
	tl->count = 0;
	return log;
}
