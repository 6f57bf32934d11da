// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hotplug under a running sampler: an offline CPU stays in the sample,
 * marked offline and without counters; when it returns its counters are
 * created again and keep being reported. Needs a guest with >= 2 CPUs.
 */
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"
#include "kmsg.h"

#define HOTCPU 1

static const struct ioca_cpu_sample *find_cpu(const struct ioca_sample *s, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < s->ncpus; i++)
		if (s->cpus[i].id == id)
			return &s->cpus[i];
	return NULL;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The next multicast sample whose CPU @cpu is in state @online, within 60 s.
 * A deadline, not a sample count: the samples sent while a slow hotplug
 * blocked the write to cpuN/online wait in the socket's queue, and under an
 * emulator on a loaded host they are more than any fixed count.
 */
static int wait_cpu_state(struct tnl *sub, struct ioca_sample *s, uint32_t cpu, bool online)
{
	const struct ioca_cpu_sample *c;
	double end = now_s() + 60;
	int got;

	while (now_s() < end) {
		got = tnl_recv_one(sub, 3000, ioca_parse_sample, s);
		if (got <= 0)
			return got ? got : -ETIMEDOUT;
		c = find_cpu(s, cpu);
		if (c && c->online == online)
			return 0;
	}
	return -ETIME;
}

TEST_F_TIMEOUT(ioca_nl, offline_cpu_is_reported_and_its_counters_return, 120)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 2};
	struct ioca_sample *s = calloc(1, sizeof(*s));
	const struct ioca_cpu_sample *c;
	size_t mark = kmsg_mark();
	char splat[256];
	struct tnl sub;

	ASSERT_NE(NULL, s);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU to take offline");
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	cfg.ev[1].kind = IOCA_EVENT_KIND_INSTRUCTIONS;
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	ASSERT_EQ(0, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, wait_cpu_state(&sub, s, HOTCPU, true));

	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	EXPECT_EQ(0, wait_cpu_state(&sub, s, HOTCPU, false));
	c = find_cpu(s, HOTCPU);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(0, c->ncounters) TH_LOG("an offline CPU must not report counters");
	c = find_cpu(s, 0);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(2, c->ncounters) TH_LOG("the online CPU must keep its counters");

	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	EXPECT_EQ(0, wait_cpu_state(&sub, s, HOTCPU, true));
	c = find_cpu(s, HOTCPU);
	ASSERT_NE(NULL, c);
	EXPECT_EQ(2, c->ncounters) TH_LOG("counters not re-created after the CPU returned");
	/* And they keep counting once back. */
	{
		uint64_t before = c->counters[0].value;

		ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
		ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, s));
		c = find_cpu(s, HOTCPU);
		ASSERT_NE(NULL, c);
		ASSERT_EQ(2, c->ncounters);
		EXPECT_LE(before, c->counters[0].value);
	}
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
	tnl_close(&sub);
	free(s);
}

TEST_HARNESS_MAIN
