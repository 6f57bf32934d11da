// SPDX-License-Identifier: GPL-2.0
/*
 * Per-CPU generation: a CPU that goes offline and back between two samples
 * restarts its counters from zero under a new generation, so a client never
 * takes a delta across it; CPUs that stayed keep theirs. Info reports how
 * many parts the last sample took. Needs a guest with >= 2 CPUs.
 */
#include <fcntl.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"
#include "client_ext.h"

#define HOTCPU 1

static int find(const struct iocx_sample *s, uint32_t cpu)
{
	int i;

	for (i = 0; i < (int)s->s.ncpus; i++)
		if (s->s.cpus[i].id == cpu)
			return i;
	return -1;
}

TEST_F_TIMEOUT(ioca_nl, cpu_back_from_offline_has_a_new_generation, 60)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 20000, .nevents = 1};
	struct iocx_sample *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct ioca_info o;
	int ia, ib, i0a, i0b;

	ASSERT_NE(NULL, a);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU to take offline");
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, iocx_sample_get(&self->nl, a, &self->r)) TH_LOG("%s", self->r.msg);

	/* Act: CPU 1 goes away and comes back between two samples. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	ASSERT_EQ(0, iocx_sample_get(&self->nl, b, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &o, &self->r));
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);

	/* Assert */
	ia = find(a, HOTCPU);
	ib = find(b, HOTCPU);
	i0a = find(a, 0);
	i0b = find(b, 0);
	ASSERT_LE(0, ia);
	ASSERT_LE(0, ib);
	ASSERT_LE(0, i0a);
	ASSERT_LE(0, i0b);
	EXPECT_NE(0, a->s.cpus[ia].generation)
	TH_LOG("start creates the counters: generation >= 1");
	EXPECT_EQ(a->s.cpus[ia].generation + 1, b->s.cpus[ib].generation);
	EXPECT_EQ(a->s.cpus[i0a].generation, b->s.cpus[i0b].generation);
	EXPECT_FALSE(b->has_part) TH_LOG("a small sample is one message without part attributes");
	EXPECT_EQ(1, o.sampler.parts);
	free(a);
}

TEST_HARNESS_MAIN
