// SPDX-License-Identifier: GPL-2.0
/*
 * Two processes configure the module at once, each on its own socket. The
 * module serialises them: every request either succeeds or fails with a
 * documented errno, the final state is one of the two writers' values, and
 * the kernel log stays clean.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "kmsg.h"

#define ROUNDS 150

/* Child body: returns the number of unexpected results (exit status). */
static int hammer(int id, uint32_t llc_ways)
{
	uint32_t mask = libioca_top_ways(llc_ways, id ? 3 : 5);
	struct ioca_sampler_cfg cfg = {.interval_us = id ? 2000 : 5000, .nevents = 1};
	struct tnl_reply r;
	struct tnl nl;
	int i, err, bad = 0;

	cfg.ev[0].kind = id ? IOCA_EVENT_KIND_CPU_CLOCK : IOCA_EVENT_KIND_TASK_CLOCK;
	if (tnl_open(&nl, IOCA_FAMILY_NAME))
		return 100;
	for (i = 0; i < ROUNDS; i++) {
		if (ioca_ddio_set(&nl, 0, mask, -1, &r))
			bad++;
		/* The other process may have started the sampler: EBUSY is the contract. */
		err = ioca_sampler_set(&nl, &cfg, &r);
		if (err && err != -EBUSY)
			bad++;
		err = ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_START, &r);
		if (err && err != -EBUSY && err != -EALREADY)
			bad++;
		err = ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_STOP, &r);
		if (err && err != -EALREADY && err != -EINVAL)
			bad++;
	}
	tnl_close(&nl);
	return bad > 99 ? 99 : bad;
}

TEST_F_TIMEOUT(ioca_nl, two_processes_configuring_at_once_stay_consistent, 300)
{
	uint32_t l = self->before.sockets[0].llc_ways;
	size_t mark = kmsg_mark();
	struct ioca_info after;
	char splat[256];
	pid_t pid[2];
	int i, status;

	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (pid[i] == 0)
			_exit(hammer(i, l));
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("writer %d saw unexpected errors", i);
	}
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_TRUE(after.sockets[0].ddio_mask == libioca_top_ways(l, 5) ||
		    after.sockets[0].ddio_mask == libioca_top_ways(l, 3))
	TH_LOG("final mask 0x%x is neither writer's", after.sockets[0].ddio_mask);
	EXPECT_EQ(IOCA_SAMPLER_STATE_CONFIGURED, after.sampler.state);
	EXPECT_TRUE(after.sampler.interval_us == 2000 || after.sampler.interval_us == 5000);
	ASSERT_EQ(1, after.sampler.nevents);
	/* Config is applied whole: interval and event come from the same writer. */
	EXPECT_EQ(after.sampler.interval_us == 2000 ? IOCA_EVENT_KIND_CPU_CLOCK
						    : IOCA_EVENT_KIND_TASK_CLOCK,
		  after.sampler.events[0].kind);
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
	ioca_ddio_restore(&self->nl, &self->r);
}

TEST_HARNESS_MAIN
