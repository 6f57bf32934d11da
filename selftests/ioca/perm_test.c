// SPDX-License-Identifier: GPL-2.0
/*
 * Without CAP_NET_ADMIN every control op and joining "samples" fail with
 * EPERM, while info-get (read-only) works. Each test drops to uid 1000 in
 * its own forked child (the harness forks per test), so nothing leaks.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "ioca_fixture.h"

#define UNPRIV_UID 1000

static bool has_cap_net_admin(void)
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	struct __user_cap_data_struct data[2] = {0};

	if (syscall(SYS_capget, &hdr, data))
		return true; /* be conservative: treat unknown as privileged */
	return data[0].effective & (1u << CAP_NET_ADMIN);
}

FIXTURE(ioca_unpriv)
{
	struct tnl nl;
	struct tnl_reply r;
	struct ioca_info before;
};

FIXTURE_SETUP(ioca_unpriv)
{
	ASSERT_EQ(0, geteuid()) TH_LOG("run as root; the test drops privileges itself");
	ASSERT_EQ(0, setgroups(0, NULL));
	ASSERT_EQ(0, setresgid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID));
	ASSERT_EQ(0, setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID));
	ASSERT_FALSE(has_cap_net_admin());
	ASSERT_EQ(0, tnl_open(&self->nl, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &self->before, &self->r))
	TH_LOG("info-get must stay open to everyone: %s", self->r.msg);
}

FIXTURE_TEARDOWN(ioca_unpriv)
{
	struct ioca_info after;
	struct tnl_reply r;

	/* Whatever was refused, nothing may have changed. */
	if (self->nl.sk && !ioca_info_get(&self->nl, &after, &r)) {
		EXPECT_EQ(self->before.sockets[0].ddio_mask, after.sockets[0].ddio_mask);
		EXPECT_EQ(self->before.sampler.state, after.sampler.state);
		EXPECT_EQ(self->before.sampler.interval_us, after.sampler.interval_us);
	}
	tnl_close(&self->nl);
}

TEST_F(ioca_unpriv, info_get_is_open_to_everyone)
{
	EXPECT_LE(1, self->before.nsockets);
	EXPECT_EQ(1, ioca_info_has(&self->nl, IOCA_A_INFO_BACKEND, &self->r));
}

TEST_F(ioca_unpriv, ddio_set_needs_cap_net_admin)
{
	uint32_t l = self->before.sockets[0].llc_ways;

	EXPECT_EQ(-EPERM, ioca_ddio_set(&self->nl, 0, libioca_top_ways(l, 3), -1, &self->r));
	EXPECT_EQ(-EPERM, ioca_ddio_set(&self->nl, 0, -1, 4, &self->r));
}

TEST_F(ioca_unpriv, ddio_restore_needs_cap_net_admin)
{
	EXPECT_EQ(-EPERM, ioca_ddio_restore(&self->nl, &self->r));
}

TEST_F(ioca_unpriv, sampler_set_needs_cap_net_admin)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};

	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	EXPECT_EQ(-EPERM, ioca_sampler_set(&self->nl, &cfg, &self->r));
}

TEST_F(ioca_unpriv, sampler_start_needs_cap_net_admin)
{
	EXPECT_EQ(-EPERM, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
}

TEST_F(ioca_unpriv, sampler_stop_needs_cap_net_admin)
{
	EXPECT_EQ(-EPERM, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r));
}

TEST_F(ioca_unpriv, sample_get_needs_cap_net_admin)
{
	struct ioca_sample *s = calloc(1, sizeof(*s));

	ASSERT_NE(NULL, s);
	EXPECT_EQ(-EPERM, ioca_sample_get(&self->nl, s, &self->r));
	free(s);
}

TEST_F(ioca_unpriv, joining_samples_needs_cap_net_admin)
{
	struct tnl sub;

	ASSERT_EQ(0, tnl_open(&sub, NULL));
	EXPECT_EQ(-EPERM, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	tnl_close(&sub);
}

TEST_HARNESS_MAIN
