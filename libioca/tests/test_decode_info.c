// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/* The info reply decoder against crafted replies, whole and malformed. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include "decode_info.h"
#include "msgs.h"

static void put_socket(struct nl_msg *msg, uint32_t id, uint32_t mask)
{
	struct nlattr *s = nla_nest_start(msg, IOCA_A_INFO_SOCKET);

	assert_non_null(s);
	nla_put_u32(msg, IOCA_A_SOCKET_ID, id);
	nla_put_u32(msg, IOCA_A_SOCKET_LLC_WAYS, 11);
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, mask);
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_WAYS, (uint32_t)__builtin_popcount(mask));
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_BOOT_MASK, 0x600);
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_VALID_MASK, 0x7ff);
	nla_put_u32(msg, IOCA_A_SOCKET_CPU_COUNT, 4);
	nla_put_u32(msg, IOCA_A_SOCKET_OWNER_PID, 42 + id);
	/* Socket 1 is as an older module sends it: no DDIO control flags. */
	if (id != 1) {
		nla_put_u32(msg, IOCA_A_SOCKET_DDIO_FIELD, 0x7ff);
		nla_put_u8(msg, IOCA_A_SOCKET_DDIO_AVAILABLE, 1);
		nla_put_u8(msg, IOCA_A_SOCKET_DDIO_WRITABLE, id == 0);
		nla_put_u8(msg, IOCA_A_SOCKET_DDIO_VERIFIED, 0);
	}
	nla_nest_end(msg, s);
}

static void put_event(struct nl_msg *msg, int type, uint32_t index, uint32_t kind)
{
	struct nlattr *e = nla_nest_start(msg, type);

	assert_non_null(e);
	nla_put_u32(msg, IOCA_A_EVENT_INDEX, index);
	nla_put_u32(msg, IOCA_A_EVENT_KIND, kind);
	nla_put_u32(msg, IOCA_A_EVENT_EFFECTIVE_KIND, IOCA_EVENT_KIND_CPU_CLOCK);
	nla_put_u32(msg, IOCA_A_EVENT_TYPE, 17 + index);
	nla_put_u64(msg, IOCA_A_EVENT_CONFIG, 0x1435);
	nla_put_u64(msg, IOCA_A_EVENT_CONFIG1, 0x4903300000000ull);
	nla_nest_end(msg, e);
}

/* The reply of a module with @nsockets sockets and a configured sampler. */
static void put_subscriber(struct nl_msg *msg, uint32_t portid, uint32_t pid, uint64_t samples,
			   uint64_t dropped)
{
	struct nlattr *n = nla_nest_start(msg, IOCA_A_SAMPLER_SUBSCRIBER);

	nla_put_u32(msg, IOCA_A_SUBSCRIBER_PORTID, portid);
	nla_put_u32(msg, IOCA_A_SUBSCRIBER_PID, pid);
	nla_put_u64(msg, IOCA_A_SUBSCRIBER_SAMPLES, samples);
	nla_put_u64(msg, IOCA_A_SUBSCRIBER_DROPPED, dropped);
	nla_nest_end(msg, n);
}

