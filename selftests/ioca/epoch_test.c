// SPDX-License-Identifier: GPL-2.0
/*
 * Old from new, through libioca's public API as iocad uses it:
 * - every sampler set and start bumps the run epoch; info, on-demand and
 *   periodic samples carry the run's;
 * - every DDIO write bumps the socket's DDIO epoch; the set returns the
 *   epoch its write produced and samples carry the epoch of the mask they
 *   report; a set rolled back part-way moves no epoch;
 * - debugfs ioca/sampler_fail_starts (emulate=1) fails the next N starts
 *   with EBUSY and its extack, leaves the sampler configured and the epoch
 *   where it was; the start after them succeeds.
 * Uses the emulated backend (emulate=1, in IOCA_KO_PARAMS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knobs.h"
#include "libioca.h"

#define FAIL_KNOB "/sys/kernel/debug/ioca/sampler_fail_starts"
#define LOCK_KNOB1 "/sys/kernel/debug/ioca/socket1/ddio_register"

static void quiet(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

static int write_knob(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, v, strlen(v)) != (ssize_t)strlen(v))
		err = -errno;
	close(fd);
	return err;
}

static int set_sampler(struct ioca_client *c)
{
	static const struct ioca_event ev[] = {{.kind = IOCA_EVENT_KIND_CPU_CLOCK}};
	struct ioca_sampler_config cfg = {.interval_us = 20000, .events = ev, .nevents = 1};

	return ioca_client__sampler_set(c, &cfg, NULL);
}

FIXTURE(epoch)
{
	struct ioca_client *c;
	struct ioca_info *info;
	struct ioca_sample *s;
};

FIXTURE_SETUP(epoch)
{
	IOCA_OPTS(ioca_client_opts, co, .print = quiet);

	self->info = calloc(1, sizeof(*self->info));
	self->s = calloc(1, sizeof(*self->s));
	ASSERT_NE(NULL, self->info);
	ASSERT_NE(NULL, self->s);
	self->c = ioca_client__open(&co);
	ASSERT_NE(NULL, self->c) TH_LOG("ioca.ko not loaded? %s", strerror(errno));
	ioca_client__sampler_stop(self->c);
	ASSERT_EQ(0, set_sampler(self->c)) TH_LOG("%s", ioca_client__last_extack(self->c));
}

FIXTURE_TEARDOWN(epoch)
{
	write_knob(FAIL_KNOB, "0");
	ioca_client__sampler_stop(self->c);
	ioca_client__ddio_restore(self->c);
	ioca_client__close(self->c);
	free(self->info);
	free(self->s);
}

static uint32_t run_epoch(struct __test_metadata *_metadata, struct ioca_client *c,
			  struct ioca_info *info)
{
	EXPECT_EQ(0, ioca_client__info(c, info));
	return info->sampler_epoch;
}

TEST_F(epoch, sampler_set_and_start_each_advance_the_run_epoch)
{
	uint32_t set, started, reset, restarted;

	set = run_epoch(_metadata, self->c, self->info);
	ASSERT_LE(1, set) TH_LOG("a module without IOCA_A_SAMPLER_EPOCH");

	ASSERT_EQ(0, ioca_client__sampler_start(self->c));
	started = run_epoch(_metadata, self->c, self->info);
	ASSERT_EQ(0, ioca_client__sample(self->c, self->s));
	EXPECT_EQ(started, self->s->epoch);
	ASSERT_EQ(0, ioca_client__sampler_stop(self->c));
	ASSERT_EQ(0, set_sampler(self->c));
	reset = run_epoch(_metadata, self->c, self->info);
	ASSERT_EQ(0, ioca_client__sampler_start(self->c));
	restarted = run_epoch(_metadata, self->c, self->info);
	ASSERT_EQ(0, ioca_client__sample(self->c, self->s));

	EXPECT_EQ(set + 1, started);
	EXPECT_EQ(started + 1, reset);
	EXPECT_EQ(reset + 1, restarted);
	EXPECT_EQ(restarted, self->s->epoch) TH_LOG("on-demand sample of the new run");
}

TEST_F(epoch, periodic_samples_carry_their_runs_epoch)
{
	IOCA_OPTS(ioca_subscription_opts, so, .print = quiet);
	struct ioca_subscription *sub = ioca_subscription__open(&so);
	uint32_t e;
	int r = 0, i;

	ASSERT_NE(NULL, sub) TH_LOG("subscribe: %s", strerror(errno));
	ASSERT_EQ(0, ioca_client__sampler_start(self->c));
	e = run_epoch(_metadata, self->c, self->info);
	ASSERT_LE(1, e) TH_LOG("a module without IOCA_A_SAMPLER_EPOCH");
	for (i = 0; i < 20 && r <= 0; i++)
		r = ioca_subscription__recv(sub, self->s, 500);
	ASSERT_EQ(1, r);
	EXPECT_EQ(e, self->s->epoch);
	ioca_subscription__close(sub);
}

TEST_F(epoch, ddio_set_returns_its_epoch_and_samples_carry_it)
{
	const struct ioca_socket_info *s0;
	uint32_t before, got[1] = {0}, again[1] = {0}, mask;
	struct ioca_ddio_req req = {.socket = 0};
	IOCA_OPTS(ioca_ddio_opts, o, .epochs = got);

	ASSERT_EQ(0, ioca_client__sampler_start(self->c));
	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	s0 = &self->info->sockets[0];
	before = self->info->ddio_epoch[0];
	ASSERT_LE(1, before) TH_LOG("a module without IOCA_A_SOCKET_DDIO_EPOCH");
	mask = libioca_top_ways(s0->llc_ways, 3);
	req.mask = mask == s0->ddio_mask ? libioca_top_ways(s0->llc_ways, 4) : mask;

	ASSERT_EQ(0, ioca_client__ddio_set(self->c, &req, 1, &o))
	TH_LOG("%s", ioca_client__last_extack(self->c));
	EXPECT_EQ(before + 1, got[0]);
	ASSERT_EQ(0, ioca_client__sample(self->c, self->s));
	ASSERT_LE(1, self->s->nsockets);
	EXPECT_EQ(req.mask, self->s->sockets[0].ddio_mask);
	EXPECT_EQ(got[0], self->s->sockets[0].ddio_epoch);
	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	EXPECT_EQ(got[0], self->info->ddio_epoch[0]);

	/* The same mask again is another write, with an epoch of its own. */
	o.epochs = again;
	ASSERT_EQ(0, ioca_client__ddio_set(self->c, &req, 1, &o));
	EXPECT_EQ(got[0] + 1, again[0]);
	ASSERT_EQ(0, ioca_client__sample(self->c, self->s));
	EXPECT_EQ(again[0], self->s->sockets[0].ddio_epoch);
}

