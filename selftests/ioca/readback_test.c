// SPDX-License-Identifier: GPL-2.0
/*
 * Every DDIO write is read back: info reports per socket the register's
 * DDIO field and whether way control is available, writable and verified;
 * a write that does not stick fails with EIO and an extack naming the
 * socket and both values. The emulated register is made to misbehave
 * through debugfs (ioca/socketN/ddio_register); on the msr backend under
 * QEMU's TCG the MSR itself drops writes and reads 0.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "ioca_fixture.h"
#include "knobs.h"

static bool emulated(void)
{
	const char *b = getenv("IOCA_EXPECT_BACKEND");

	return !b || !strcmp(b, "emulated");
}

FIXTURE(readback)
{
	struct tnl nl;
	struct tnl_reply r;
	struct ioca_info before;
};

FIXTURE_SETUP(readback)
{
	ASSERT_EQ(0, tnl_open(&self->nl, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_info_get(&self->nl, &self->before, &self->r))
	TH_LOG("info-get: %s", self->r.msg);
	ASSERT_LE(1, self->before.nsockets);
}

/* Whatever a test did, later programs find normal registers, boot masks. */
FIXTURE_TEARDOWN(readback)
{
	uint32_t i;

	if (emulated())
		for (i = 0; i < self->before.nsockets; i++)
			knob_ddio_register(i, "normal");
	ioca_ddio_restore(&self->nl, &self->r);
	tnl_close(&self->nl);
}

static uint32_t other_mask(const struct ioca_socket_info *s)
{
	uint32_t want = libioca_top_ways(s->llc_ways, 4);

	return want == s->ddio_mask ? libioca_top_ways(s->llc_ways, 3) : want;
}

TEST_F(readback, info_reports_the_ddio_field_and_control_per_socket)
{
	uint32_t i;

	for (i = 0; i < self->before.nsockets; i++) {
		const struct ioca_socket_info *s = &self->before.sockets[i];
		const struct ioca_ddio_control *c = &self->before.ddio[i];

		ASSERT_TRUE(c->reported) TH_LOG("socket %u: no DDIO control flags in info", i);
		EXPECT_TRUE(c->available);
		EXPECT_TRUE(c->writable);
		EXPECT_EQ(s->valid_mask, c->field & s->valid_mask);
		if (emulated()) {
			/* The emulated register's field is its LLC ways. */
			EXPECT_EQ(s->valid_mask, c->field);
			EXPECT_TRUE(c->verified);
		} else if (self->before.cpu_family == 6 && self->before.cpu_model == 0x55 &&
			   s->llc_ways == 11) {
			/* Skylake-SP/Cascade Lake: 0x7ff, the one verified model. */
			EXPECT_EQ(0x7ffu, c->field);
			EXPECT_TRUE(c->verified);
		} else {
			/*
			 * Another model, or a VM's CPUID contradicting model
			 * 0x55's 11 ways (QEMU: 16): the low ways, assumed.
			 */
			EXPECT_EQ(s->valid_mask, c->field);
			EXPECT_FALSE(c->verified);
		}
	}
}

TEST_F(readback, ddio_set_on_a_locked_register_fails_with_eio_naming_both_values)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	uint32_t want = other_mask(s);
	struct ioca_info after;
	char msg[160];

	if (!emulated())
		SKIP(return, "msr backend: no debugfs register knob");
	ASSERT_EQ(0, knob_ddio_register(0, "locked")) TH_LOG("debugfs: %s", strerror(errno));
	/* Act */
	ASSERT_EQ(-EIO, ioca_ddio_set(&self->nl, 0, want, -1, &self->r)) TH_LOG("%s", self->r.msg);
	/* Assert: the emulated register holds exactly its mask */
	snprintf(msg, sizeof(msg),
		 "socket 0: DDIO register written 0x%x, read back 0x%x: the write did not stick",
		 want, s->ddio_mask);
	EXPECT_STREQ(msg, self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
	EXPECT_TRUE(after.ddio[0].available);
	EXPECT_FALSE(after.ddio[0].writable);
	EXPECT_FALSE(after.ddio[0].verified);
	/* Unlocked, the next set sticks and the socket is writable again */
	ASSERT_EQ(0, knob_ddio_register(0, "normal"));
	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, want, -1, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(want, after.sockets[0].ddio_mask);
	EXPECT_TRUE(after.ddio[0].writable);
	EXPECT_TRUE(after.ddio[0].verified);
}

TEST_F(readback, ddio_set_on_an_ignoring_register_succeeds_unverified)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	uint32_t want = other_mask(s);
	struct ioca_info after;

	if (!emulated())
		SKIP(return, "msr backend: no debugfs register knob");
	ASSERT_EQ(0, knob_ddio_register(0, "ignoring"));
	ASSERT_EQ(0, ioca_ddio_set(&self->nl, 0, want, -1, &self->r)) TH_LOG("%s", self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	EXPECT_EQ(want, after.sockets[0].ddio_mask);
	EXPECT_TRUE(after.ddio[0].writable);
	EXPECT_FALSE(after.ddio[0].verified);
}

TEST_F(readback, the_register_knob_refuses_an_unknown_mode)
{
	if (!emulated())
		SKIP(return, "msr backend: no debugfs register knob");
	EXPECT_EQ(-EINVAL, knob_ddio_register(0, "sticky"));
	EXPECT_EQ(-ENOENT, knob_ddio_register(IOCA_MAX_SOCKETS, "locked"));
}

TEST_F(readback, ddio_set_of_an_msr_that_drops_writes_fails_with_eio)
{
	const struct ioca_socket_info *s = &self->before.sockets[0];
	uint32_t want = other_mask(s);
	struct ioca_info after;
	char msg[160];
	int err;

	if (emulated())
		SKIP(return, "emulated backend: covered by the locked register");
	err = ioca_ddio_set(&self->nl, 0, want, -1, &self->r);
	if (!err)
		SKIP(return, "the MSR took the write: real hardware, not TCG");
	/* Under TCG the unknown MSR reads 0 and the write vanishes. */
	ASSERT_EQ(-EIO, err) TH_LOG("%s", self->r.msg);
	snprintf(msg, sizeof(msg),
		 "socket 0: DDIO register written 0x%x, read back 0x0: the write did not stick",
		 want);
	EXPECT_STREQ(msg, self->r.msg);
	ASSERT_EQ(0, ioca_info_get(&self->nl, &after, &self->r));
	ASSERT_DDIO_UNCHANGED(&self->before, &after);
	EXPECT_TRUE(after.ddio[0].available);
	EXPECT_FALSE(after.ddio[0].writable);
	EXPECT_FALSE(after.ddio[0].verified);
}

TEST_HARNESS_MAIN
