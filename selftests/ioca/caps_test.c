// SPDX-License-Identifier: GPL-2.0
/*
 * Least privilege, as root with a reduced capability set: CAP_NET_ADMIN
 * alone changes nothing; DDIO needs CAP_SYS_RAWIO, the sampler and
 * sample-get CAP_PERFMON (or CAP_SYS_ADMIN); subscribing to the samples
 * (samples-subscribe) CAP_PERFMON alone, while joining the legacy
 * "samples" group needs CAP_NET_ADMIN and CAP_SYS_ADMIN (6.1's genetlink
 * has no CAP_PERFMON group flag). Root in a user namespace changes
 * nothing. The module carries no alias that would let udev or a family
 * lookup load it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>

#include "ioca_fixture.h"
#include "kmod_load.h"
#include "knobs.h"

#define CAP(c) (1ull << (c))

FIXTURE(ioca_caps)
{
	struct tnl nl;
	struct tnl_reply r;
	struct ioca_info before;
};

FIXTURE_VARIANT(ioca_caps)
{
	uint64_t caps;
	bool rawio, perfmon, join, subscribe;
};

FIXTURE_VARIANT_ADD(ioca_caps, perfmon_only){
	.caps = CAP(CAP_PERFMON),
	.subscribe = true,
};

FIXTURE_VARIANT_ADD(ioca_caps, net_admin_only){
	.caps = CAP(CAP_NET_ADMIN),
};

FIXTURE_VARIANT_ADD(ioca_caps, net_admin_and_sys_rawio){
	.caps = CAP(CAP_NET_ADMIN) | CAP(CAP_SYS_RAWIO),
	.rawio = true,
};

FIXTURE_VARIANT_ADD(ioca_caps, net_admin_and_perfmon){
	.caps = CAP(CAP_NET_ADMIN) | CAP(CAP_PERFMON),
	.perfmon = true,
	.subscribe = true,
};

FIXTURE_VARIANT_ADD(ioca_caps, net_admin_and_sys_admin){
	.caps = CAP(CAP_NET_ADMIN) | CAP(CAP_SYS_ADMIN),
	.perfmon = true,
	.join = true,
	.subscribe = true,
};

FIXTURE_SETUP(ioca_caps)
{
	struct tnl root;

	ASSERT_EQ(0, geteuid()) TH_LOG("run as root; the test drops capabilities itself");
	/* A known state first, with every capability. */
	ASSERT_EQ(0, tnl_open(&root, IOCA_FAMILY_NAME));
	ioca_simple_cmd(&root, IOCA_CMD_SAMPLER_STOP, &self->r);
	ioca_ddio_restore(&root, &self->r);
	tnl_close(&root);
	ASSERT_EQ(0, knob_keep_caps(variant->caps)) TH_LOG("capset: %s", strerror(errno));
	ASSERT_EQ(0, tnl_open(&self->nl, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &self->before, &self->r)) TH_LOG("%s", self->r.msg);
}

FIXTURE_TEARDOWN(ioca_caps)
{
	tnl_close(&self->nl);
}

TEST_F(ioca_caps, ddio_set_needs_cap_sys_rawio)
{
	const struct ioca_socket_info *s0 = &self->before.sockets[0];
	uint32_t mask = libioca_top_ways(s0->llc_ways, 3);
	struct ioca_info after;
	int err = ioca_ddio_set(&self->nl, 0, mask, -1, &self->r);

	if (!variant->rawio) {
		EXPECT_EQ(-EPERM, err);
		/* Without CAP_NET_ADMIN genetlink refuses before the handler. */
		if (variant->caps & CAP(CAP_NET_ADMIN))
			EXPECT_STREQ("DDIO changes write MSRs: CAP_SYS_RAWIO needed", self->r.msg);
	}
	if (variant->rawio && err == -EIO && !strcmp(self->before.backend_name, "msr")) {
		/* Allowed, written, read back: QEMU's TCG drops the MSR write. */
		EXPECT_NE(NULL, strstr(self->r.msg, "the write did not stick"));
		EXPECT_EQ(0, ioca_ddio_restore(&self->nl, &self->r));
		return;
	}
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	if (variant->rawio) {
		EXPECT_EQ(0, err);
		EXPECT_EQ(mask, after.sockets[0].ddio_mask);
		EXPECT_EQ(0, ioca_ddio_restore(&self->nl, &self->r));
		return;
	}
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
}

TEST_F(ioca_caps, ddio_restore_needs_cap_sys_rawio)
{
	EXPECT_EQ(variant->rawio ? 0 : -EPERM, ioca_ddio_restore(&self->nl, &self->r));
}

