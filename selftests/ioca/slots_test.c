// SPDX-License-Identifier: GPL-2.0
/*
 * The subscriber table cannot be crowded out: other processes' sockets
 * take at most IOCA_MAX_SUBSCRIBERS - 1 slots, IOCA_MAX_SUBSCRIBERS_PER_PROCESS
 * each, and the last slot goes to the process owning the sampler; every
 * refusal is ENOSPC with an extack naming the limit. 17 subscriptions in
 * all: 15 of other processes, one refused, the owner's, one beyond.
 * Closing the sockets frees their slots. Threads of several processes
 * subscribing and closing at once, while samples go out every
 * millisecond, leave no slot behind; a socket shared with a child keeps
 * its one slot until its last holder closes it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "client_ext.h"

#define PER_PROC IOCA_MAX_SUBSCRIBERS_PER_PROCESS
#define OTHERS (IOCA_MAX_SUBSCRIBERS - 1)
#define NCHILD ((OTHERS + PER_PROC - 1) / PER_PROC)

/* What a child reports of its last subscribe: errno and extack. */
struct verdict {
	int err;
	char msg[256];
};

/*
 * Child: subscribes @n sockets, then @extra more, reports the last
 * attempt's verdict and holds its sockets until the parent kills it.
 */
static void child(int fd, int n, int extra)
{
	struct tnl nl[PER_PROC + 1];
	struct verdict v = {0};
	struct tnl_reply r;
	int i;

	for (i = 0; i < n + extra; i++) {
		if (tnl_open(&nl[i], IOCA_FAMILY_NAME)) {
			v.err = -ENOENT;
			break;
		}
		v.err = ioca_simple_cmd(&nl[i], IOCA_CMD_SAMPLES_SUBSCRIBE, &r);
		snprintf(v.msg, sizeof(v.msg), "%s", r.msg);
		if (v.err)
			break;
	}
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		_exit(1);
	pause();
	_exit(0);
}

static pid_t spawn(struct __test_metadata *_metadata, int n, int extra, struct verdict *v)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (!pid)
		child(fds[1], n, extra);
	close(fds[1]);
	EXPECT_EQ((ssize_t)sizeof(*v), read(fds[0], v, sizeof(*v)));
	close(fds[0]);
	return pid;
}

static uint32_t subscribers(struct tnl *nl)
{
	struct ioca_info info;
	struct tnl_reply r;

	if (ioca_info_get(nl, &info, &r))
		return UINT32_MAX;
	return info.sampler.nsubscribers;
}

TEST_F_TIMEOUT(ioca_nl, others_fill_the_table_and_the_owner_still_subscribes, 60)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 100000, .nevents = 1};
	pid_t kids[NCHILD + 1];
	struct tnl mine[2];
	struct verdict v;
	int i, left = OTHERS, nkids = 0;

	ASSERT_EQ(0, subscribers(&self->nl)) TH_LOG("a subscriber left over");
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	/* This process owns the sampler: the kept slot is its. */
	ASSERT_EQ(0, iocx_sampler_set(&self->nl, &cfg, true, &self->r)) TH_LOG("%s", self->r.msg);

	/* One process asking for one more than its share. */
	kids[nkids++] = spawn(_metadata, PER_PROC, 1, &v);
	EXPECT_EQ(-ENOSPC, v.err);
	EXPECT_STREQ(
		"this process holds IOCA_MAX_SUBSCRIBERS_PER_PROCESS (4) subscriptions already",
		v.msg);
	left -= PER_PROC;
	while (left > 0) {
		int n = left < PER_PROC ? left : PER_PROC;

		kids[nkids++] = spawn(_metadata, n, 0, &v);
		EXPECT_EQ(0, v.err) TH_LOG("%s", v.msg);
		left -= n;
	}
	EXPECT_EQ(OTHERS, subscribers(&self->nl));

	/* A sixteenth of other processes: the last slot is kept. */
	kids[nkids++] = spawn(_metadata, 0, 1, &v);
	EXPECT_EQ(-ENOSPC, v.err);
	EXPECT_STREQ("subscriber table full: its last slot is kept for the sampler or DDIO owner's "
		     "process",
		     v.msg);

	/* The owner's subscription takes it; one more finds the table full. */
	ASSERT_EQ(0, tnl_open(&mine[0], IOCA_FAMILY_NAME));
	ASSERT_EQ(0, tnl_open(&mine[1], IOCA_FAMILY_NAME));
	EXPECT_EQ(0, ioca_simple_cmd(&mine[0], IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r))
	TH_LOG("the owner's subscription: %s", self->r.msg);
	EXPECT_EQ(-ENOSPC, ioca_simple_cmd(&mine[1], IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r));
	EXPECT_STREQ("subscriber table full: IOCA_MAX_SUBSCRIBERS (16) sockets subscribed",
		     self->r.msg);
	EXPECT_EQ(IOCA_MAX_SUBSCRIBERS, subscribers(&self->nl));

	/* Closing frees the slots (the owner notifier finds each). */
	for (i = 0; i < nkids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	EXPECT_EQ(1, subscribers(&self->nl));
	tnl_close(&mine[0]);
	tnl_close(&mine[1]);
	EXPECT_EQ(0, subscribers(&self->nl));
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
}

