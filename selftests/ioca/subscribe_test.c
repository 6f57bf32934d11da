// SPDX-License-Identifier: GPL-2.0
/*
 * Samples by subscription (IOCA_CMD_SAMPLES_SUBSCRIBE), through libioca's
 * public API as iocad and iocactl use it:
 * - a subscriber that stops reading loses only its own samples: another
 *   one gets every sample whole meanwhile, the module counts the paused
 *   one's drops (and only its), and the paused one is told of the gap when
 *   it reads again;
 * - a reader holding CAP_PERFMON and nothing else subscribes and gets
 *   samples;
 * - one sampler, one stream, every package: CPUs of each socket, each
 *   socket's uncore DDIO counters and each socket's DDIO mask as set.
 * Uses the emulated backend (emulate=1, in IOCA_KO_PARAMS).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>

#include "kselftest_harness.h"
#include "libioca.h"
#include "kmod_load.h"
#include "knobs.h"

static void quiet(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Every online CPU, three per-CPU events, both emulated DDIO counters. */
static int start_sampler(struct ioca_client *c, uint32_t interval_us)
{
	static const struct ioca_event ev[] = {
		{.kind = IOCA_EVENT_KIND_CPU_CLOCK},
		{.kind = IOCA_EVENT_KIND_TASK_CLOCK},
		{.kind = IOCA_EVENT_KIND_INSTRUCTIONS},
	};
	static const struct ioca_event unc[] = {
		{.kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED},
		{.kind = IOCA_EVENT_KIND_DDIO_MISS_EMULATED},
	};
	struct ioca_sampler_config cfg = {
		.interval_us = interval_us,
		.events = ev,
		.nevents = 3,
		.uncore = unc,
		.nuncore = 2,
	};
	int err = ioca_client__sampler_set(c, &cfg, NULL);

	return err ? err : ioca_client__sampler_start(c);
}

static const struct ioca_subscriber_info *find_sub(const struct ioca_info *info, uint32_t portid)
{
	uint32_t i;

	for (i = 0; i < info->sampler.nsubscribers; i++)
		if (info->sampler.subscribers[i].portid == portid)
			return &info->sampler.subscribers[i];
	return NULL;
}

TEST(paused_reader_loses_only_its_own_samples)
{
	IOCA_OPTS(ioca_client_opts, co, .print = quiet);
	/* A small buffer: the paused reader fills it within a few samples. */
	IOCA_OPTS(ioca_subscription_opts, po, .print = quiet, .rcvbuf = 4096);
	IOCA_OPTS(ioca_subscription_opts, ao, .print = quiet);
	struct ioca_subscription *paused, *active;
	struct ioca_subscription_stats st;
	const struct ioca_subscriber_info *ps, *as;
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_info *info = calloc(1, sizeof(*info));
	uint64_t got = 0, lost = 0, end, first_seq = 0, last_seq = 0;
	uint32_t max_parts = 0;
	struct ioca_client *c;
	int r;

	ASSERT_NE(NULL, s);
	ASSERT_NE(NULL, info);
	/* Parts: a sample a paused reader's buffer can cut in the middle. */
	ASSERT_EQ(0, kmod_reload("part_budget=512"));
	c = ioca_client__open(&co);
	ASSERT_NE(NULL, c);
	paused = ioca_subscription__open(&po);
	ASSERT_NE(NULL, paused) TH_LOG("subscribe: %s", strerror(errno));
	active = ioca_subscription__open(&ao);
	ASSERT_NE(NULL, active) TH_LOG("subscribe: %s", strerror(errno));
	ASSERT_EQ(0, start_sampler(c, 20000)) TH_LOG("%s", ioca_client__last_extack(c));

	/* Act: two seconds in which only one reader reads. */
	end = now_ms() + 2000;
	while (now_ms() < end) {
		r = ioca_subscription__recv(active, s, 500);
		ASSERT_LE(0, r);
		if (!r)
			continue;
		if (!got)
			first_seq = s->seq;
		else
			lost += s->lost;
		last_seq = s->seq;
		max_parts = s->parts > max_parts ? s->parts : max_parts;
		got++;
	}

	/* Assert: the active reader got every sample, whole. */
	ASSERT_LE(20, got) TH_LOG("only %llu samples in 2 s", (unsigned long long)got);
	EXPECT_LE(2, max_parts) TH_LOG("samples were not split: the test proves less");
	EXPECT_EQ(0, lost);
	EXPECT_EQ(got, last_seq - first_seq + 1);
	ioca_subscription__stats(active, &st);
	EXPECT_EQ(0, st.incomplete);
	EXPECT_EQ(0, st.overruns);
	/* The module counted drops for the paused reader only. */
	ASSERT_EQ(0, ioca_client__info(c, info));
	ps = find_sub(info, ioca_subscription__portid(paused));
	as = find_sub(info, ioca_subscription__portid(active));
	ASSERT_NE(NULL, ps);
	ASSERT_NE(NULL, as);
	EXPECT_LT(0, ps->dropped);
	EXPECT_EQ(0, as->dropped);
	EXPECT_LE(got, as->samples);
	EXPECT_EQ(getpid(), (pid_t)ps->pid);

	/* The paused reader resumes: it is told what it missed. */
	lost = 0;
	end = now_ms() + 3000;
	while (now_ms() < end && !lost) {
		r = ioca_subscription__recv(paused, s, 500);
		ASSERT_LE(0, r);
		if (r)
			lost += s->lost;
	}
	ioca_subscription__stats(paused, &st);
	EXPECT_LT(0, lost)
	TH_LOG("no gap reported after %llu dropped samples", (unsigned long long)ps->dropped);
	EXPECT_LT(0, st.overruns);

	EXPECT_EQ(0, ioca_client__sampler_stop(c));
	ioca_subscription__close(paused);
	ioca_subscription__close(active);
	/* A closed subscriber is gone from info. */
	ASSERT_EQ(0, ioca_client__info(c, info));
	EXPECT_EQ(0, info->sampler.nsubscribers);
	ioca_client__close(c);
	EXPECT_EQ(0, kmod_reload(""));
	free(info);
	free(s);
}

