// SPDX-License-Identifier: GPL-2.0
/*
 * Emulated DDIO hit/miss counters (emulate=1): a rate written to debugfs
 * shows up as the matching delta between two samples through the real
 * sampler path; the kinds are refused on the msr backend.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"
#include "client_ext.h"

#define DBG "/sys/kernel/debug/ioca/socket0/"

static bool emulated(void)
{
	const char *b = getenv("IOCA_EXPECT_BACKEND");

	return !b || !strcmp(b, "emulated");
}

static void emul_cfg(struct ioca_sampler_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->interval_us = 1000000;
	cfg->nuncore = 2;
	cfg->unc[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	cfg->unc[1].kind = IOCA_EVENT_KIND_DDIO_MISS_EMULATED;
}

TEST_F_TIMEOUT(ioca_nl, emulated_ddio_rates_show_as_counter_deltas, 60)
{
	struct iocx_sample *a = calloc(2, sizeof(*a)), *b = a + 1;
	const unsigned long long hit = 200000, miss = 30000;
	struct ioca_sampler_cfg cfg;
	double dt, dh, dm;

	if (!emulated())
		SKIP(return, "msr backend: no emulated counters");
	ASSERT_NE(NULL, a);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	emul_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, knob_socket_rate(0, "ddio_hit_rate", hit))
	TH_LOG("debugfs: %s", strerror(errno));
	ASSERT_EQ(0, knob_socket_rate(0, "ddio_miss_rate", miss));

	/* Act: two on-demand samples about one second apart. */
	ASSERT_EQ(0, iocx_sample_get(&self->nl, a, &self->r)) TH_LOG("%s", self->r.msg);
	sleep(1);
	ASSERT_EQ(0, iocx_sample_get(&self->nl, b, &self->r)) TH_LOG("%s", self->r.msg);
	knob_socket_rate(0, "ddio_hit_rate", 0);
	knob_socket_rate(0, "ddio_miss_rate", 0);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);

	/* Assert: delta / elapsed is the rate (1 % covers the rounding). */
	ASSERT_LE(1, a->s.nsockets);
	ASSERT_EQ(2, a->s.sockets[0].ncounters);
	dt = (double)(b->s.time_ns - a->s.time_ns) / 1e9;
	ASSERT_LT(0.9, dt);
	dh = (double)(iocx_counter(&b->s.sockets[0], 0) - iocx_counter(&a->s.sockets[0], 0));
	dm = (double)(iocx_counter(&b->s.sockets[0], 1) - iocx_counter(&a->s.sockets[0], 1));
	EXPECT_LT(hit * dt * 0.99, dh) TH_LOG("hits %.0f over %.3f s", dh, dt);
	EXPECT_GT(hit * dt * 1.01, dh) TH_LOG("hits %.0f over %.3f s", dh, dt);
	EXPECT_LT(miss * dt * 0.99, dm) TH_LOG("misses %.0f over %.3f s", dm, dt);
	EXPECT_GT(miss * dt * 1.01, dm) TH_LOG("misses %.0f over %.3f s", dm, dt);
	free(a);
}

/* A new run's counts start at 0, as a PMU event created by the run does. */
TEST_F_TIMEOUT(ioca_nl, emulated_counts_start_with_the_run, 60)
{
	struct iocx_sample *a = calloc(1, sizeof(*a));
	const unsigned long long hit = 1000000;
	struct ioca_sampler_cfg cfg;
	struct timespec t0, t1;
	double since_start;

	if (!emulated())
		SKIP(return, "msr backend: no emulated counters");
	ASSERT_NE(NULL, a);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	emul_cfg(&cfg);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, knob_socket_rate(0, "ddio_hit_rate", hit));
	/* an earlier run counts a second of hits */
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	sleep(1);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, iocx_sample_get(&self->nl, a, &self->r)) TH_LOG("%s", self->r.msg);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	knob_socket_rate(0, "ddio_hit_rate", 0);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);

	since_start = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	ASSERT_LE(1, a->s.nsockets);
	/* at most what the new run saw (2 % for the rounding), not the earlier second too */
	EXPECT_GE(hit * since_start * 1.02 + 1, (double)iocx_counter(&a->s.sockets[0], 0))
	TH_LOG("hits %llu within %.3f s of the start",
	       (unsigned long long)iocx_counter(&a->s.sockets[0], 0), since_start);
	free(a);
}

TEST_F(ioca_nl, emulated_ddio_kinds_refused_on_msr)
{
	struct ioca_sampler_cfg cfg;

	if (emulated())
		SKIP(return, "emulated backend: the kinds are allowed");
	emul_cfg(&cfg);
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("emulated DDIO events need emulate=1; use the CHA PMU's events", self->r.msg);
}

TEST_F(ioca_nl, emulated_ddio_kinds_are_uncore_only)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};

	cfg.ev[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	EXPECT_EQ(-EINVAL, ioca_sampler_set(&self->nl, &cfg, &self->r));
	EXPECT_STREQ("emulated DDIO events are uncore events only", self->r.msg);
}

TEST(emulated_rates_are_root_only)
{
	struct stat st;

	if (!emulated())
		SKIP(return, "msr backend: no debugfs files");
	ASSERT_EQ(0, stat(DBG "ddio_hit_rate", &st));
	EXPECT_EQ(0600, st.st_mode & 0777);
	EXPECT_EQ(0, st.st_uid);
}

TEST_HARNESS_MAIN
