// SPDX-License-Identifier: GPL-2.0
/*
 * A middle package without an online CPU at load, on the msr backend
 * (-cpu Skylake-Server, three packages of one CPU; guest.sh takes CPU 1
 * offline before insmod): the module loads with three sockets, reads
 * nothing from the middle one, refuses sets there, and reads and uses its
 * register once its CPU comes online.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ioca_fixture.h"
#include "knobs.h"

#define MIDCPU 1
#define MIDSOCK 1
#define OFFLINE_MSG "every CPU of the socket is offline; bring one online first"

/*
 * A set that reached the register: it took the write, or (QEMU's TCG drops
 * writes to the unknown MSR and reads 0) the read-back said it did not.
 */
static bool reached(int err, const char *msg)
{
	return !err || (err == -EIO && strstr(msg, "the write did not stick"));
}

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
	int err;

	ASSERT_EQ(0, cpu_online(MIDCPU)) TH_LOG("guest.sh offlines CPU %d before insmod", MIDCPU);
	EXPECT_STREQ("msr", self->before.backend_name);
	ASSERT_EQ(3, self->before.nsockets);
	EXPECT_EQ(0, mid->cpu_count);
	EXPECT_FALSE(self->before.ddio[MIDSOCK].available);
	EXPECT_TRUE(self->before.ddio[2].available);
	EXPECT_EQ(1, self->before.sockets[2].cpu_count);
	mask = libioca_top_ways(mid->llc_ways, 3);

	/* No CPU to write through: refused, nothing changed. */
	EXPECT_EQ(-ENODEV, ioca_ddio_set(&self->nl, MIDSOCK, mask, -1, &self->r));
	EXPECT_STREQ(OFFLINE_MSG, self->r.msg);
	/* The packages around it are written (and read back). */
	err = ioca_ddio_set(&self->nl, 2, libioca_top_ways(mid->llc_ways, 4), -1, &self->r);
	EXPECT_TRUE(reached(err, self->r.msg)) TH_LOG("%s", self->r.msg);

	/* Its CPU comes online: the socket is read and can be set. */
	ASSERT_EQ(0, knob_cpu_online(MIDCPU, 1));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	EXPECT_EQ(1, now.sockets[MIDSOCK].cpu_count);
	EXPECT_TRUE(now.ddio[MIDSOCK].available);
	err = ioca_ddio_set(&self->nl, MIDSOCK, mask, -1, &self->r);
	EXPECT_TRUE(reached(err, self->r.msg)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &now, &self->r));
	if (!err) {
		EXPECT_EQ(mask, now.sockets[MIDSOCK].ddio_mask);
	} else {
		EXPECT_FALSE(now.ddio[MIDSOCK].writable);
	}
	EXPECT_EQ(0, ioca_ddio_restore(&self->nl, &self->r));
}

TEST_HARNESS_MAIN
