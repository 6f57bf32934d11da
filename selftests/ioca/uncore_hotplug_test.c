// SPDX-License-Identifier: GPL-2.0
/*
 * Uncore events and CPU hotplug on a guest with two packages of one CPU
 * each (run.sh --smp 2 --sockets 2), emulate=1: while socket 1's only CPU
 * is offline the socket is still in the sample but without counters (its
 * events cannot count: perf drops an uncore event whose socket has no CPU
 * left), socket 0 counts on; when the CPU returns socket 1's counter is
 * back, has not gone backwards, and keeps counting.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"
#include "client_ext.h"
#include "kmsg.h"

#define HOTCPU 1
#define HOTSOCK 1
#define RATE 100000ULL

/* Index of socket @id in @s, -1 when the sample leaves it out. */
static int sock_index(const struct iocx_sample *s, uint32_t id)
{
	int i;

	for (i = 0; i < (int)s->s.nsockets; i++)
		if (s->s.sockets[i].id == id)
			return i;
	return -1;
}

TEST_F_TIMEOUT(ioca_nl, offline_socket_has_no_counters_and_resumes_counting, 120)
{
	struct iocx_sample *a = calloc(4, sizeof(*a)), *b = a + 1, *c = a + 2, *d = a + 3;
	struct ioca_sampler_cfg cfg = {.interval_us = 1000000, .nuncore = 1};
	size_t mark = kmsg_mark();
	char splat[256];
	int i;

	ASSERT_NE(NULL, a);
	ASSERT_EQ(2, self->before.nsockets) TH_LOG("the guest needs two packages");
	cfg.unc[0].kind = IOCA_EVENT_KIND_DDIO_HIT_EMULATED;
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(0, knob_socket_rate(0, "ddio_hit_rate", RATE));
	ASSERT_EQ(0, knob_socket_rate(HOTSOCK, "ddio_hit_rate", RATE));
	usleep(100000);
	ASSERT_EQ(0, iocx_sample_get(&self->nl, a, &self->r)) TH_LOG("%s", self->r.msg);
	i = sock_index(a, HOTSOCK);
	ASSERT_LE(0, i);
	ASSERT_EQ(1, a->s.sockets[i].ncounters);
	ASSERT_LT(0, iocx_counter(&a->s.sockets[i], 0));

	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	ASSERT_EQ(0, iocx_sample_get(&self->nl, b, &self->r)) TH_LOG("%s", self->r.msg);
	i = sock_index(b, HOTSOCK);
	ASSERT_LE(0, i) TH_LOG("an offline socket stays in the sample");
	EXPECT_EQ(0, b->s.sockets[i].ncounters)
	TH_LOG("a socket with no CPU online reports counters");
	i = sock_index(b, 0);
	ASSERT_LE(0, i);
	EXPECT_EQ(1, b->s.sockets[i].ncounters) TH_LOG("socket 0 must keep counting");

	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	ASSERT_EQ(0, iocx_sample_get(&self->nl, c, &self->r)) TH_LOG("%s", self->r.msg);
	usleep(200000);
	ASSERT_EQ(0, iocx_sample_get(&self->nl, d, &self->r)) TH_LOG("%s", self->r.msg);
	knob_socket_rate(0, "ddio_hit_rate", 0);
	knob_socket_rate(HOTSOCK, "ddio_hit_rate", 0);
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);

	i = sock_index(c, HOTSOCK);
	ASSERT_LE(0, i);
	ASSERT_EQ(1, c->s.sockets[i].ncounters) TH_LOG("counters not back with the socket's CPU");
	EXPECT_LE(iocx_counter(&a->s.sockets[sock_index(a, HOTSOCK)], 0),
		  iocx_counter(&c->s.sockets[i], 0))
	TH_LOG("the socket's counter went backwards across offline");
	ASSERT_EQ(1, d->s.sockets[sock_index(d, HOTSOCK)].ncounters);
	EXPECT_LT(iocx_counter(&c->s.sockets[i], 0),
		  iocx_counter(&d->s.sockets[sock_index(d, HOTSOCK)], 0))
	TH_LOG("the socket's counter does not count after the CPU returned");
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
	free(a);
}

TEST_HARNESS_MAIN