TEST_F(epoch, a_refused_ddio_set_leaves_the_epoch)
{
	uint32_t before, got[1] = {77};
	struct ioca_ddio_req req = {.socket = 0, .mask = 0x5};
	IOCA_OPTS(ioca_ddio_opts, o, .epochs = got);

	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	before = self->info->ddio_epoch[0];
	EXPECT_EQ(-EINVAL, ioca_client__ddio_set(self->c, &req, 1, &o));
	EXPECT_EQ(77, got[0]) TH_LOG("epochs written on failure");
	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	EXPECT_EQ(before, self->info->ddio_epoch[0]);
}

/*
 * A set over two sockets whose second write does not stick (debugfs
 * ioca/socket1/ddio_register "locked"): socket 0 is written and put back.
 * Neither socket's epoch moves and the samples show the masks of before,
 * so a writer never reads its own rolled-back write as an outside change.
 * Needs two sockets (the "sockets" boot).
 */
TEST_F(epoch, a_set_rolled_back_part_way_leaves_every_epoch)
{
	uint32_t e0, e1, m0, m1, got[2] = {77, 77};
	struct ioca_ddio_req req[2] = {{.socket = 0}, {.socket = 1}};
	IOCA_OPTS(ioca_ddio_opts, o, .epochs = got);
	int r;

	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	if (self->info->nsockets < 2)
		SKIP(return, "one socket: nothing to roll back part-way");
	ASSERT_EQ(0, ioca_client__sampler_start(self->c));
	e0 = self->info->ddio_epoch[0];
	e1 = self->info->ddio_epoch[1];
	m0 = self->info->sockets[0].ddio_mask;
	m1 = self->info->sockets[1].ddio_mask;
	req[0].mask = libioca_top_ways(self->info->sockets[0].llc_ways, 3);
	if (req[0].mask == m0)
		req[0].mask = libioca_top_ways(self->info->sockets[0].llc_ways, 4);
	req[1].mask = libioca_top_ways(self->info->sockets[1].llc_ways, 3);
	if (req[1].mask == m1)
		req[1].mask = libioca_top_ways(self->info->sockets[1].llc_ways, 4);
	ASSERT_EQ(0, write_knob(LOCK_KNOB1, "locked"));

	r = ioca_client__ddio_set(self->c, req, 2, &o);
	write_knob(LOCK_KNOB1, "normal");
	EXPECT_EQ(-EIO, r) TH_LOG("%s", ioca_client__last_extack(self->c));
	EXPECT_EQ(77, got[0]) TH_LOG("epochs written on failure");
	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	EXPECT_EQ(m0, self->info->sockets[0].ddio_mask);
	EXPECT_EQ(e0, self->info->ddio_epoch[0])
	TH_LOG("socket 0's epoch moved for a write put back");
	EXPECT_EQ(e1, self->info->ddio_epoch[1]);
	ASSERT_EQ(0, ioca_client__sample(self->c, self->s));
	ASSERT_LE(2, self->s->nsockets);
	for (uint32_t i = 0; i < self->s->nsockets; i++) {
		const struct ioca_socket_sample *ss = &self->s->sockets[i];

		EXPECT_EQ(ss->id ? m1 : m0, ss->ddio_mask);
		EXPECT_EQ(ss->id ? e1 : e0, ss->ddio_epoch);
	}
}

