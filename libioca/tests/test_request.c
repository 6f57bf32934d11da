// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* Request builders: the exact attribute layout the module parses. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include "msgs.h"
#include "request.h"

static struct nlattr *attrs(struct nl_msg *msg, int *len)
{
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));

	*len = genlmsg_attrlen(g, 0);
	return genlmsg_attrdata(g, 0);
}

static void test_request_ddio_puts_one_nest_per_socket(void **state)
{
	const struct ioca_ddio_req reqs[] = {{.socket = 0, .mask = 0x600},
					     {.socket = 1, .ways = 3}};
	struct nl_msg *msg = t_msg(IOCA_CMD_DDIO_SET);
	struct nlattr *a, *tb[IOCA_A_SOCKET_MAX + 1];
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	int len, rem, n = 0;

	(void)state;
	assert_int_equal(ioca_req_ddio(msg, reqs, 2, false, &log), 0);
	nla_for_each_attr(a, attrs(msg, &len), len, rem)
	{
		assert_int_equal(nla_type(a), IOCA_A_DDIO_SOCKET);
		assert_true(a->nla_type & NLA_F_NESTED);
		assert_int_equal(nla_parse_nested(tb, IOCA_A_SOCKET_MAX, a, NULL), 0);
		assert_int_equal(nla_get_u32(tb[IOCA_A_SOCKET_ID]), reqs[n].socket);
		if (n == 0) {
			assert_int_equal(nla_get_u32(tb[IOCA_A_SOCKET_DDIO_MASK]), 0x600);
			assert_null(tb[IOCA_A_SOCKET_DDIO_WAYS]);
		} else {
			assert_int_equal(nla_get_u32(tb[IOCA_A_SOCKET_DDIO_WAYS]), 3);
			assert_null(tb[IOCA_A_SOCKET_DDIO_MASK]);
		}
		n++;
	}
	assert_int_equal(n, 2);
	nlmsg_free(msg);
}

static void test_request_ddio_owner_adds_the_flag(void **state)
{
	const struct ioca_ddio_req req = {.socket = 0, .ways = 2};
	struct nl_msg *msg = t_msg(IOCA_CMD_DDIO_SET);
	struct nlattr *tb[IOCA_A_DDIO_MAX + 1];
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	int len;
	struct nlattr *head;

	(void)state;
	assert_int_equal(ioca_req_ddio(msg, &req, 1, true, &log), 0);
	head = attrs(msg, &len);
	assert_int_equal(nla_parse(tb, IOCA_A_DDIO_MAX, head, len, NULL), 0);
	assert_non_null(tb[IOCA_A_DDIO_OWNER]);
	assert_int_equal(nla_len(tb[IOCA_A_DDIO_OWNER]), 0);
	nlmsg_free(msg);
}

static void test_request_ddio_refuses_ill_formed_requests(void **state)
{
	const struct ioca_ddio_req both = {.socket = 0, .mask = 0x600, .ways = 2};
	const struct ioca_ddio_req none = {.socket = 0};
	const struct ioca_ddio_req twice[] = {{.socket = 1, .ways = 2}, {.socket = 1, .ways = 3}};
	struct ioca_ddio_req many[IOCA_MAX_SOCKETS + 1];
	struct nl_msg *msg = t_msg(IOCA_CMD_DDIO_SET);
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	int i;

	(void)state;
	assert_int_equal(ioca_req_ddio(msg, &both, 1, false, &log), -EINVAL);
	assert_non_null(strstr(tl.last, "exactly one of mask and ways"));
	assert_int_equal(ioca_req_ddio(msg, &none, 1, false, &log), -EINVAL);
	assert_int_equal(ioca_req_ddio(msg, twice, 2, false, &log), -EINVAL);
	assert_non_null(strstr(tl.last, "socket 1 listed twice"));
	assert_int_equal(ioca_req_ddio(msg, &none, 0, false, &log), -EINVAL);
	for (i = 0; i <= IOCA_MAX_SOCKETS; i++)
		many[i] = (struct ioca_ddio_req){.socket = (uint32_t)i, .ways = 2};
	assert_int_equal(ioca_req_ddio(msg, many, IOCA_MAX_SOCKETS + 1, false, &log), -EINVAL);
	assert_non_null(strstr(tl.last, "9 sockets given"));
	/* Nothing was added by the refused calls. */
	assert_int_equal(nlmsg_hdr(msg)->nlmsg_len, NLMSG_HDRLEN + GENL_HDRLEN);
	nlmsg_free(msg);
}

