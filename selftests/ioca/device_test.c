// SPDX-License-Identifier: GPL-2.0
/*
 * DDIO per device (ddio-device-set): on a q35 guest whose virtio device
 * 0000:01:00.0 sits below QEMU's pcie-root-port 0000:00:1c.0 (1b36:000c),
 * beside the root-complex-integrated 0000:00:1f.0. With emulate=1 the
 * root port's registers are software ones: off, full-off and on are
 * written and read back, an owner's close puts the setting back, unload
 * does; without emulate=1 that real root port is unknown and refused.
 * Through libioca's public API, as iocactl and iocad use it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>
#include <libioca.h>

#include "kselftest_harness.h"
#include "kmod_load.h"
#include "kmsg.h"
#include "knobs.h"

#define DEV "0000:01:00.0"
#define RP "0000:00:1c.0"
#define RCIEP "0000:00:1f.0"
#define ALLOC_FLOW_WR 0x80u
#define NOSNOOP 0x8u
#define TPHDIS 0x100u

/* debugfs ioca/rootport_locked: Y, the emulated registers ignore writes. */
static int rootport_locked(const char *yn)
{
	int fd = open("/sys/kernel/debug/ioca/rootport_locked", O_WRONLY | O_CLOEXEC);
	int err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, yn, 1) != 1)
		err = -errno;
	close(fd);
	return err;
}

static bool emulated(void)
{
	const char *b = getenv("IOCA_EXPECT_BACKEND");

	return !b || !strcmp(b, "emulated");
}

FIXTURE(dev)
{
	struct ioca_client *c;
	struct ioca_info *in;
};

FIXTURE_SETUP(dev)
{
	self->in = calloc(1, sizeof(*self->in));
	ASSERT_NE(NULL, self->in);
	self->c = ioca_client__open(NULL);
	ASSERT_NE(NULL, self->c) TH_LOG("is ioca.ko loaded? %s", strerror(errno));
}

FIXTURE_TEARDOWN(dev)
{
	if (emulated()) {
		rootport_locked("N");
		ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_ON, NULL);
	}
	ioca_client__close(self->c);
	free(self->in);
}

/* The info entry of root port RP, or NULL. */
static const struct ioca_device_info *port_info(struct ioca_client *c, struct ioca_info *in)
{
	uint32_t i;

	if (ioca_client__info(c, in))
		return NULL;
	for (i = 0; i < in->ndevices; i++)
		if (!strcmp(in->devices[i].root_port, RP))
			return &in->devices[i];
	return NULL;
}

TEST_F(dev, off_full_off_and_on_are_written_and_read_back)
{
	const struct ioca_device_info *d;

	if (!emulated())
		SKIP(return, "msr backend: the real root port is unknown (next test)");
	ASSERT_EQ(0, ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_OFF, NULL))
	TH_LOG("%s", ioca_client__last_extack(self->c));
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_STREQ(DEV, d->addr);
	EXPECT_TRUE(d->emulated);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_OFF, d->mode);
	EXPECT_EQ(0u, d->perfctrlsts0 & ALLOC_FLOW_WR);
	EXPECT_EQ(0u, d->perfctrlsts1 & TPHDIS);

	ASSERT_EQ(0,
		  ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_FULL_OFF, NULL));
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_FULL_OFF, d->mode);
	EXPECT_EQ(0u, d->perfctrlsts0 & (ALLOC_FLOW_WR | NOSNOOP));
	EXPECT_EQ(TPHDIS, d->perfctrlsts1 & TPHDIS);

	ASSERT_EQ(0, ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_ON, NULL));
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_ON, d->mode);
	EXPECT_EQ(ALLOC_FLOW_WR, d->perfctrlsts0);
	EXPECT_EQ(0u, d->perfctrlsts1);
	/* the root port itself names the same entry */
	ASSERT_EQ(0, ioca_client__ddio_device_set(self->c, RP, IOCA_DDIO_DEVICE_MODE_ON, NULL));
	ASSERT_EQ(0, ioca_client__info(self->c, self->in));
	EXPECT_EQ(1u, self->in->ndevices);
}

TEST_F(dev, a_write_the_port_does_not_take_fails_with_eio_naming_both_values)
{
	const struct ioca_device_info *d;

	if (!emulated())
		SKIP(return, "msr backend: no emulated root port registers");
	ASSERT_EQ(0, ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_ON, NULL));
	ASSERT_EQ(0, rootport_locked("Y")) TH_LOG("debugfs: %s", strerror(errno));
	/* Act */
	EXPECT_EQ(-EIO,
		  ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_OFF, NULL));
	/* Assert: named, and info shows what the register holds */
	EXPECT_STREQ("root port " RP ": perfctrlsts written 0x0 0x0, read back 0x80 0x0: the write "
		     "did not stick",
		     ioca_client__last_extack(self->c));
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_ON, d->mode);
	EXPECT_EQ(ALLOC_FLOW_WR, d->perfctrlsts0);
	ASSERT_EQ(0, rootport_locked("N"));
	EXPECT_EQ(0, ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_OFF, NULL));
}