TEST_F(ioca_caps, sampler_ops_need_cap_perfmon)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};
	struct ioca_sample *s = calloc(1, sizeof(*s));
	int want = variant->perfmon ? 0 : -EPERM;
	struct ioca_info after;

	ASSERT_NE(NULL, s);
	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	EXPECT_EQ(want, ioca_sampler_set(&self->nl, &cfg, &self->r));
	if (want && (variant->caps & CAP(CAP_NET_ADMIN)))
		EXPECT_STREQ("system-wide counters: CAP_PERFMON or CAP_SYS_ADMIN needed",
			     self->r.msg);
	EXPECT_EQ(want, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_START, &self->r));
	EXPECT_EQ(want, ioca_sample_get(&self->nl, s, &self->r));
	EXPECT_EQ(want, ioca_simple_cmd(&self->nl, IOCA_CMD_SAMPLER_STOP, &self->r));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	if (want)
		EXPECT_EQ(self->before.sampler.state, after.sampler.state);
	free(s);
}

TEST_F(ioca_caps, joining_samples_needs_cap_sys_admin)
{
	struct tnl sub;

	ASSERT_EQ(0, tnl_open(&sub, NULL));
	EXPECT_EQ(variant->join ? 0 : -EPERM, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	tnl_close(&sub);
}

TEST_F(ioca_caps, subscribing_needs_cap_perfmon_only)
{
	struct tnl sub;
	int want = variant->subscribe ? 0 : -EPERM;

	ASSERT_EQ(0, tnl_open(&sub, IOCA_FAMILY_NAME));
	EXPECT_EQ(want, ioca_simple_cmd(&sub, IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r));
	if (want)
		EXPECT_STREQ("system-wide counters: CAP_PERFMON or CAP_SYS_ADMIN needed",
			     self->r.msg);
	/* Unsubscribing what was subscribed; nothing to undo otherwise. */
	EXPECT_EQ(want ? -ENOENT : 0,
		  ioca_simple_cmd(&sub, IOCA_CMD_SAMPLES_UNSUBSCRIBE, &self->r));
	tnl_close(&sub);
}

/* unshare -Ur: root of a new user namespace, still in the initial netns. */
TEST_F(ioca_nl, user_namespace_root_changes_nothing)
{
	struct ioca_sampler_cfg cfg = {.interval_us = 10000, .nevents = 1};
	const struct ioca_socket_info *s0 = &self->before.sockets[0];
	struct ioca_info after;
	struct tnl nl, sub;

	cfg.ev[0].kind = IOCA_EVENT_KIND_CPU_CLOCK;
	ASSERT_EQ(0, unshare(CLONE_NEWUSER)) TH_LOG("unshare: %s", strerror(errno));
	ASSERT_EQ(0, tnl_open(&nl, IOCA_FAMILY_NAME));
	EXPECT_EQ(-EPERM, ioca_ddio_set(&nl, 0, libioca_top_ways(s0->llc_ways, 3), -1, &self->r));
	EXPECT_EQ(-EPERM, ioca_ddio_restore(&nl, &self->r));
	EXPECT_EQ(-EPERM, ioca_sampler_set(&nl, &cfg, &self->r));
	EXPECT_EQ(-EPERM, ioca_simple_cmd(&nl, IOCA_CMD_SAMPLER_STOP, &self->r));
	EXPECT_EQ(-EPERM, ioca_simple_cmd(&nl, IOCA_CMD_SAMPLES_SUBSCRIBE, &self->r));
	ASSERT_EQ(0, tnl_open(&sub, NULL));
	EXPECT_EQ(-EPERM, tnl_join(&sub, IOCA_FAMILY_NAME, IOCA_MCGRP_SAMPLES));
	tnl_close(&sub);
	ASSERT_EQ(0, ioca_info_get(&nl, &after, &self->r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
	EXPECT_EQ(self->before.sampler.state, after.sampler.state);
	tnl_close(&nl);
}

/* unshare -Urn: a new network namespace does not even see the family. */
TEST_F(ioca_nl, user_and_net_namespace_root_sees_no_family)
{
	struct tnl nl;

	ASSERT_EQ(0, unshare(CLONE_NEWUSER | CLONE_NEWNET)) TH_LOG("unshare: %s", strerror(errno));
	EXPECT_NE(0, tnl_open(&nl, IOCA_FAMILY_NAME));
}

/*
 * No x86cpu device table and no genetlink family alias in .modinfo: udev
 * would load the module at boot on every listed Xeon, and any user's family
 * lookup would try to load it (and log a refusal on other CPUs).
 */
TEST(module_has_no_autoload_alias)
{
	int fd = open(kmod_path(), O_RDONLY);
	struct stat st;
	const char *p;

	ASSERT_LE(0, fd) TH_LOG("%s: %s", kmod_path(), strerror(errno));
	ASSERT_EQ(0, fstat(fd, &st));
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(NULL, memmem(p, st.st_size, "alias=cpu:type:x86", 18));
	EXPECT_EQ(NULL, memmem(p, st.st_size, "alias=net-pf-16-proto-16-family-ioca", 36));
	EXPECT_NE(NULL, memmem(p, st.st_size, "license=GPL", 11)) TH_LOG(".modinfo not found");
	munmap((void *)p, st.st_size);
	close(fd);
}

TEST_HARNESS_MAIN