static struct nl_msg *info_msg(int nsockets, int ncpus)
{
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	struct nlattr *s;
	int i;

	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_EMULATED);
	nla_put_string(msg, IOCA_A_INFO_BACKEND_NAME, "emulated");
	nla_put_u32(msg, IOCA_A_INFO_CPU_FAMILY, 6);
	nla_put_u32(msg, IOCA_A_INFO_CPU_MODEL, 0x55);
	nla_put_string(msg, IOCA_A_INFO_CPU_MODEL_NAME, "Intel Xeon Gold 6140");
	nla_put_u8(msg, IOCA_A_INFO_DDIO_VERIFIED, 1);
	nla_put_u8(msg, IOCA_A_INFO_LOCKED_DOWN, 0);
	nla_put_u32(msg, IOCA_A_INFO_MIN_WAYS, 2);
	nla_put_u8(msg, IOCA_A_INFO_HW_COUNTERS, 1);
	nla_put_u32(msg, IOCA_A_INFO_FALLBACK_KIND, IOCA_EVENT_KIND_CPU_CLOCK);
	for (i = 0; i < nsockets; i++)
		put_socket(msg, (uint32_t)i, 0x600u >> i);
	s = nla_nest_start(msg, IOCA_A_INFO_SAMPLER);
	nla_put_u32(msg, IOCA_A_SAMPLER_STATE, IOCA_SAMPLER_STATE_RUNNING);
	nla_put_u32(msg, IOCA_A_SAMPLER_INTERVAL_US, 10000);
	for (i = 0; i < ncpus; i++)
		nla_put_u32(msg, IOCA_A_SAMPLER_CPU, (uint32_t)(2 * i));
	put_event(msg, IOCA_A_SAMPLER_EVENT, 0, IOCA_EVENT_KIND_INSTRUCTIONS);
	put_event(msg, IOCA_A_SAMPLER_EVENT, 1, IOCA_EVENT_KIND_CYCLES);
	put_event(msg, IOCA_A_SAMPLER_UNCORE_EVENT, 0, IOCA_EVENT_KIND_RAW);
	nla_put_u64(msg, IOCA_A_SAMPLER_SEQ, 77);
	nla_put_u64(msg, IOCA_A_SAMPLER_LAST_COLLECT_NS, 1200);
	nla_put_u64(msg, IOCA_A_SAMPLER_MEAN_COLLECT_NS, 1100);
	nla_put_u64(msg, IOCA_A_SAMPLER_INTERVALS, 78);
	nla_put_u64(msg, IOCA_A_SAMPLER_NO_LISTENER, 3);
	nla_put_u64(msg, IOCA_A_SAMPLER_SEND_ERRORS, 1);
	nla_put_u32(msg, IOCA_A_SAMPLER_OWNER_PID, 999);
	nla_put_u32(msg, IOCA_A_SAMPLER_PARTS, 3);
	put_subscriber(msg, 4242, 101, 70, 0);
	put_subscriber(msg, 4243, 102, 12, 58);
	nla_nest_end(msg, s);
	s = nla_nest_start(msg, IOCA_A_INFO_DEVICE);
	nla_put_string(msg, IOCA_A_DEVICE_ADDR, "0000:01:00.0");
	nla_put_string(msg, IOCA_A_DEVICE_ROOT_PORT, "0000:00:1c.0");
	nla_put_u32(msg, IOCA_A_DEVICE_MODE, IOCA_DDIO_DEVICE_MODE_FULL_OFF);
	nla_put_u32(msg, IOCA_A_DEVICE_PERFCTRLSTS0, 0x0);
	nla_put_u32(msg, IOCA_A_DEVICE_PERFCTRLSTS1, 0x100);
	nla_put_u32(msg, IOCA_A_DEVICE_OWNER_PID, 77);
	nla_put_u8(msg, IOCA_A_DEVICE_EMULATED, 1);
	nla_nest_end(msg, s);
	return msg;
}

static int decode(struct nl_msg *msg, struct ioca_info *info, struct t_log *tl)
{
	struct ioca_log log = t_logger(tl);
	int err = ioca_decode_info(nlmsg_hdr(msg), info, &log);

	nlmsg_free(msg);
	return err;
}

