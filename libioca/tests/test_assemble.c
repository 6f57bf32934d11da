// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * Sample decoding and reassembly: whole samples, parts in any order, and
 * every way a part can go missing or wrong, which must show up as a lost
 * sample and never as a sample with CPUs missing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <netlink/attr.h>
#include "assemble.h"
#include "msgs.h"

struct fx {
	struct t_log tl;
	struct ioca_log log;
	struct ioca_assembler a;
	struct ioca_sample *out;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->log = t_logger(&f->tl);
	assert_int_equal(ioca_asm_init(&f->a, true, &f->log), 0);
	f->out = calloc(1, sizeof(*f->out));
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	ioca_asm_free(&f->a);
	free(f->out);
	free(f);
	return 0;
}

/* Feeds @msg (freed) and returns what the assembler said. */
static int feed(struct fx *f, struct nl_msg *msg)
{
	int ret = ioca_asm_feed(&f->a, nlmsg_hdr(msg), f->out);

	nlmsg_free(msg);
	return ret;
}

/* Part @part of @parts of sample @seq holding CPUs [first, first + n). */
static struct nl_msg *part(uint64_t seq, uint32_t p, uint32_t parts, uint32_t first, uint32_t n)
{
	struct nl_msg *msg = t_sample_msg(seq, p, parts, false);
	uint32_t i;

	for (i = first; i < first + n; i++)
		t_put_cpu(msg, i, 0, i == 1 ? 3 : 0, 4, 100 * i);
	if (p == 0)
		t_put_socket(msg, 0, 6, 5000);
	return msg;
}

static void test_asm_whole_message_is_one_sample(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(5, 0, 0, 0, 3)), 1);
	assert_int_equal(f->out->seq, 5);
	assert_int_equal(f->out->parts, 1);
	assert_int_equal(f->out->lost, 0);
	assert_int_equal(f->out->time_ns, 1005);
	assert_int_equal(f->out->realtime_ns, 2005);
	assert_int_equal(f->out->collect_ns, 30);
	assert_int_equal(f->out->interval_us, 10000);
	assert_false(f->out->on_demand);
	assert_int_equal(f->out->ncpus, 3);
	assert_int_equal(f->out->cpus[2].id, 2);
	assert_true(f->out->cpus[2].online);
	assert_int_equal(f->out->cpus[2].ncounters, 4);
	assert_int_equal(f->out->cpus[2].counters[3].index, 3);
	assert_int_equal(f->out->cpus[2].counters[3].value, 203);
	assert_int_equal(f->out->cpus[2].counters[3].enabled_ns, 500);
	assert_int_equal(f->out->cpus[2].counters[3].running_ns, 400);
	assert_int_equal(f->out->cpus[1].generation, 3);
	assert_int_equal(f->out->cpus[0].generation, 0);
	assert_int_equal(f->out->nsockets, 1);
	assert_int_equal(f->out->sockets[0].ncounters, 6);
	assert_int_equal(f->out->sockets[0].counters[5].value, 5005);
	assert_int_equal(f->a.stats.samples, 1);
}

static void test_asm_parts_in_any_order_make_one_sample(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(9, 2, 3, 20, 10)), 0);
	assert_int_equal(feed(f, part(9, 0, 3, 0, 10)), 0);
	assert_int_equal(feed(f, part(9, 1, 3, 10, 10)), 1);
	assert_int_equal(f->out->seq, 9);
	assert_int_equal(f->out->parts, 3);
	assert_int_equal(f->out->ncpus, 30);
	assert_int_equal(f->out->nsockets, 1);
	assert_int_equal(f->a.stats.samples, 1);
	assert_int_equal(f->a.stats.incomplete, 0);
}

