// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * The public conventions: opts with sz, -errno and errno, print callbacks,
 * the extack parser, the mask helpers, and a clear answer without ioca.ko.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <linux/netlink.h>
#include <netlink/attr.h>
#include "ddio_control.h"
#include "log.h"
#include "msgs.h"
#include "transport.h"

/* An opts struct as a newer caller would build it: one field more. */
struct newer_client_opts {
	struct ioca_client_opts base;
	long future;
};

static void test_api_opts_with_unknown_nonzero_tail_are_refused(void **state)
{
	struct newer_client_opts o = {.base.sz = sizeof(o), .future = 1};
	struct t_log tl;

	(void)state;
	o.base.print = t_print;
	o.base.print_ctx = &tl;
	tl.count = 0;
	errno = 0;
	assert_null(ioca_client__open(&o.base));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(tl.last, "struct ioca_client_opts: byte"));
}

static void test_api_opts_sz_smaller_than_sz_is_refused(void **state)
{
	struct ioca_client_opts o = {.sz = 2};

	(void)state;
	assert_null(ioca_client__open(&o));
	assert_int_equal(errno, EINVAL);
}

static void test_api_opts_validity_rules(void **state)
{
	struct newer_client_opts o = {.base.sz = sizeof(o)};
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);

	(void)state;
	assert_int_equal(IOCA_OPTS_VALID(&log, (struct ioca_client_opts *)NULL, ioca_client_opts),
			 0);
	/* A longer struct whose tail is zero is fine. */
	assert_int_equal(IOCA_OPTS_VALID(&log, &o.base, ioca_client_opts), 0);
	/* An older, shorter struct is fine and its missing fields read as defaults. */
	o.base.sz = offsetof(struct ioca_client_opts, print_ctx);
	o.base.print_ctx = &tl;
	assert_int_equal(IOCA_OPTS_VALID(&log, &o.base, ioca_client_opts), 0);
	assert_null(IOCA_OPTS_GET(&o.base, print_ctx, NULL));
	assert_int_equal(tl.count, 0);
}

static void test_api_ioca_opts_macro_sets_sz_and_zeroes(void **state)
{
	IOCA_OPTS(ioca_sampler_opts, o, .owner = true);

	(void)state;
	assert_int_equal(o.sz, sizeof(struct ioca_sampler_opts));
	assert_true(o.owner);
}

static void test_api_err_sets_errno(void **state)
{
	(void)state;
	errno = 0;
	assert_int_equal(ioca_err(-EBUSY), -EBUSY);
	assert_int_equal(errno, EBUSY);
	errno = 7;
	assert_int_equal(ioca_err(0), 0);
	assert_int_equal(errno, 7);
	assert_null(ioca_err_ptr(-ENOENT));
	assert_int_equal(errno, ENOENT);
}

static void test_api_print_keeps_errno(void **state)
{
	struct t_log tl;
	struct ioca_log log = t_logger(&tl);

	(void)state;
	errno = ERANGE;
	pr_warn(&log, "x=%d", 5);
	assert_int_equal(errno, ERANGE);
	assert_string_equal(tl.last, "x=5");
}

static void test_api_mask_helpers(void **state)
{
	(void)state;
	assert_true(libioca_mask_contiguous(0x600));
	assert_true(libioca_mask_contiguous(0x1));
	assert_true(libioca_mask_contiguous(0xffffffffu));
	assert_false(libioca_mask_contiguous(0));
	assert_false(libioca_mask_contiguous(0x500));
	assert_int_equal(libioca_top_ways(11, 2), 0x600);
	assert_int_equal(libioca_top_ways(11, 11), 0x7ff);
	assert_int_equal(libioca_top_ways(32, 32), 0xffffffffu);
	assert_int_equal(libioca_top_ways(11, 12), 0);
	assert_int_equal(libioca_top_ways(11, 0), 0);
	assert_int_equal(libioca_top_ways(33, 2), 0);
}

