// SPDX-License-Identifier: GPL-2.0
/*
 * Owner semantics: a socket that sets the DDIO masks or the
 * sampler with the owner flag owns them; other sockets' sampler changes are
 * refused with EBUSY naming the owner's pid; when the owner dies (SIGKILL),
 * the module puts the masks back and stops and unconfigures the sampler.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "client_ext.h"

/* Child: take ownership of socket 0's mask and of a running sampler. */
static void owner_child(int ready_fd, uint32_t mask)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};
	struct tnl_reply r;
	struct tnl nl;
	char ok = 1;

	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	if (tnl_open(&nl, IOCA_FAMILY_NAME) || iocx_ddio_set(&nl, 0, mask, true, &r) ||
	    iocx_sampler_set(&nl, &cfg, true, &r) ||
	    ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_START, &r)) {
		fprintf(stderr, "owner child: %s\n", r.msg);
		ok = 0;
	}
	if (write(ready_fd, &ok, 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

static pid_t start_owner(struct __test_metadata *_metadata, uint32_t mask)
{
	int fds[2];
	pid_t pid;
	char ok = 0;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid)
		owner_child(fds[1], mask);
	close(fds[1]);
	EXPECT_EQ(1, read(fds[0], &ok, 1));
	close(fds[0]);
	EXPECT_EQ(1, ok) TH_LOG("the owner child could not set up");
	return pid;
}

static void reset(struct tnl *nl)
{
	struct tnl_reply r;

	ioca_simple_cmd(nl, IOCA_CMD_SAMPLER_STOP, &r);
	ioca_ddio_restore(nl, &r);
}

TEST_F_TIMEOUT(ioca_nl, owner_killed_puts_masks_back_and_stops_the_sampler, 60)
{
	const struct ioca_socket_info *s0 = &self->before.sockets[0];
	uint32_t prev = libioca_top_ways(s0->llc_ways, 4), mask = libioca_top_ways(s0->llc_ways, 6);
	struct ioca_info after;
	struct ioca_info o;
	char want[64];
	pid_t pid;
	int i;

	reset(&self->nl);
	/* Arrange: a mask set by nobody in particular, then the owner's. */
	ASSERT_EQ(0, iocx_ddio_set(&self->nl, 0, prev, false, &self->r)) TH_LOG("%s", self->r.msg);
	pid = start_owner(_metadata, mask);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &o, &self->r));
	EXPECT_EQ((uint32_t)pid, o.sockets[0].owner_pid);
	EXPECT_EQ((uint32_t)pid, o.sampler.owner_pid);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(mask, after.sockets[0].ddio_mask);
	EXPECT_EQ(IOCA_SAMPLER_STATE_RUNNING, after.sampler.state);

	/* Others cannot stop or reconfigure an owned sampler. */
	snprintf(want, sizeof(want), "sampler is owned by pid %d", pid);
	EXPECT_EQ(-EBUSY, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r));
	EXPECT_STREQ(want, self->r.msg);
	EXPECT_EQ(-EBUSY, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	EXPECT_STREQ(want, self->r.msg);

	/* Act */
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, NULL, 0));

	/* Assert: the socket's release ran in the dying process's exit. */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
		if (after.sampler.state == IOCA_SAMPLER_STATE_UNCONFIGURED)
			break;
		usleep(20000);
	}
	EXPECT_EQ(IOCA_SAMPLER_STATE_UNCONFIGURED, after.sampler.state);
	EXPECT_EQ(prev, after.sockets[0].ddio_mask)
	TH_LOG("mask 0x%x, want 0x%x", after.sockets[0].ddio_mask, prev);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &o, &self->r));
	EXPECT_EQ(0, o.sockets[0].owner_pid);
	EXPECT_EQ(0, o.sampler.owner_pid);
	reset(&self->nl);
}

TEST_F(ioca_nl, owner_ends_when_another_socket_sets_the_mask)
{
	const struct ioca_socket_info *s0 = &self->before.sockets[0];
	uint32_t mask = libioca_top_ways(s0->llc_ways, 5),
		 other = libioca_top_ways(s0->llc_ways, 3);
	struct ioca_info after;
	struct ioca_info o;
	pid_t pid;

	reset(&self->nl);
	pid = start_owner(_metadata, mask);
	ASSERT_LT(0, pid);
	/* Another socket's DDIO set is allowed and takes the mask over. */
	ASSERT_EQ(0, iocx_ddio_set(&self->nl, 0, other, false, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &o, &self->r));
	EXPECT_EQ(0, o.sockets[0].owner_pid);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	usleep(100000);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(other, after.sockets[0].ddio_mask)
	TH_LOG("the dead owner's close undid someone else's mask");
	reset(&self->nl);
}

TEST_F(ioca_nl, sampler_set_without_owner_flag_is_unowned)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};
	struct ioca_info o;

	reset(&self->nl);
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	ASSERT_EQ(0, iocx_sampler_set(&self->nl, &cfg, false, &self->r));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &o, &self->r));
	EXPECT_EQ(0, o.sampler.owner_pid);
	EXPECT_EQ(0, o.sockets[0].owner_pid);
}

TEST_HARNESS_MAIN