TEST_F(dev, an_owners_close_puts_the_setting_back)
{
	IOCA_OPTS(ioca_ddio_opts, own, .owner = true);
	const struct ioca_device_info *d;
	struct ioca_client *c2;

	if (!emulated())
		SKIP(return, "msr backend: the real root port is unknown");
	c2 = ioca_client__open(NULL);
	ASSERT_NE(NULL, c2);
	ASSERT_EQ(0, ioca_client__ddio_device_set(c2, DEV, IOCA_DDIO_DEVICE_MODE_FULL_OFF, &own))
	TH_LOG("%s", ioca_client__last_extack(c2));
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_FULL_OFF, d->mode);
	EXPECT_EQ((uint32_t)getpid(), d->owner_pid);
	/* Act: the owner's socket closes */
	ioca_client__close(c2);
	d = port_info(self->c, self->in);
	ASSERT_NE(NULL, d);
	EXPECT_EQ(IOCA_DDIO_DEVICE_MODE_ON, d->mode);
	EXPECT_EQ(0u, d->owner_pid);
}

TEST_F(dev, a_real_unknown_root_port_is_refused)
{
	if (emulated())
		SKIP(return, "emulate=1 stands in for QEMU's root port");
	EXPECT_EQ(-EOPNOTSUPP,
		  ioca_client__ddio_device_set(self->c, DEV, IOCA_DDIO_DEVICE_MODE_OFF, NULL));
	EXPECT_STREQ("root port " RP " (1b36:000c) above " DEV
		     " is not a known IIO root port (Skylake-SP/Cascade Lake: 8086:2030-2033)",
		     ioca_client__last_extack(self->c));
	ASSERT_EQ(0, ioca_client__info(self->c, self->in));
	EXPECT_EQ(0u, self->in->ndevices);
}

TEST_F(dev, a_device_without_a_root_port_an_absent_one_and_a_bad_address_are_refused)
{
	EXPECT_EQ(-ENODEV,
		  ioca_client__ddio_device_set(self->c, RCIEP, IOCA_DDIO_DEVICE_MODE_OFF, NULL));
	EXPECT_STREQ("no PCIe root port above the device (root complex integrated or not PCIe)",
		     ioca_client__last_extack(self->c));
	EXPECT_EQ(-ENODEV, ioca_client__ddio_device_set(self->c, "0000:05:00.0",
							IOCA_DDIO_DEVICE_MODE_OFF, NULL));
	EXPECT_STREQ("no PCI device at that address", ioca_client__last_extack(self->c));
	EXPECT_EQ(-EINVAL,
		  ioca_client__ddio_device_set(self->c, "01:00", IOCA_DDIO_DEVICE_MODE_OFF, NULL));
	EXPECT_STREQ("bad PCI address: expected DDDD:BB:DD.F (hex)",
		     ioca_client__last_extack(self->c));
	/* refusals change nothing: on the msr backend nothing at all */
	ASSERT_EQ(0, ioca_client__info(self->c, self->in));
	if (!emulated()) {
		EXPECT_EQ(0u, self->in->ndevices);
	}
}

TEST_F(dev, a_change_needs_cap_sys_rawio)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (!pid) {
		struct ioca_client *c;
		int err;

		if (knob_keep_caps(1ull << CAP_NET_ADMIN))
			_exit(2);
		c = ioca_client__open(NULL);
		if (!c)
			_exit(3);
		err = ioca_client__ddio_device_set(c, DEV, IOCA_DDIO_DEVICE_MODE_OFF, NULL);
		_exit(err == -EPERM && !strcmp(ioca_client__last_extack(c),
					       "DDIO changes write MSRs: CAP_SYS_RAWIO needed")
			      ? 0
			      : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Reloads the module (the harness runs it before the fixture tests). */
TEST(unload_puts_the_root_port_back)
{
	struct ioca_client *c;
	size_t mark;

	if (!emulated())
		SKIP(return, "msr backend: nothing changed");
	c = ioca_client__open(NULL);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, ioca_client__ddio_device_set(c, DEV, IOCA_DDIO_DEVICE_MODE_FULL_OFF, NULL));
	ioca_client__close(c);
	mark = kmsg_mark();
	ASSERT_EQ(0, kmod_reload(""));
	EXPECT_EQ(1, kmsg_contains(mark, "root port " RP
					 ": DDIO setting put back (perfctrlsts 0x80 0x0)"));
}

TEST_HARNESS_MAIN