/* In the child: 0 when a CAP_PERFMON-only subscription got a sample. */
static int perfmon_reader(void)
{
	IOCA_OPTS(ioca_subscription_opts, so, .print = quiet);
	struct ioca_subscription *sub;
	struct ioca_sample *s;
	int r = -1, i;

	if (knob_keep_caps(1ull << CAP_PERFMON))
		return 10;
	sub = ioca_subscription__open(&so);
	if (!sub)
		return 11;
	s = calloc(1, sizeof(*s));
	for (i = 0; s && i < 10 && r <= 0; i++)
		r = ioca_subscription__recv(sub, s, 500);
	ioca_subscription__close(sub);
	free(s);
	return r == 1 ? 0 : 12;
}

TEST(perfmon_only_reader_gets_samples)
{
	IOCA_OPTS(ioca_client_opts, co, .print = quiet);
	struct ioca_client *c = ioca_client__open(&co);
	int status = -1;
	pid_t pid;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, start_sampler(c, 50000)) TH_LOG("%s", ioca_client__last_extack(c));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(perfmon_reader());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status))
	TH_LOG("child: 10 capset, 11 subscribe refused, 12 no sample");
	EXPECT_EQ(0, ioca_client__sampler_stop(c));
	ioca_client__close(c);
}

/*
 * One owner, one sampler, every package: the stream carries CPUs of each
 * socket, each socket's DDIO counters, and each socket's DDIO mask as set
 * (distinct per socket), so no reader asks for the masks per interval.
 */
TEST(one_stream_carries_every_socket_and_its_ddio_mask)
{
	IOCA_OPTS(ioca_client_opts, co, .print = quiet);
	IOCA_OPTS(ioca_ddio_opts, own, .owner = true);
	IOCA_OPTS(ioca_subscription_opts, so, .print = quiet);
	struct ioca_info *info = calloc(1, sizeof(*info));
	struct ioca_sample *s = calloc(1, sizeof(*s));
	struct ioca_ddio_req reqs[IOCA_MAX_SOCKETS];
	uint32_t want[IOCA_MAX_SOCKETS] = {0}, before[IOCA_MAX_SOCKETS] = {0};
	uint32_t cpu_sockets = 0, i;
	struct ioca_subscription *sub;
	struct ioca_client *c;
	int r = 0, tries;

	ASSERT_NE(NULL, info);
	ASSERT_NE(NULL, s);
	c = ioca_client__open(&co);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ioca_client__info(c, info));
	for (i = 0; i < info->nsockets; i++) {
		before[i] = info->sockets[i].ddio_mask;
		reqs[i].socket = info->sockets[i].id;
		reqs[i].mask = 0;
		/* 2, 3, ... ways: a different mask on every socket. */
		reqs[i].ways = 2 + i % (info->sockets[i].llc_ways - 1);
		want[info->sockets[i].id] =
			libioca_top_ways(info->sockets[i].llc_ways, reqs[i].ways);
	}
	ASSERT_EQ(0, ioca_client__ddio_set(c, reqs, info->nsockets, &own))
	TH_LOG("%s", ioca_client__last_extack(c));
	sub = ioca_subscription__open(&so);
	ASSERT_NE(NULL, sub);
	ASSERT_EQ(0, start_sampler(c, 50000)) TH_LOG("%s", ioca_client__last_extack(c));
	for (tries = 0; tries < 10 && r <= 0; tries++)
		r = ioca_subscription__recv(sub, s, 500);
	ASSERT_EQ(1, r);

	ASSERT_EQ(info->nsockets, s->nsockets);
	for (i = 0; i < s->nsockets; i++) {
		const struct ioca_socket_sample *ss = &s->sockets[i];

		ASSERT_GT(IOCA_MAX_SOCKETS, ss->id);
		EXPECT_EQ(want[ss->id], ss->ddio_mask) TH_LOG("socket %u", ss->id);
		EXPECT_EQ(2, ss->ncounters) TH_LOG("socket %u: DDIO hit and miss", ss->id);
	}
	for (i = 0; i < s->ncpus; i++)
		cpu_sockets |= 1u << s->cpus[i].socket;
	/* Every package with an online CPU has CPUs in the stream. */
	for (i = 0; i < info->nsockets; i++)
		if (info->sockets[i].cpu_count)
			EXPECT_TRUE(cpu_sockets & (1u << info->sockets[i].id))
	TH_LOG("no CPU of socket %u in the sample", info->sockets[i].id);

	EXPECT_EQ(0, ioca_client__sampler_stop(c));
	ioca_subscription__close(sub);
	/* The owner's close puts every socket's mask back. */
	ioca_client__close(c);
	c = ioca_client__open(&co);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ioca_client__info(c, info));
	for (i = 0; i < info->nsockets; i++)
		EXPECT_EQ(before[i], info->sockets[i].ddio_mask);
	ioca_client__close(c);
	free(info);
	free(s);
}

TEST_HARNESS_MAIN
