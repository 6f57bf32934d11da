// SPDX-License-Identifier: GPL-2.0
/*
 * DDIO and CPU hotplug on a guest with two packages of one CPU each
 * (run.sh --smp 2 --sockets 2), emulated backend: taking CPU 1 offline
 * leaves socket 1 with no CPU. A set there is refused with a message and
 * changes nothing, socket 0 still works, the package's register (shown by
 * debugfs ioca/ddio_regs) gets the intended mask back when CPU 1 returns,
 * and an unload while socket 1 is offline says it could not restore it. An
 * owner whose socket closes while its package is offline never gets its
 * mask back on that package: the mask before it does.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "client_ext.h"
#include "knobs.h"
#include "kmod_load.h"
#include "kmsg.h"

#define HOTCPU 1
#define HOTSOCK 1
#define REGS "/sys/kernel/debug/ioca/ddio_regs"
#define OFFLINE_MSG "every CPU of the socket is offline; bring one online first"

static int package_of(int cpu)
{
	char path[96];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id",
		 cpu);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

/* The emulated register of @sock as debugfs shows it; -errno on failure. */
static int read_reg(unsigned int sock, uint64_t *raw)
{
	FILE *f = fopen(REGS, "re");
	unsigned int s;
	uint64_t v;
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fscanf(f, "socket %u 0x%" SCNx64 "\n", &s, &v) == 2)
		if (s == sock) {
			*raw = v;
			err = 0;
		}
	fclose(f);
	return err;
}

static uint32_t ways_of(const struct ioca_socket_info *s, uint64_t raw)
{
	return (uint32_t)raw & s->valid_mask;
}

TEST_F_TIMEOUT(ioca_nl, offline_package_refuses_sets_and_gets_its_mask_back, 120)
{
	const struct ioca_socket_info *s0 = &self->before.sockets[0],
				      *s1 = &self->before.sockets[1];
	uint32_t m1, m0;
	size_t mark = kmsg_mark();
	struct ioca_info now;
	char splat[256];
	uint64_t raw;

	ASSERT_NE(package_of(0), package_of(HOTCPU)) TH_LOG("the guest needs two packages");
	ASSERT_EQ(2, self->before.nsockets) TH_LOG("one socket per package expected");
	m1 = libioca_top_ways(s1->llc_ways, 4);
	m0 = libioca_top_ways(s0->llc_ways, 3);
	ASSERT_NE(m1, s1->boot_mask);
	ASSERT_NE(m0, s0->boot_mask);

	ASSERT_EQ(0, ioca_ddio_set(&self->nl, HOTSOCK, m1, -1, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, read_reg(HOTSOCK, &raw));
	EXPECT_EQ(m1, ways_of(s1, raw));

	/* Socket 1 loses its only CPU: the register falls back, sets are refused. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	ASSERT_EQ(0, read_reg(HOTSOCK, &raw));
	EXPECT_EQ(s1->boot_mask, ways_of(s1, raw)) TH_LOG("register of the offline package");
	EXPECT_EQ(-ENODEV, ioca_ddio_set(&self->nl, HOTSOCK, s1->boot_mask, -1, &self->r));
	EXPECT_STREQ(OFFLINE_MSG, self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(m1, now.sockets[HOTSOCK].ddio_mask) TH_LOG("a refused set changed the mask");

	/* Socket 0 is unaffected. */
	EXPECT_EQ(0, ioca_ddio_set(&self->nl, 0, m0, -1, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, read_reg(0, &raw));
	EXPECT_EQ(m0, ways_of(s0, raw));

	/* CPU 1 back: the package's register carries the intended mask again. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	ASSERT_EQ(0, read_reg(HOTSOCK, &raw));
	EXPECT_EQ(m1, ways_of(s1, raw)) TH_LOG("mask not written back on CPU online");
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(m1, now.sockets[HOTSOCK].ddio_mask);
	EXPECT_EQ(0, ioca_ddio_set(&self->nl, HOTSOCK, m1 >> 1, -1, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, read_reg(HOTSOCK, &raw));
	EXPECT_EQ(m1 >> 1, ways_of(s1, raw));

	/* Unload with socket 1 offline: socket 0 restored, socket 1 reported. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	tnl_close(&self->nl);
	ASSERT_EQ(0, kmod_unload("ioca", 5000));
	EXPECT_EQ(1, kmsg_contains(mark, "socket 1: could not restore the boot DDIO value"));
	EXPECT_EQ(0, kmsg_contains(mark, "socket 0: could not restore"));
	EXPECT_EQ(0, kmsg_find_splat(mark, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);

	/* Leave the guest as found for the next program. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	ASSERT_EQ(0, kmod_load(kmod_path(), kmod_default_params()));
	ASSERT_EQ(0, tnl_open(&self->nl, IOCA_FAMILY_NAME));
}

TEST_F_TIMEOUT(ioca_nl, dead_owner_mask_never_comes_back, 120)
{
	const struct ioca_socket_info *s1 = &self->before.sockets[1];
	uint32_t prev = libioca_top_ways(s1->llc_ways, 3), mine = libioca_top_ways(s1->llc_ways, 5);
	struct ioca_info now;
	struct tnl owner;
	uint64_t raw;

	ASSERT_EQ(2, self->before.nsockets) TH_LOG("one socket per package expected");
	ASSERT_EQ(0, ioca_ddio_set(&self->nl, HOTSOCK, prev, -1, &self->r))
	TH_LOG("%s", self->r.msg);
	/* The owner changes socket 1, then the package goes offline... */
	ASSERT_EQ(0, tnl_open(&owner, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, iocx_ddio_set(&owner, HOTSOCK, mine, true, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 0));
	/* ...and the owner dies (its socket's last reference goes). */
	tnl_close(&owner);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(prev, now.sockets[HOTSOCK].ddio_mask)
	TH_LOG("the dead owner's mask is on record");

	/* The package returns with the mask before the owner, not the owner's. */
	ASSERT_EQ(0, knob_cpu_online(HOTCPU, 1));
	ASSERT_EQ(0, read_reg(HOTSOCK, &raw));
	EXPECT_EQ(prev, ways_of(s1, raw)) TH_LOG("register 0x%" PRIx64, raw);
	EXPECT_EQ(0, ioca_ddio_restore(&self->nl, &self->r));
}

TEST_HARNESS_MAIN