static void test_asm_counts_sequence_gaps_as_lost(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(10, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 0);
	assert_int_equal(feed(f, part(11, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 0);
	assert_int_equal(feed(f, part(15, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 3);
	assert_int_equal(f->a.stats.lost, 3);
}

static void test_asm_a_missing_part_loses_the_sample(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(1, 0, 2, 0, 2)), 0);
	assert_int_equal(feed(f, part(1, 1, 2, 2, 2)), 1);
	/* Sample 2 never gets its second part. */
	assert_int_equal(feed(f, part(2, 0, 2, 0, 2)), 0);
	assert_int_equal(feed(f, part(3, 1, 2, 2, 2)), 0);
	assert_int_equal(f->a.stats.incomplete, 1);
	assert_non_null(strstr(f->tl.last, "1 of 2 parts"));
	assert_int_equal(feed(f, part(3, 0, 2, 0, 2)), 1);
	assert_int_equal(f->out->seq, 3);
	assert_int_equal(f->out->ncpus, 4);
	assert_int_equal(f->out->lost, 1);
}

static void test_asm_a_duplicated_part_drops_the_sample(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(4, 0, 2, 0, 2)), 0);
	assert_int_equal(feed(f, part(4, 0, 2, 0, 2)), 0);
	assert_non_null(strstr(f->tl.last, "received twice"));
	/* The remaining part of a dropped sample does not revive it. */
	assert_int_equal(feed(f, part(4, 1, 2, 2, 2)), 0);
	assert_int_equal(f->a.stats.incomplete, 1);
	assert_int_equal(f->a.stats.samples, 0);
}

static void test_asm_parts_disagreeing_on_the_count_drop_the_sample(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(4, 0, 2, 0, 2)), 0);
	assert_int_equal(feed(f, part(4, 1, 3, 2, 2)), 0);
	assert_int_equal(feed(f, part(4, 2, 3, 4, 2)), 0);
	assert_int_equal(f->a.stats.samples, 0);
	assert_int_equal(f->a.stats.malformed, 1);
}