/* Binaries built against LIBIOCA_0.1 call the helpers by their old names. */
static void test_api_helpers_keep_their_0_1_names(void **state)
{
	(void)state;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	assert_true(ioca_mask_contiguous(0x600));
	assert_false(ioca_mask_contiguous(0x500));
	assert_int_equal(ioca_top_ways(11, 2), 0x600);
	assert_string_equal(ioca_event_kind_name(IOCA_EVENT_KIND_CYCLES), "cycles");
#pragma GCC diagnostic pop
}

static void test_api_ddio_control_says_why_not(void **state)
{
	struct ioca_ddio_control old = {0};
	struct ioca_ddio_control ok = {.reported = true, .available = true, .writable = true};
	struct ioca_ddio_control unverified = ok;
	struct ioca_ddio_control locked = ok;
	struct ioca_ddio_control unread = {.reported = true};

	(void)state;
	unverified.verified = false;
	locked.writable = false;
	/* An older module says nothing: nothing is held against it. */
	assert_null(ioca_ddio_control__why_not(&old));
	assert_null(ioca_ddio_control__why_not(NULL));
	assert_null(ioca_ddio_control__why_not(&ok));
	/* Unverified is still controllable; the caller says so apart. */
	assert_null(ioca_ddio_control__why_not(&unverified));
	assert_non_null(strstr(ioca_ddio_control__why_not(&locked), "do not stick"));
	assert_non_null(strstr(ioca_ddio_control__why_not(&unread), "cannot reach"));
}

static void test_api_event_kind_names(void **state)
{
	(void)state;
	assert_string_equal(libioca_event_kind_name(IOCA_EVENT_KIND_INSTRUCTIONS), "instructions");
	assert_string_equal(libioca_event_kind_name(IOCA_EVENT_KIND_DDIO_MISS_EMULATED),
			    "ddio-miss-emulated");
	assert_null(libioca_event_kind_name(0));
	assert_null(libioca_event_kind_name(IOCA_EVENT_KIND_MAX + 1));
}

static void test_api_cmd_caps_name_what_the_module_checks(void **state)
{
	(void)state;
	assert_string_equal(libioca_cmd_caps(IOCA_CMD_SAMPLES_SUBSCRIBE),
			    "CAP_PERFMON (or CAP_SYS_ADMIN)");
	assert_string_equal(libioca_cmd_caps(IOCA_CMD_SAMPLER_START),
			    "CAP_NET_ADMIN and CAP_PERFMON (or CAP_SYS_ADMIN)");
	assert_string_equal(libioca_cmd_caps(IOCA_CMD_DDIO_SET), "CAP_NET_ADMIN and CAP_SYS_RAWIO");
	assert_string_equal(libioca_cmd_caps(IOCA_CMD_INFO_GET), "");
	assert_null(libioca_cmd_caps(IOCA_CMD_MAX + 1));
}

/* A ddio-set reply names sockets 1 and 0: each epoch lands at its request. */
static void test_api_ddio_set_reply_epochs_follow_the_requests(void **state)
{
	const struct ioca_ddio_req reqs[] = {{.socket = 0, .mask = 0x600},
					     {.socket = 1, .ways = 2}};
	struct nl_msg *msg = t_msg(IOCA_CMD_DDIO_SET);
	uint32_t epochs[2] = {0};
	uint32_t ids[] = {1, 0}, got[] = {9, 4};
	struct ioca_log log = {0};
	struct t_log tl;
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct nlattr *n = nla_nest_start(msg, IOCA_A_DDIO_WRITTEN);

		assert_non_null(n);
		assert_int_equal(nla_put_u32(msg, IOCA_A_SOCKET_ID, ids[i]), 0);
		assert_int_equal(nla_put_u32(msg, IOCA_A_SOCKET_DDIO_MASK, 0x600), 0);
		assert_int_equal(nla_put_u32(msg, IOCA_A_SOCKET_DDIO_EPOCH, got[i]), 0);
		nla_nest_end(msg, n);
	}
	log = t_logger(&tl);
	assert_int_equal(ioca_decode_ddio_written(nlmsg_hdr(msg), reqs, 2, epochs, &log), 0);
	assert_int_equal(epochs[0], 4);
	assert_int_equal(epochs[1], 9);
	/* A socket the request did not name is a broken reply. */
	assert_int_equal(ioca_decode_ddio_written(nlmsg_hdr(msg), reqs, 1, epochs, &log), -EBADMSG);
	assert_non_null(strstr(tl.last, "socket 1 was not in the request"));
	nlmsg_free(msg);
}