#define CHURN_PROCS 3
#define CHURN_THREADS 6
#define CHURN_ROUNDS 150

/* One thread: subscribe a fresh socket and close it, again and again. */
static void *churn(void *arg)
{
	int i, *bad = arg;
	struct tnl_reply r;
	struct tnl nl;

	for (i = 0; i < CHURN_ROUNDS; i++) {
		int err;

		if (tnl_open(&nl, IOCA_FAMILY_NAME)) {
			(*bad)++;
			continue;
		}
		err = ioca_simple_cmd(&nl, IOCA_CMD_SAMPLES_SUBSCRIBE, &r);
		/*
		 * Only the limits may refuse: 4 per process, 15 for others. A
		 * subscribed socket gets a sample every millisecond, which can
		 * reach it before the ack and overrun the reply buffer (-ENOMEM,
		 * -ENOBUFS, seen locally: tnl_do says -EIO): the subscription
		 * was made, the close must free it.
		 */
		if (err == -EIO)
			err = r.local_err;
		if (err && err != -ENOSPC && err != -ENOMEM && err != -ENOBUFS) {
			fprintf(stderr, "churn: subscribe: %s (%s)\n", strerror(-err), r.msg);
			(*bad)++;
		}
		tnl_close(&nl);
	}
	return NULL;
}

/* Child: CHURN_THREADS threads at once; exits with how many went wrong. */
static void churn_process(void)
{
	pthread_t t[CHURN_THREADS];
	int bad[CHURN_THREADS] = {0}, i, sum = 0;

	for (i = 0; i < CHURN_THREADS; i++)
		if (pthread_create(&t[i], NULL, churn, &bad[i]))
			_exit(100);
	for (i = 0; i < CHURN_THREADS; i++) {
		pthread_join(t[i], NULL);
		sum += bad[i];
	}
	_exit(sum > 99 ? 99 : sum);
}

TEST_F_TIMEOUT(ioca_nl, subscribe_and_close_races_leave_no_slot, 240)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 1000, .nevents = 1};
	pid_t kids[CHURN_PROCS];
	struct tnl mine;
	int i, st;

	ASSERT_EQ(0, subscribers(&self->nl)) TH_LOG("a subscriber left over");
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	ASSERT_EQ(0, iocx_sampler_set(&self->nl, &cfg, true, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	/* A reader that never reads: every sample also meets a full buffer. */
	ASSERT_EQ(0, tnl_open(&mine, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_simple_cmd(&mine, IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r));

	for (i = 0; i < CHURN_PROCS; i++) {
		kids[i] = fork();
		if (!kids[i])
			churn_process();
	}
	for (i = 0; i < CHURN_PROCS; i++) {
		ASSERT_EQ(kids[i], waitpid(kids[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st));
		EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("process %d: unexpected errors", i);
	}
	EXPECT_EQ(1, subscribers(&self->nl));
	tnl_close(&mine);
	EXPECT_EQ(0, subscribers(&self->nl));

	/* Shared with a child that exits: the socket keeps its one slot. */
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, tnl_open(&mine, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_simple_cmd(&mine, IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r));
	kids[0] = fork();
	if (!kids[0]) {
		struct tnl_reply r;

		/* Subscribing it again from another process changes nothing. */
		_exit(ioca_simple_cmd(&mine, IOCA_CMD_SAMPLES_SUBSCRIBE, &r) ? 1 : 0);
	}
	ASSERT_EQ(kids[0], waitpid(kids[0], &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	EXPECT_EQ(1, subscribers(&self->nl));
	tnl_close(&mine);
	EXPECT_EQ(0, subscribers(&self->nl));
}

TEST_HARNESS_MAIN