static void test_request_ddio_device_layout_and_refusals(void **state)
{
	struct nl_msg *msg = t_msg(IOCA_CMD_DDIO_DEVICE_SET);
	struct nlattr *tb[IOCA_A_DEVICE_MAX + 1];
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	struct nlattr *head;
	int len;

	(void)state;
	assert_int_equal(ioca_req_ddio_device(msg, "", IOCA_DDIO_DEVICE_MODE_OFF, false, &log),
			 -EINVAL);
	assert_int_equal(ioca_req_ddio_device(msg, "0000:00:1c.0-and-more",
					      IOCA_DDIO_DEVICE_MODE_OFF, false, &log),
			 -EINVAL);
	assert_int_equal(ioca_req_ddio_device(msg, "01:00.0", 0, false, &log), -EINVAL);
	assert_non_null(strstr(tl.last, "mode 0 is none of on, off, full-off"));
	assert_int_equal(
		ioca_req_ddio_device(msg, "01:00.0", IOCA_DDIO_DEVICE_MODE_MAX + 1, false, &log),
		-EINVAL);
	/* Nothing was added by the refused calls. */
	assert_int_equal(nlmsg_hdr(msg)->nlmsg_len, NLMSG_HDRLEN + GENL_HDRLEN);
	assert_int_equal(ioca_req_ddio_device(msg, "0000:01:00.0", IOCA_DDIO_DEVICE_MODE_FULL_OFF,
					      true, &log),
			 0);
	head = attrs(msg, &len);
	assert_int_equal(nla_parse(tb, IOCA_A_DEVICE_MAX, head, len, NULL), 0);
	assert_string_equal(nla_data(tb[IOCA_A_DEVICE_ADDR]), "0000:01:00.0");
	assert_int_equal(nla_get_u32(tb[IOCA_A_DEVICE_MODE]), IOCA_DDIO_DEVICE_MODE_FULL_OFF);
	assert_non_null(tb[IOCA_A_DEVICE_OWNER]);
	assert_null(tb[IOCA_A_DEVICE_ROOT_PORT]);
	nlmsg_free(msg);
}

static void test_request_sampler_layout(void **state)
{
	const uint32_t cpus[] = {0, 2, 5};
	const struct ioca_event ev[] = {
		{.kind = IOCA_EVENT_KIND_INSTRUCTIONS},
		{.kind = IOCA_EVENT_KIND_RAW, .type = 0, .has_type = true, .config = 0xc0},
	};
	const struct ioca_event unc[] = {
		{.kind = IOCA_EVENT_KIND_RAW, .type = 23, .config = 0x1435, .config1 = 1ull << 40}};
	const struct ioca_sampler_config cfg = {.interval_us = 5000,
						.cpus = cpus,
						.ncpus = 3,
						.events = ev,
						.nevents = 2,
						.uncore = unc,
						.nuncore = 1};
	struct nl_msg *msg = t_msg(IOCA_CMD_SAMPLER_SET);
	struct nlattr *a, *tb[IOCA_A_EVENT_MAX + 1];
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	int len, rem, ncpu = 0, nev = 0, nunc = 0, owner = 0;

	(void)state;
	assert_int_equal(ioca_req_sampler(msg, &cfg, true, &log), 0);
	nla_for_each_attr(a, attrs(msg, &len), len, rem)
	{
		switch (nla_type(a)) {
		case IOCA_A_SAMPLER_INTERVAL_US:
			assert_int_equal(nla_get_u32(a), 5000);
			break;
		case IOCA_A_SAMPLER_CPU:
			assert_int_equal(nla_get_u32(a), cpus[ncpu++]);
			break;
		case IOCA_A_SAMPLER_EVENT:
			assert_int_equal(nla_parse_nested(tb, IOCA_A_EVENT_MAX, a, NULL), 0);
			assert_int_equal(nla_get_u32(tb[IOCA_A_EVENT_KIND]), ev[nev].kind);
			/* has_type sends PERF_TYPE_HARDWARE (0) explicitly. */
			assert_true(nev == 0 ? !tb[IOCA_A_EVENT_TYPE] : !!tb[IOCA_A_EVENT_TYPE]);
			nev++;
			break;
		case IOCA_A_SAMPLER_UNCORE_EVENT:
			assert_int_equal(nla_parse_nested(tb, IOCA_A_EVENT_MAX, a, NULL), 0);
			assert_int_equal(nla_get_u32(tb[IOCA_A_EVENT_TYPE]), 23);
			assert_int_equal(nla_get_u64(tb[IOCA_A_EVENT_CONFIG]), 0x1435);
			assert_int_equal(nla_get_u64(tb[IOCA_A_EVENT_CONFIG1]), 1ull << 40);
			nunc++;
			break;
		case IOCA_A_SAMPLER_OWNER:
			owner++;
			break;
		default:
			fail_msg("unexpected attribute %d", nla_type(a));
		}
	}
	assert_int_equal(ncpu, 3);
	assert_int_equal(nev, 2);
	assert_int_equal(nunc, 1);
	assert_int_equal(owner, 1);
	nlmsg_free(msg);
}

