// SPDX-License-Identifier: GPL-2.0
/*
 * A middle package without an online CPU at load, on the msr backend
 * (-cpu Skylake-Server, three packages of one CPU; guest.sh takes CPU 1
 * offline before insmod): the module loads with three sockets, reads
 * nothing from the middle one, refuses sets there, and reads and uses its
 * register once its CPU comes online.
 */
#include <stdio.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"

#define MIDCPU 1
#define MIDSOCK 1
#define OFFLINE_MSG "every CPU of the socket is offline; bring one online first"

static int cpu_online(int cpu)
{
	char path[64];
	int on = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return knob_read_int(path, &on) ? -1 : on;
}

TEST_F_TIMEOUT(ioca_nl, loads_with_an_offline_middle_package, 120)
{
	const struct ioca_socket_info *mid = &self->before.sockets[MIDSOCK];
	uint32_t mask;
	struct ioca_info now;

	ASSERT_EQ(0, cpu_online(MIDCPU)) TH_LOG("guest.sh offlines CPU %d before insmod", MIDCPU);
	EXPECT_STREQ("msr", self->before.backend_name);
	ASSERT_EQ(3, self->before.nsockets);
	EXPECT_EQ(0, mid->cpu_count);
	EXPECT_EQ(1, self->before.sockets[2].cpu_count);
	mask = libioca_top_ways(mid->llc_ways, 3);

	/* No CPU to write through: refused, nothing changed. */
	EXPECT_EQ(-ENODEV, ioca_ddio_set(&self->nl, MIDSOCK, mask, -1, &self->r));
	EXPECT_STREQ(OFFLINE_MSG, self->r.msg);
	/* The packages around it work. */
	EXPECT_EQ(0, ioca_ddio_set(&self->nl, 2, libioca_top_ways(mid->llc_ways, 4), -1, &self->r))
	TH_LOG("%s", self->r.msg);

	/* Its CPU comes online: the socket is read and can be set. */
	ASSERT_EQ(0, knob_cpu_online(MIDCPU, 1));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(1, now.sockets[MIDSOCK].cpu_count);
	EXPECT_EQ(0, ioca_ddio_set(&self->nl, MIDSOCK, mask, -1, &self->r))
	TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(mask, now.sockets[MIDSOCK].ddio_mask);
	EXPECT_EQ(0, ioca_ddio_restore(&self->nl, &self->r));
}

TEST_HARNESS_MAIN