TEST_F(epoch, fail_knob_fails_the_next_starts_then_lets_one_through)
{
	uint32_t before, after;

	before = run_epoch(_metadata, self->c, self->info);
	ASSERT_EQ(0, write_knob(FAIL_KNOB, "2")) TH_LOG("%s: %s", FAIL_KNOB, strerror(errno));

	EXPECT_EQ(-EBUSY, ioca_client__sampler_start(self->c));
	EXPECT_STREQ("per-CPU event could not be created (failure injected: debugfs "
		     "ioca/sampler_fail_starts)",
		     ioca_client__last_extack(self->c));
	EXPECT_EQ(-EBUSY, ioca_client__sampler_start(self->c));
	ASSERT_EQ(0, ioca_client__info(self->c, self->info));
	EXPECT_EQ(IOCA_SAMPLER_STATE_CONFIGURED, self->info->sampler.state);
	EXPECT_EQ(before, self->info->sampler_epoch);

	ASSERT_EQ(0, ioca_client__sampler_start(self->c))
	TH_LOG("%s", ioca_client__last_extack(self->c));
	after = run_epoch(_metadata, self->c, self->info);
	EXPECT_EQ(IOCA_SAMPLER_STATE_RUNNING, self->info->sampler.state);
	EXPECT_EQ(before + 1, after);
}

/*
 * A count the knob cannot hold is refused and changes nothing: "-1" used
 * to be stored (and read back) as a count that never fails a start, and
 * 2^32 + 1 as 1.
 */
TEST_F(epoch, fail_knob_refuses_counts_it_cannot_hold)
{
	static const char *const bad[] = {"-1", "4294967297", "2147483648", "two"};
	unsigned int i;
	int v = -1;

	ASSERT_EQ(0, write_knob(FAIL_KNOB, "3"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(-EINVAL, write_knob(FAIL_KNOB, bad[i])) TH_LOG("wrote %s", bad[i]);
		ASSERT_EQ(0, knob_read_int(FAIL_KNOB, &v));
		EXPECT_EQ(3, v) TH_LOG("after %s", bad[i]);
	}
	ASSERT_EQ(0, write_knob(FAIL_KNOB, "2147483647"));
	ASSERT_EQ(0, knob_read_int(FAIL_KNOB, &v));
	EXPECT_EQ(2147483647, v);
}

TEST_HARNESS_MAIN