static void test_request_sampler_refuses_lists_beyond_the_abi(void **state)
{
	static uint32_t cpus[IOCA_MAX_CPUS + 1];
	static struct ioca_event ev[IOCA_MAX_UNCORE_EVENTS + 1];
	struct ioca_sampler_config cfg = {.cpus = cpus, .ncpus = IOCA_MAX_CPUS + 1};
	struct nl_msg *msg = t_msg(IOCA_CMD_SAMPLER_SET);
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);

	(void)state;
	assert_int_equal(ioca_req_sampler(msg, &cfg, false, &log), -E2BIG);
	assert_non_null(strstr(tl.last, "257 CPUs, at most 256"));
	cfg = (struct ioca_sampler_config){.events = ev, .nevents = IOCA_MAX_CPU_EVENTS + 1};
	assert_int_equal(ioca_req_sampler(msg, &cfg, false, &log), -E2BIG);
	cfg = (struct ioca_sampler_config){.uncore = ev, .nuncore = IOCA_MAX_UNCORE_EVENTS + 1};
	assert_int_equal(ioca_req_sampler(msg, &cfg, false, &log), -E2BIG);
	cfg = (struct ioca_sampler_config){.uncore = NULL, .nuncore = 2};
	assert_int_equal(ioca_req_sampler(msg, &cfg, false, &log), -EINVAL);
	nlmsg_free(msg);
}

static void test_request_sampler_of_the_abi_maxima_fits(void **state)
{
	static uint32_t cpus[IOCA_MAX_CPUS];
	static struct ioca_event ev[IOCA_MAX_UNCORE_EVENTS];
	struct ioca_sampler_config cfg = {.cpus = cpus,
					  .ncpus = IOCA_MAX_CPUS,
					  .events = ev,
					  .nevents = IOCA_MAX_CPU_EVENTS,
					  .uncore = ev,
					  .nuncore = IOCA_MAX_UNCORE_EVENTS};
	/* The client's request buffer size. */
	struct nl_msg *msg = nlmsg_alloc_size(64 * 1024);
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);
	int i;

	(void)state;
	for (i = 0; i < IOCA_MAX_UNCORE_EVENTS; i++)
		ev[i] = (struct ioca_event){
			.kind = IOCA_EVENT_KIND_RAW, .type = 30, .config = ~0ull, .config1 = ~0ull};
	assert_non_null(genlmsg_put(msg, 0, 0, T_FAMILY, 0, 0, IOCA_CMD_SAMPLER_SET, 1));
	assert_int_equal(ioca_req_sampler(msg, &cfg, true, &log), 0);
	nlmsg_free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_request_ddio_puts_one_nest_per_socket),
		cmocka_unit_test(test_request_ddio_owner_adds_the_flag),
		cmocka_unit_test(test_request_ddio_refuses_ill_formed_requests),
		cmocka_unit_test(test_request_ddio_device_layout_and_refusals),
		cmocka_unit_test(test_request_sampler_layout),
		cmocka_unit_test(test_request_sampler_refuses_lists_beyond_the_abi),
		cmocka_unit_test(test_request_sampler_of_the_abi_maxima_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
