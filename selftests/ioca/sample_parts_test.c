// SPDX-License-Identifier: GPL-2.0
/*
 * Samples in parts, end to end: with the module loaded with a small
 * part_budget (a 2-CPU guest never reaches the real 16 KiB), a periodic
 * sample arrives as consecutive messages with the same seq, part 0..n-1 of
 * n, the CPUs then the sockets, each exactly once; sample-get answers with
 * as many replies; info reports the count. A budget out of range is refused
 * at load.
 */
#include <unistd.h>

#include "ioca_fixture.h"
#include "client_ext.h"
#include "kmod_load.h"

#define SMALL "part_budget=512"

/* Up to @max messages of one sample-get reply, each parsed into @s[i]. */
struct multi {
	struct iocx_sample *s;
	int n, max;
};

static int parse_multi(struct nlmsghdr *nlh, void *arg)
{
	struct multi *m = arg;

	if (m->n >= m->max)
		return -E2BIG;
	return iocx_parse_sample(nlh, &m->s[m->n++]);
}

static void cfg_two_parts(struct ioca_sampler_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_us = 20000;
	cfg->nevents = 3;
	cfg->ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	cfg->ev[1].kind = IOCA_EVENT_KIND_TASK_CLOCK;
	cfg->ev[2].kind = IOCA_EVENT_KIND_INSTRUCTIONS;
	cfg->nuncore = 2;
	cfg->unc[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	cfg->unc[1].kind = IOCA_EVENT_KIND_DDIO_MISS_EMULATED;
}

TEST(part_budget_out_of_range_is_refused_at_load)
{
	ASSERT_EQ(0, kmod_loaded("ioca") ? kmod_unload("ioca", 5000) : 0);
	EXPECT_EQ(-EINVAL, kmod_load(kmod_path(), "emulate=1 part_budget=100"));
	EXPECT_FALSE(kmod_loaded("ioca"));
	ASSERT_EQ(0, kmod_load(kmod_path(), kmod_default_params()));
}

TEST_F_TIMEOUT(ioca_nl, periodic_and_on_demand_samples_arrive_in_parts, 60)
{
	struct iocx_sample *s = calloc(8, sizeof(*s));
	struct multi m = {.s = s, .max = 8};
	struct ioca_sampler_cfg cfg;
	struct ioca_info o;
	struct tnl_reply r;
	struct tnl nl, sub;
	int ncpus = 0, nsock = 0, i;
	uint64_t seq;

	ASSERT_NE(NULL, s);
	ASSERT_EQ(0, kmod_reload(SMALL)) TH_LOG("insmod %s %s", kmod_path(), SMALL);
	ASSERT_EQ(0, tnl_open(&nl, IOCA_FAMILY_NAME));
	cfg_two_parts(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&nl, &cfg, &r)) TH_LOG("%s", r.msg);
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	ASSERT_EQ(0, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_START, &r)) TH_LOG("%s", r.msg);

	/* Find the start of a sample, then read its parts in order. */
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(1, tnl_recv_one(&sub, 3000, iocx_parse_sample, &s[0]));
		if (s[0].has_part && s[0].part == 0)
			break;
	}
	ASSERT_TRUE(s[0].has_part) TH_LOG("a sample over the budget came as one message");
	ASSERT_EQ(0, s[0].part);
	ASSERT_LE(2, s[0].parts);
	ASSERT_GE(8, s[0].parts);
	seq = s[0].s.seq;
	for (i = 1; i < (int)s[0].parts; i++) {
		ASSERT_EQ(1, tnl_recv_one(&sub, 3000, iocx_parse_sample, &s[i]));
		EXPECT_EQ(seq, s[i].s.seq) TH_LOG("part %d of another sample", i);
		EXPECT_EQ((uint32_t)i, s[i].part);
		EXPECT_EQ(s[0].parts, s[i].parts);
		EXPECT_EQ(s[0].s.time_ns, s[i].s.time_ns);
	}
	for (i = 0; i < (int)s[0].parts; i++) {
		uint32_t c;

		for (c = 0; c < s[i].s.ncpus; c++)
			EXPECT_EQ((uint32_t)(ncpus + c), s[i].s.cpus[c].id)
		TH_LOG("CPUs out of order");
		ncpus += s[i].s.ncpus;
		if (s[i].s.nsockets)
			EXPECT_EQ(0, s[i].s.ncpus) TH_LOG("sockets come after every CPU");
		nsock += s[i].s.nsockets;
	}
	EXPECT_EQ(sysconf(_SC_NPROCESSORS_ONLN), ncpus);
	EXPECT_EQ(1, nsock);
	ASSERT_EQ(0, ioca_info_get(&nl, &o, &r));
	EXPECT_EQ(s[0].parts, o.sampler.parts);

	/* On demand: as many replies, then the ack. */
	memset(&r, 0, sizeof(r));
	{
		struct nl_msg *msg = tnl_msg(&nl, IOCA_CMD_SAMPLE_GET, 0);

		ASSERT_NE(NULL, msg);
		r.parse = parse_multi;
		r.arg = &m;
		EXPECT_EQ(0, tnl_do(&nl, msg, &r)) TH_LOG("%s", r.msg);
	}
	EXPECT_EQ((int)s[0].parts, m.n);
	for (i = 0; i < m.n; i++)
		EXPECT_EQ((uint32_t)i, s[i].part);

	ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_STOP, &r);
	tnl_close(&sub);
	tnl_close(&nl);
	EXPECT_EQ(0, kmod_reload(""));
	free(s);
}

TEST_HARNESS_MAIN