/* An NLMSG_ERROR with extack TLVs, as the kernel builds it. */
static struct nl_msg *error_msg(int err, const char *text, int offs, bool capped)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlmsghdr *nlh = nlmsg_put(msg, 0, 1, NLMSG_ERROR, 0, NLM_F_ACK_TLVS);
	struct nlmsgerr *e;
	size_t echo = capped ? 0 : 8;

	assert_non_null(nlh);
	e = nlmsg_reserve(msg, sizeof(*e) + echo, NLMSG_ALIGNTO);
	assert_non_null(e);
	memset(e, 0, sizeof(*e) + echo);
	e->error = err;
	e->msg.nlmsg_len = (uint32_t)(NLMSG_HDRLEN + echo);
	if (capped)
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	if (text)
		assert_int_equal(nla_put_string(msg, NLMSGERR_ATTR_MSG, text), 0);
	if (offs >= 0)
		assert_int_equal(nla_put_u32(msg, NLMSGERR_ATTR_OFFS, (uint32_t)offs), 0);
	return msg;
}

static void test_api_extack_text_and_offset_are_kept(void **state)
{
	char text[IOCA_EXTACK_LEN];
	struct nl_msg *msg;
	int offs;

	(void)state;
	msg = error_msg(-EINVAL, "DDIO mask is not contiguous", 24, true);
	ioca_parse_extack(nlmsg_hdr(msg), text, sizeof(text), &offs);
	assert_string_equal(text, "DDIO mask is not contiguous");
	assert_int_equal(offs, 24);
	nlmsg_free(msg);

	/* Uncapped: the request is echoed before the TLVs. */
	msg = error_msg(-EINVAL, "socket listed twice", -1, false);
	ioca_parse_extack(nlmsg_hdr(msg), text, sizeof(text), &offs);
	assert_string_equal(text, "socket listed twice");
	assert_int_equal(offs, -1);
	nlmsg_free(msg);

	msg = error_msg(-EPERM, NULL, -1, true);
	ioca_parse_extack(nlmsg_hdr(msg), text, sizeof(text), &offs);
	assert_string_equal(text, "");
	nlmsg_free(msg);
}

static void test_api_without_the_module_open_says_how_to_load_it(void **state)
{
	struct t_log tl = {.count = 0};
	IOCA_OPTS(ioca_client_opts, o, .print = t_print, .print_ctx = &tl);

	(void)state;
	if (access("/sys/module/ioca", F_OK) == 0)
		skip(); /* the module is loaded on this machine */
	errno = 0;
	assert_null(ioca_client__open(&o));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(tl.last, "ioca.ko is not loaded"));
	assert_null(ioca_subscription__open(NULL));
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api_opts_with_unknown_nonzero_tail_are_refused),
		cmocka_unit_test(test_api_opts_sz_smaller_than_sz_is_refused),
		cmocka_unit_test(test_api_opts_validity_rules),
		cmocka_unit_test(test_api_ioca_opts_macro_sets_sz_and_zeroes),
		cmocka_unit_test(test_api_err_sets_errno),
		cmocka_unit_test(test_api_print_keeps_errno),
		cmocka_unit_test(test_api_mask_helpers),
		cmocka_unit_test(test_api_helpers_keep_their_0_1_names),
		cmocka_unit_test(test_api_ddio_control_says_why_not),
		cmocka_unit_test(test_api_event_kind_names),
		cmocka_unit_test(test_api_cmd_caps_name_what_the_module_checks),
		cmocka_unit_test(test_api_ddio_set_reply_epochs_follow_the_requests),
		cmocka_unit_test(test_api_extack_text_and_offset_are_kept),
		cmocka_unit_test(test_api_without_the_module_open_says_how_to_load_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
