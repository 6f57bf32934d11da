// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * What receiving a sample costs in userspace once the bytes are in memory:
 * libioca's decode and reassembly of synthetic sample messages shaped like
 * the module's (4 per-CPU events, 2 uncore counters per socket, parts of
 * at most 16 KiB), for 64 and 256 CPUs. Baseline in the same run: a bare
 * walk over the same attributes with no policy, no checks and no copy (the
 * least any decoder must do). Prints figures and the ratio; never fails on
 * time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>
#include "assemble.h"
#include "attrs.h"

#define EVENTS 4
#define PART_BUDGET (16 * 1024)
#define ROUNDS 2000

static void put_counter(struct nl_msg *m, int type, uint32_t i, uint64_t v)
{
	struct nlattr *c = nla_nest_start(m, type);

	nla_put_u32(m, IOCA_A_COUNTER_INDEX, i);
	nla_put_u64(m, IOCA_A_COUNTER_VALUE, v);
	nla_put_u64(m, IOCA_A_COUNTER_ENABLED_NS, v);
	nla_put_u64(m, IOCA_A_COUNTER_RUNNING_NS, v);
	nla_nest_end(m, c);
}

static struct nl_msg *part_msg(uint64_t seq, uint32_t part, uint32_t parts)
{
	struct nl_msg *m = nlmsg_alloc_size(PART_BUDGET + 4096);

	genlmsg_put(m, 0, 0, 0x20, 0, 0, IOCA_CMD_SAMPLE_NTF, 1);
	nla_put_u64(m, IOCA_A_SAMPLE_SEQ, seq);
	nla_put_u64(m, IOCA_A_SAMPLE_TIME_NS, seq * 1000);
	nla_put_u64(m, IOCA_A_SAMPLE_REALTIME_NS, seq * 1000);
	nla_put_u64(m, IOCA_A_SAMPLE_COLLECT_NS, 50000);
	nla_put_u32(m, IOCA_A_SAMPLE_INTERVAL_US, 10000);
	nla_put_u32(m, IOCA_A_SAMPLE_PART, part);
	nla_put_u32(m, IOCA_A_SAMPLE_PARTS, parts);
	return m;
}

/* The messages of sample @seq for @ncpus CPUs; returns how many. */
static int build(uint64_t seq, int ncpus, struct nl_msg **msgs, int max)
{
	int per = 1, n, i, c = 0;

	/* CPUs per part from one CPU's size, as the module plans it. */
	{
		struct nl_msg *probe = part_msg(seq, 0, 1);
		size_t before = nlmsg_hdr(probe)->nlmsg_len, one;
		struct nlattr *cpu = nla_nest_start(probe, IOCA_A_SAMPLE_CPU);

		nla_put_u32(probe, IOCA_A_CPU_ID, 0);
		for (i = 0; i < EVENTS; i++)
			put_counter(probe, IOCA_A_CPU_COUNTER, (uint32_t)i, 1);
		nla_nest_end(probe, cpu);
		one = nlmsg_hdr(probe)->nlmsg_len - before;
		per = (int)((PART_BUDGET - before) / one);
		nlmsg_free(probe);
	}
	n = (ncpus + per - 1) / per;
	for (i = 0; i < n && i < max; i++) {
		struct nl_msg *m = part_msg(seq, (uint32_t)i, (uint32_t)n);
		int end = c + per < ncpus ? c + per : ncpus;

		for (; c < end; c++) {
			struct nlattr *cpu = nla_nest_start(m, IOCA_A_SAMPLE_CPU);
			int k;

			nla_put_u32(m, IOCA_A_CPU_ID, (uint32_t)c);
			nla_put_u32(m, IOCA_A_CPU_SOCKET, 0);
			nla_put_u8(m, IOCA_A_CPU_ONLINE, 1);
			nla_put_u32(m, IOCA_A_CPU_GENERATION, 1);
			for (k = 0; k < EVENTS; k++)
				put_counter(m, IOCA_A_CPU_COUNTER, (uint32_t)k,
					    seq * 100 + (uint64_t)k);
			nla_nest_end(m, cpu);
		}
		if (i == 0) {
			struct nlattr *so = nla_nest_start(m, IOCA_A_SAMPLE_SOCKET);

			nla_put_u32(m, IOCA_A_SOCKET_ID, 0);
			put_counter(m, IOCA_A_SOCKET_COUNTER, 0, seq);
			put_counter(m, IOCA_A_SOCKET_COUNTER, 1, seq);
			nla_nest_end(m, so);
		}
		msgs[i] = m;
	}
	return n;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The baseline: touch every counter value, inline, check nothing. */
static uint64_t bare_walk(const struct nlmsghdr *nlh)
{
	struct genlmsghdr *g = nlmsg_data(nlh);
	struct nlattr *a, *b, *c;
	int r1, r2, r3;
	uint64_t sum = 0;

	ioca_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), r1)
	{
		if (ioca_nla_type(a) != IOCA_A_SAMPLE_CPU)
			continue;
		ioca_for_each_nested(b, a, r2)
		{
			if (ioca_nla_type(b) != IOCA_A_CPU_COUNTER)
				continue;
			ioca_for_each_nested(c, b, r3)
			{
				if (ioca_nla_type(c) == IOCA_A_COUNTER_VALUE)
					sum += ioca_u64(c);
			}
		}
	}
	return sum;
}

static void run(int ncpus)
{
	static const struct ioca_log quiet;
	struct nl_msg *msgs[64];
	struct nlattr *seqs[64];
	struct ioca_assembler a;
	struct ioca_sample *out = malloc(sizeof(*out));
	uint64_t t0, lib_ns, bare_ns, sink = 0;
	int n, i, r, got = 0;

	n = build(1, ncpus, msgs, 64);
	for (i = 0; i < n; i++)
		seqs[i] = nlmsg_find_attr(nlmsg_hdr(msgs[i]), GENL_HDRLEN, IOCA_A_SAMPLE_SEQ);
	ioca_asm_init(&a, true, &quiet);
	t0 = now_ns();
	for (r = 0; r < ROUNDS; r++) {
		/* The same bytes each round, with the seq rewritten in place. */
		uint64_t v = (uint64_t)r + 1;

		for (i = 0; i < n; i++) {
			memcpy(nla_data(seqs[i]), &v, sizeof(v));
			got += ioca_asm_feed(&a, nlmsg_hdr(msgs[i]), out);
		}
	}
	lib_ns = now_ns() - t0;
	t0 = now_ns();
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < n; i++)
			sink += bare_walk(nlmsg_hdr(msgs[i]));
	bare_ns = now_ns() - t0;
	printf("libioca decode+assemble, %3d CPUs x %d events in %d part(s): %7.2f us/sample "
	       "(bare attribute walk %6.2f us, ratio %.1fx; %d/%d samples whole, lost %llu)%s\n",
	       ncpus, EVENTS, n, lib_ns / 1000.0 / ROUNDS, bare_ns / 1000.0 / ROUNDS,
	       (double)lib_ns / (double)(bare_ns ? bare_ns : 1), got, ROUNDS,
	       (unsigned long long)a.stats.lost, sink ? "" : " ");
	for (i = 0; i < n; i++)
		nlmsg_free(msgs[i]);
	ioca_asm_free(&a);
	free(out);
}

int main(void)
{
	run(64);
	run(256);
	return 0;
}