static void test_asm_a_malformed_part_drops_the_sample(void **state)
{
	struct fx *f = *state;
	struct nl_msg *bad = part(6, 1, 2, 2, 1);
	struct nlattr *cpu = nla_nest_start(bad, IOCA_A_SAMPLE_CPU);
	uint16_t two = 2;

	t_put_raw(bad, IOCA_A_CPU_ID, &two, sizeof(two)); /* u32 sent as 2 bytes */
	nla_nest_end(bad, cpu);
	assert_int_equal(feed(f, part(6, 0, 2, 0, 2)), 0);
	assert_int_equal(feed(f, bad), 0);
	assert_int_equal(f->a.stats.malformed, 1);
	assert_int_equal(f->a.stats.incomplete, 1);
	assert_int_equal(feed(f, part(7, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->seq, 7);
	assert_int_equal(f->out->ncpus, 1);
}

static void test_asm_rejects_part_out_of_range(void **state)
{
	struct fx *f = *state;
	struct nl_msg *msg = t_sample_msg(3, 0, 0, false);

	assert_int_equal(feed(f, t_sample_msg(3, 2, 2, false)), 0);
	assert_non_null(strstr(f->tl.last, "out of range"));
	assert_int_equal(feed(f, t_sample_msg(3, 0, IOCA_MAX_SAMPLE_PARTS + 1, false)), 0);
	/* PART without PARTS */
	nla_put_u32(msg, IOCA_A_SAMPLE_PART, 0);
	assert_int_equal(feed(f, msg), 0);
	assert_non_null(strstr(f->tl.last, "come together"));
	assert_int_equal(f->a.stats.malformed, 3);
	assert_int_equal(f->a.stats.samples, 0);
}

static void test_asm_skips_on_demand_samples_in_a_subscription(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(1, 0, 0, 0, 1)), 1);
	assert_int_equal(feed(f, t_sample_msg(1, 0, 0, true)), 0);
	assert_int_equal(feed(f, part(2, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 0);
}

static void test_asm_a_sequence_restart_is_no_loss(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(100, 0, 0, 0, 1)), 1);
	assert_int_equal(feed(f, part(0, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 0);
	assert_int_equal(feed(f, part(1, 0, 0, 0, 1)), 1);
	assert_int_equal(f->out->lost, 0);
}

static void test_asm_refuses_more_cpus_than_the_abi(void **state)
{
	struct fx *f = *state;

	assert_int_equal(feed(f, part(1, 0, 2, 0, IOCA_MAX_CPUS)), 0);
	assert_int_equal(feed(f, part(1, 1, 2, IOCA_MAX_CPUS, 1)), 0);
	assert_non_null(strstr(f->tl.last, "IOCA_MAX_CPUS"));
	assert_int_equal(f->a.stats.samples, 0);
}

static void test_asm_holds_a_sample_of_the_abi_maxima(void **state)
{
	struct fx *f = *state;
	struct nl_msg *msg = t_sample_msg(1, 0, 0, false);
	uint32_t i;

	for (i = 0; i < IOCA_MAX_CPUS; i++)
		t_put_cpu(msg, i, i % IOCA_MAX_SOCKETS, 1, IOCA_MAX_CPU_EVENTS, i);
	for (i = 0; i < IOCA_MAX_SOCKETS; i++)
		t_put_socket(msg, i, IOCA_MAX_UNCORE_EVENTS, i);
	assert_int_equal(feed(f, msg), 1);
	assert_int_equal(f->out->ncpus, IOCA_MAX_CPUS);
	assert_int_equal(f->out->cpus[255].counters[7].value, 255 + 7);
	assert_int_equal(f->out->nsockets, IOCA_MAX_SOCKETS);
	assert_int_equal(f->out->sockets[7].counters[127].value, 7 + 127);
}

static void test_asm_refuses_a_message_that_is_not_a_sample(void **state)
{
	struct fx *f = *state;
	struct nl_msg *msg = t_msg(IOCA_CMD_INFO_GET);

	nla_put_u64(msg, IOCA_A_SAMPLE_SEQ, 1);
	assert_int_equal(feed(f, msg), 0);
	assert_non_null(strstr(f->tl.last, "not a sample"));
	msg = t_msg(IOCA_CMD_SAMPLE_NTF);
	nla_put_u32(msg, IOCA_A_SAMPLE_INTERVAL_US, 1);
	assert_int_equal(feed(f, msg), 0);
	assert_non_null(strstr(f->tl.last, "IOCA_A_SAMPLE_SEQ"));
}

static void test_asm_on_demand_mode_keeps_on_demand_samples(void **state)
{
	struct fx *f = *state;
	struct ioca_assembler a;

	assert_int_equal(ioca_asm_init(&a, false, &f->log), 0);
	{
		struct nl_msg *msg = t_sample_msg(8, 0, 0, true);

		t_put_cpu(msg, 0, 0, 0, 2, 1);
		assert_int_equal(ioca_asm_feed(&a, nlmsg_hdr(msg), f->out), 1);
		nlmsg_free(msg);
	}
	assert_true(f->out->on_demand);
	assert_int_equal(f->out->seq, 8);
	assert_int_equal(f->out->ncpus, 1);
	ioca_asm_free(&a);
}

/*
 * The most parts the module sends: at its smallest part budget
 * (IOCA_PART_BUDGET_MIN) a sample of 256 CPUs x 8 events and 8 sockets x
 * 128 uncore events takes one part per CPU and per socket (KUnit
 * ioca-parts checks the module's side). Fed last part first, it is one
 * whole sample with every socket's DDIO mask.
 */
static void test_asm_takes_the_most_parts_the_module_sends(void **state)
{
	struct fx *f = *state;
	const uint32_t n = IOCA_MAX_CPUS + IOCA_MAX_SOCKETS;
	uint32_t p, i;
	int got = 0;

	assert_int_equal(n, IOCA_MAX_SAMPLE_PARTS);
	for (p = n; p-- > 0;) {
		struct nl_msg *msg = t_sample_msg(9, p, n, false);

		if (p < IOCA_MAX_CPUS)
			t_put_cpu(msg, p, p / 32, 1, IOCA_MAX_CPU_EVENTS, 10 * p);
		else
			t_put_socket_ddio(msg, p - IOCA_MAX_CPUS, IOCA_MAX_UNCORE_EVENTS, 7,
					  0x600u >> (p - IOCA_MAX_CPUS));
		got = feed(f, msg);
		if (p)
			assert_int_equal(got, 0);
	}
	assert_int_equal(got, 1);
	assert_int_equal(f->out->parts, n);
	assert_int_equal(f->out->ncpus, IOCA_MAX_CPUS);
	assert_int_equal(f->out->nsockets, IOCA_MAX_SOCKETS);
	assert_int_equal(f->a.stats.malformed, 0);
	for (i = 0; i < IOCA_MAX_SOCKETS; i++) {
		/* Parts arrived last first: sockets in reverse. */
		const struct ioca_socket_sample *so = &f->out->sockets[i];

		assert_int_equal(so->ncounters, IOCA_MAX_UNCORE_EVENTS);
		assert_int_equal(so->ddio_mask, 0x600u >> so->id);
	}
	/* One more part than that is refused. */
	assert_int_equal(feed(f, t_sample_msg(10, 0, n + 1, false)), 0);
	assert_non_null(strstr(f->tl.last, "out of range"));
}

static void test_asm_socket_without_ddio_mask_reads_zero(void **state)
{
	struct fx *f = *state;
	struct nl_msg *msg = t_sample_msg(4, 0, 0, false);

	t_put_socket_ddio(msg, 0, 1, 7, 0x780);
	t_put_socket(msg, 1, 1, 7);
	assert_int_equal(feed(f, msg), 1);
	assert_int_equal(f->out->nsockets, 2);
	assert_int_equal(f->out->sockets[0].ddio_mask, 0x780);
	assert_int_equal(f->out->sockets[1].ddio_mask, 0);
}

/* Two parts of one sample, run epoch 7, socket 1's mask of DDIO epoch 3. */
static void test_asm_a_sample_keeps_its_run_and_ddio_epochs(void **state)
{
	struct fx *f = *state;
	struct nl_msg *m0 = t_sample_msg(5, 0, 2, false), *m1 = t_sample_msg(5, 1, 2, false);
	struct nlattr *nest;

	assert_int_equal(nla_put_u32(m0, IOCA_A_SAMPLE_EPOCH, 7), 0);
	assert_int_equal(nla_put_u32(m1, IOCA_A_SAMPLE_EPOCH, 7), 0);
	t_put_socket(m0, 0, 1, 7);
	nest = nla_nest_start(m1, IOCA_A_SAMPLE_SOCKET);
	assert_non_null(nest);
	assert_int_equal(nla_put_u32(m1, IOCA_A_SOCKET_ID, 1), 0);
	assert_int_equal(nla_put_u32(m1, IOCA_A_SOCKET_DDIO_MASK, 0x700), 0);
	assert_int_equal(nla_put_u32(m1, IOCA_A_SOCKET_DDIO_EPOCH, 3), 0);
	nla_nest_end(m1, nest);

	assert_int_equal(feed(f, m0), 0);
	assert_int_equal(feed(f, m1), 1);

	assert_int_equal(f->out->epoch, 7);
	assert_int_equal(f->out->nsockets, 2);
	assert_int_equal(f->out->sockets[0].ddio_epoch, 0);
	assert_int_equal(f->out->sockets[1].ddio_mask, 0x700);
	assert_int_equal(f->out->sockets[1].ddio_epoch, 3);
	/* A sample of a module without epochs reads 0, not the last one's. */
	assert_int_equal(feed(f, t_sample_msg(6, 0, 0, false)), 1);
	assert_int_equal(f->out->epoch, 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_asm_whole_message_is_one_sample),
		T(test_asm_parts_in_any_order_make_one_sample),
		T(test_asm_counts_sequence_gaps_as_lost),
		T(test_asm_a_missing_part_loses_the_sample),
		T(test_asm_a_duplicated_part_drops_the_sample),
		T(test_asm_parts_disagreeing_on_the_count_drop_the_sample),
		T(test_asm_a_malformed_part_drops_the_sample),
		T(test_asm_rejects_part_out_of_range),
		T(test_asm_skips_on_demand_samples_in_a_subscription),
		T(test_asm_a_sequence_restart_is_no_loss),
		T(test_asm_refuses_more_cpus_than_the_abi),
		T(test_asm_holds_a_sample_of_the_abi_maxima),
		T(test_asm_refuses_a_message_that_is_not_a_sample),
		T(test_asm_on_demand_mode_keeps_on_demand_samples),
		T(test_asm_takes_the_most_parts_the_module_sends),
		T(test_asm_socket_without_ddio_mask_reads_zero),
		T(test_asm_a_sample_keeps_its_run_and_ddio_epochs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