static void test_decode_info_reads_every_field(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct t_log tl;

	(void)state;
	assert_int_equal(decode(info_msg(2, 3), info, &tl), 0);
	assert_int_equal(info->backend, IOCA_BACKEND_EMULATED);
	assert_string_equal(info->backend_name, "emulated");
	assert_int_equal(info->cpu_family, 6);
	assert_int_equal(info->cpu_model, 0x55);
	assert_string_equal(info->cpu_model_name, "Intel Xeon Gold 6140");
	assert_true(info->ddio_verified);
	assert_false(info->locked_down);
	assert_true(info->hw_counters);
	assert_int_equal(info->min_ways, 2);
	assert_int_equal(info->fallback_kind, IOCA_EVENT_KIND_CPU_CLOCK);
	assert_int_equal(info->nsockets, 2);
	assert_int_equal(info->sockets[1].id, 1);
	assert_int_equal(info->sockets[1].ddio_mask, 0x300);
	assert_int_equal(info->sockets[1].ddio_ways, 2);
	assert_int_equal(info->sockets[0].llc_ways, 11);
	assert_int_equal(info->sockets[0].boot_mask, 0x600);
	assert_int_equal(info->sockets[0].valid_mask, 0x7ff);
	assert_int_equal(info->sockets[0].cpu_count, 4);
	assert_int_equal(info->sockets[1].owner_pid, 43);
	assert_true(info->ddio[0].reported);
	assert_true(info->ddio[0].available);
	assert_true(info->ddio[0].writable);
	assert_false(info->ddio[0].verified);
	assert_int_equal(info->ddio[0].field, 0x7ff);
	assert_false(info->ddio[1].reported);
	assert_int_equal(info->ddio[1].field, 0);
	assert_true(info->has_sampler);
	assert_int_equal(info->sampler.state, IOCA_SAMPLER_STATE_RUNNING);
	assert_int_equal(info->sampler.interval_us, 10000);
	assert_int_equal(info->sampler.ncpus, 3);
	assert_int_equal(info->sampler.cpus[2], 4);
	assert_int_equal(info->sampler.nevents, 2);
	assert_int_equal(info->sampler.events[1].kind, IOCA_EVENT_KIND_CYCLES);
	assert_int_equal(info->sampler.events[1].index, 1);
	assert_int_equal(info->sampler.events[1].effective_kind, IOCA_EVENT_KIND_CPU_CLOCK);
	assert_int_equal(info->sampler.nuncore, 1);
	assert_int_equal(info->sampler.uncore[0].type, 17);
	assert_int_equal(info->sampler.uncore[0].config, 0x1435);
	assert_int_equal(info->sampler.uncore[0].config1, 0x4903300000000ull);
	assert_int_equal(info->sampler.seq, 77);
	assert_int_equal(info->sampler.last_collect_ns, 1200);
	assert_int_equal(info->sampler.mean_collect_ns, 1100);
	assert_int_equal(info->sampler.intervals, 78);
	assert_int_equal(info->sampler.no_listener, 3);
	assert_int_equal(info->sampler.send_errors, 1);
	assert_int_equal(info->sampler.owner_pid, 999);
	assert_int_equal(info->sampler.parts, 3);
	assert_int_equal(info->sampler.nsubscribers, 2);
	assert_int_equal(info->sampler.subscribers[0].portid, 4242);
	assert_int_equal(info->sampler.subscribers[0].pid, 101);
	assert_int_equal(info->sampler.subscribers[0].samples, 70);
	assert_int_equal(info->sampler.subscribers[0].dropped, 0);
	assert_int_equal(info->sampler.subscribers[1].portid, 4243);
	assert_int_equal(info->sampler.subscribers[1].dropped, 58);
	assert_int_equal(info->ndevices, 1);
	assert_string_equal(info->devices[0].addr, "0000:01:00.0");
	assert_string_equal(info->devices[0].root_port, "0000:00:1c.0");
	assert_int_equal(info->devices[0].mode, IOCA_DDIO_DEVICE_MODE_FULL_OFF);
	assert_int_equal(info->devices[0].perfctrlsts1, 0x100);
	assert_int_equal(info->devices[0].owner_pid, 77);
	assert_true(info->devices[0].emulated);
	assert_int_equal(tl.count, 0);
	free(info);
}

static void test_decode_info_says_a_not_writable_socket_apart(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct t_log tl;

	(void)state;
	assert_int_equal(decode(info_msg(3, 1), info, &tl), 0);
	assert_int_equal(info->nsockets, 3);
	assert_true(info->ddio[2].reported);
	assert_true(info->ddio[2].available);
	assert_false(info->ddio[2].writable);
	assert_false(info->ddio[2].verified);
	free(info);
}

static void test_decode_info_refuses_a_ddio_flag_of_the_wrong_size(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	struct nlattr *s;
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_EMULATED);
	s = nla_nest_start(msg, IOCA_A_INFO_SOCKET);
	nla_put_u32(msg, IOCA_A_SOCKET_ID, 0);
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_WRITABLE, 1);
	nla_nest_end(msg, s);
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_int_equal(tl.count, 1);
	free(info);
}

static void test_decode_info_holds_the_abi_maxima(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct t_log tl;

	(void)state;
	assert_int_equal(decode(info_msg(IOCA_MAX_SOCKETS, IOCA_MAX_CPUS), info, &tl), 0);
	assert_int_equal(info->nsockets, IOCA_MAX_SOCKETS);
	assert_int_equal(info->sampler.ncpus, IOCA_MAX_CPUS);
	assert_int_equal(info->sampler.cpus[IOCA_MAX_CPUS - 1], 2 * (IOCA_MAX_CPUS - 1));
	free(info);
}

static void test_decode_info_refuses_more_sockets_than_the_abi(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct t_log tl;

	(void)state;
	assert_int_equal(decode(info_msg(IOCA_MAX_SOCKETS + 1, 1), info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "IOCA_MAX_SOCKETS"));
	free(info);
}

static void test_decode_info_refuses_more_cpus_than_the_abi(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct t_log tl;

	(void)state;
	assert_int_equal(decode(info_msg(1, IOCA_MAX_CPUS + 1), info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "IOCA_MAX_CPUS"));
	free(info);
}

