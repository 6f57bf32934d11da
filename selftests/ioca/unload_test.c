// SPDX-License-Identifier: GPL-2.0
/*
 * rmmod while the sampler runs and a subscriber listens, then insmod again:
 * no splat, the family disappears and comes back, the stream stops, and the
 * reloaded module starts from the boot-time DDIO mask with no sampler.
 */
#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>

#include "ioca_fixture.h"
#include "kmod_load.h"
#include "kmsg.h"

TEST_F_TIMEOUT(ioca_nl, unload_while_sampling_with_a_subscriber_then_reload, 120)
{
	const struct ioca_socket_info *s0 = &self->before.sockets[0];
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 2};
	struct ioca_sample *smp = calloc(1, sizeof(*smp));
	size_t mark = kmsg_mark();
	struct ioca_info after;
	struct tnl sub, again;
	char splat[256];
	uint32_t i;

	ASSERT_NE(NULL, smp);
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	cfg.ev[1].kind = IOCA_EVENT_KIND_INSTRUCTIONS;
	ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r);
	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, -1, s0->llc_ways - 1, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_NE(s0->boot_mask, libioca_top_ways(s0->llc_ways, s0->llc_ways - 1))
	TH_LOG("pick a mask that differs from the boot mask");
	ASSERT_EQ(0, ioca_sampler_set(&self->nl, &cfg, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	ASSERT_EQ(0, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	ASSERT_EQ(0, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	ASSERT_EQ(1, tnl_recv_one(&sub, 3000, ioca_parse_sample, smp));

	/* Act: unload with the timer armed and the subscriber joined. */
	ASSERT_EQ(0, kmod_unload("ioca", 5000));
	EXPECT_FALSE(kmod_loaded("ioca"));
	EXPECT_GT(0, genl_ctrl_resolve(self->nl.sk, IOCA_FAMILY_NAME));
	tnl_drain(&sub);
	EXPECT_EQ(0, tnl_recv_one(&sub, 200, ioca_parse_sample, smp))
	TH_LOG("a sample arrived after the module was unloaded");
	/* Restoring the boot masks on unload must not have failed. */
	EXPECT_EQ(0, kmsg_contains(mark, "could not restore"));
	/* The old request socket must get an error, not hang, for the gone family. */
	EXPECT_GT(0, ioca_info_get(&self->nl, &after, &self->r));

	ASSERT_EQ(0, kmod_load(kmod_path(), kmod_default_params()))
	TH_LOG("reload %s %s", kmod_path(), kmod_default_params());
	ASSERT_EQ(0, tnl_open(&again, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_info_get(&again, &after, &self->r));
	ASSERT_EQ(self->before.nsockets, after.nsockets);
	for (i = 0; i < after.nsockets; i++) {
		EXPECT_EQ(self->before.sockets[i].boot_mask, after.sockets[i].boot_mask);
		EXPECT_EQ(after.sockets[i].boot_mask, after.sockets[i].ddio_mask)
		TH_LOG("socket %u did not come back at its boot mask", i);
	}
	EXPECT_EQ(IOCA_SAMPLER_STATE_UNCONFIGURED, after.sampler.state);
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
	tnl_close(&again);
	tnl_close(&sub);
	free(smp);
}

TEST_HARNESS_MAIN