static void test_decode_info_refuses_a_truncated_reply(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = info_msg(2, 2);
	struct t_log tl;
	uint32_t full = nlmsg_hdr(msg)->nlmsg_len;
	uint32_t cut;

	(void)state;
	/* Every cut inside the attributes leaves a partial attribute. */
	for (cut = full - 1; cut > NLMSG_HDRLEN + GENL_HDRLEN; cut -= 3) {
		nlmsg_hdr(msg)->nlmsg_len = cut;
		struct ioca_log log = t_logger(&tl);
		int err = ioca_decode_info(nlmsg_hdr(msg), info, &log);

		/* A cut on an attribute boundary that keeps BACKEND decodes. */
		if (err == 0)
			continue;
		assert_int_equal(err, -EBADMSG);
		assert_true(tl.count > 0);
	}
	nlmsg_hdr(msg)->nlmsg_len = full - 2;
	{
		struct ioca_log log = t_logger(&tl);

		assert_int_equal(ioca_decode_info(nlmsg_hdr(msg), info, &log), -EBADMSG);
		assert_non_null(strstr(tl.last, "truncated"));
	}
	nlmsg_hdr(msg)->nlmsg_len = NLMSG_HDRLEN + 2;
	{
		struct ioca_log log = t_logger(&tl);

		assert_int_equal(ioca_decode_info(nlmsg_hdr(msg), info, &log), -EBADMSG);
		assert_non_null(strstr(tl.last, "shorter than its headers"));
	}
	nlmsg_free(msg);
	free(info);
}

static void test_decode_info_refuses_a_short_u32(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	uint16_t two = 2;
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_MSR);
	t_put_raw(msg, IOCA_A_INFO_MIN_WAYS, &two, sizeof(two));
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "attribute 8 (2 bytes): length"));
	free(info);
}

static void test_decode_info_refuses_an_unterminated_string(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_MSR);
	t_put_raw(msg, IOCA_A_INFO_BACKEND_NAME, "msrX", 4);
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "a string without its NUL"));
	free(info);
}

static void test_decode_info_requires_the_backend_and_socket_ids(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	struct nlattr *s;
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_MIN_WAYS, 2);
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "IOCA_A_INFO_BACKEND"));

	msg = t_msg(IOCA_CMD_INFO_GET);
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_MSR);
	s = nla_nest_start(msg, IOCA_A_INFO_SOCKET);
	nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, 0x600);
	nla_nest_end(msg, s);
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "IOCA_A_SOCKET_ID"));
	free(info);
}

static void test_decode_info_refuses_a_malformed_nested_event(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	struct nlattr *s, *e;
	uint32_t four = 4;
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_MSR);
	s = nla_nest_start(msg, IOCA_A_INFO_SAMPLER);
	nla_put_u32(msg, IOCA_A_SAMPLER_STATE, IOCA_SAMPLER_STATE_CONFIGURED);
	e = nla_nest_start(msg, IOCA_A_SAMPLER_EVENT);
	nla_put_u32(msg, IOCA_A_EVENT_KIND, IOCA_EVENT_KIND_RAW);
	t_put_raw(msg, IOCA_A_EVENT_CONFIG, &four, sizeof(four)); /* u64 sent as 4 bytes */
	nla_nest_end(msg, e);
	nla_nest_end(msg, s);
	assert_int_equal(decode(msg, info, &tl), -EBADMSG);
	assert_non_null(strstr(tl.last, "event nest"));
	free(info);
}

static void test_decode_info_ignores_attributes_newer_than_it(void **state)
{
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);
	uint64_t big = 7;
	struct t_log tl;

	(void)state;
	nla_put_u32(msg, IOCA_A_INFO_BACKEND, IOCA_BACKEND_MSR);
	t_put_raw(msg, IOCA_A_INFO_MAX + 5, &big, sizeof(big));
	nla_put_u32(msg, IOCA_A_INFO_MIN_WAYS, 3);
	assert_int_equal(decode(msg, info, &tl), 0);
	assert_int_equal(info->min_ways, 3);
	assert_false(info->has_sampler);
	free(info);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_info_reads_every_field),
		cmocka_unit_test(test_decode_info_says_a_not_writable_socket_apart),
		cmocka_unit_test(test_decode_info_refuses_a_ddio_flag_of_the_wrong_size),
		cmocka_unit_test(test_decode_info_holds_the_abi_maxima),
		cmocka_unit_test(test_decode_info_refuses_more_sockets_than_the_abi),
		cmocka_unit_test(test_decode_info_refuses_more_cpus_than_the_abi),
		cmocka_unit_test(test_decode_info_refuses_a_truncated_reply),
		cmocka_unit_test(test_decode_info_refuses_a_short_u32),
		cmocka_unit_test(test_decode_info_refuses_an_unterminated_string),
		cmocka_unit_test(test_decode_info_requires_the_backend_and_socket_ids),
		cmocka_unit_test(test_decode_info_refuses_a_malformed_nested_event),
		cmocka_unit_test(test_decode_info_ignores_attributes_newer_than_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
