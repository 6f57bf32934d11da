// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: changing DDIO masks. A set that fails part-way puts every socket
 * back to its mask before the request, with the epoch it had; writes touch only the DDIO bits of
 * the 64-bit register; unload writes back the value found at load, never a
 * default; an owner's masks go back when it closes; every write is read
 * back, and one that does not stick fails with -EIO and says so.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include "../compat.h"
#include "../ddio.h"

/* Bits above the DDIO ways that a real register may carry. */
#define HIGH_BITS 0xabcd000000000000ull

static bool flaky_fail;
static u64 flaky_reg[IOCA_MAX_SOCKETS];

/* Starts with 0 in the DDIO bits, as an unknown MSR reads under TCG. */
static int flaky_read(struct ioca_ddio *d, unsigned int s, u64 *raw)
{
	*raw = flaky_reg[s];
	return 0;
}

/* Socket 1 refuses writes while flaky_fail is set. */
static int flaky_write(struct ioca_ddio *d, unsigned int s, u64 raw)
{
	if (s == 1 && flaky_fail)
		return -EIO;
	flaky_reg[s] = raw;
	return 0;
}

static const struct ioca_ddio_backend flaky_backend = {
	.id = IOCA_BACKEND_EMULATED,
	.name = "flaky",
	.read = flaky_read,
	.write = flaky_write,
};

/* Socket 1 has no CPU online while socket1_offline is set. */
static bool socket1_offline;

/*
 * Arrange: every register at HIGH_BITS (0 in the DDIO bits), writes taken,
 * socket 1 offline or not; a test changes a register before backend_ddio.
 */
static void regs_reset(bool offline)
{
	unsigned int s;

	flaky_fail = false;
	socket1_offline = offline;
	for (s = 0; s < IOCA_MAX_SOCKETS; s++)
		flaky_reg[s] = HIGH_BITS;
}

/* @nr sockets of 11 ways on @b; a boot read without a valid mask shows 0x600. */
static struct ioca_ddio *backend_ddio(struct kunit *test,
				      const struct ioca_ddio_backend *b,
				      unsigned int nr)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ioca_ddio_init(d, b, nr, 11, 0x600, 2), 0);
	return d;
}

/* @nr emulated sockets of 11 ways, DDIO on 2 of them. */
static struct ioca_ddio *emulated_ddio(struct kunit *test, unsigned int nr)
{
	struct ioca_ddio *d = kunit_kzalloc(test, sizeof(*d), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, d);
	KUNIT_ASSERT_EQ(test, ioca_ddio_init_emulated(d, nr, 11, 2), 0);
	return d;
}

static struct ioca_ddio *flaky_ddio(struct kunit *test)
{
	regs_reset(false);
	return backend_ddio(test, &flaky_backend, 2);
}

static void ddio_apply_test_failed_write_puts_back_previous(struct kunit *test)
{
	struct ioca_ddio *d = flaky_ddio(test);
	struct ioca_ddio_req first = { .socket = 0, .mask = 0x780 };
	struct ioca_ddio_req reqs[] = {
		{ .socket = 0, .mask = 0x7c0 },
		{ .socket = 1, .mask = 0x700 },
	};
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &first, 1, NULL, &why), 0);
	flaky_fail = true;
	/* Act */
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), -EIO);
	/* Assert: socket 0 is back at 0x780, not at the boot mask */
	KUNIT_EXPECT_STREQ(test, why,
			   "DDIO mask write failed; every socket of the request put back");
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x780u);
	KUNIT_EXPECT_EQ(test, flaky_reg[0], HIGH_BITS | 0x780);
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x600u);
	flaky_fail = false;
	ioca_ddio_exit(d);
}

/*
 * A set that fails part-way publishes nothing: the socket written and put
 * back keeps the epoch and mask its samples showed, so the writer, which
 * gets no epochs on failure, never reads its rolled-back write as someone
 * else's change.
 */
static void ddio_apply_test_failed_set_keeps_the_epochs(struct kunit *test)
{
	struct ioca_ddio *d = flaky_ddio(test);
	struct ioca_ddio_req first = { .socket = 0, .mask = 0x780 };
	struct ioca_ddio_req reqs[] = {
		{ .socket = 0, .mask = 0x7c0 },
		{ .socket = 1, .mask = 0x700 },
	};
	const char *why = NULL;
	u32 e0, e1, m0 = 0, m1 = 0;

	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &first, 1, NULL, &why), 0);
	e0 = ioca_ddio_snapshot(&d->sock[0], &m0);
	e1 = ioca_ddio_snapshot(&d->sock[1], &m1);
	KUNIT_ASSERT_EQ(test, e0, first.epoch);
	flaky_fail = true;
	/* Act: socket 0 written, socket 1 refused, socket 0 put back */
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), -EIO);
	/* Assert: both sockets' published epoch and mask as before the set */
	KUNIT_EXPECT_EQ(test, ioca_ddio_snapshot(&d->sock[0], &m0), e0);
	KUNIT_EXPECT_EQ(test, m0, 0x780u);
	KUNIT_EXPECT_EQ(test, ioca_ddio_snapshot(&d->sock[1], &m1), e1);
	KUNIT_EXPECT_EQ(test, m1, 0x600u);
	KUNIT_EXPECT_EQ(test, d->sock[0].epoch, e0);
	/* and the next set that holds gets the next epoch */
	flaky_fail = false;
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, reqs[0].epoch, ioca_epoch_next(e0));
	KUNIT_EXPECT_EQ(test, ioca_ddio_snapshot(&d->sock[0], &m0), reqs[0].epoch);
	KUNIT_EXPECT_EQ(test, m0, 0x7c0u);
	ioca_ddio_exit(d);
}

static void ddio_apply_test_writes_only_ddio_bits(struct kunit *test)
{
	struct ioca_ddio *d = flaky_ddio(test);
	struct ioca_ddio_req req = { .socket = 0, .mask = 0x780 };
	const char *why = NULL;

	KUNIT_EXPECT_EQ(test, d->sock[0].boot_raw, HIGH_BITS);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, flaky_reg[0], HIGH_BITS | 0x780);
	req.mask = 0x7fe;
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, flaky_reg[0], HIGH_BITS | 0x7fe);
	ioca_ddio_exit(d);
}

static void ddio_apply_test_unload_writes_boot_value_not_default(struct kunit *test)
{
	struct ioca_ddio *d = flaky_ddio(test);
	struct ioca_ddio_req req = { .socket = 1, .mask = 0x780 };
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	/* Act */
	ioca_ddio_exit(d);
	/* Assert: the register holds what firmware left, not 0x600 */
	KUNIT_EXPECT_EQ(test, flaky_reg[1], HIGH_BITS);
}

static void ddio_apply_test_owner_close_puts_back(struct kunit *test)
{
	struct ioca_ddio *d = emulated_ddio(test, 2);
	struct ioca_ddio_owner owner = { .portid = 7, .pid = 70, .own = true };
	struct ioca_ddio_owner other = { .portid = 8, .pid = 80, .own = false };
	struct ioca_ddio_req before = { .socket = 0, .mask = 0x700 };
	struct ioca_ddio_req req = { .socket = 0, .mask = 0x780 };
	struct ioca_ddio_req req1 = { .socket = 1, .mask = 0x780 };
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &before, 1, NULL, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, &owner, &why), 0);
	req.mask = 0x7c0;
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, &owner, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req1, 1, &owner, &why), 0);
	KUNIT_EXPECT_EQ(test, d->sock[0].owner_pid, 70u);
	/* Another socket's set ends the ownership of socket 1 */
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req1, 1, &other, &why), 0);
	KUNIT_EXPECT_EQ(test, d->sock[1].owner_pid, 0u);
	/* Act */
	ioca_ddio_release_owner(d, 8);
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x7c0u);
	ioca_ddio_release_owner(d, 7);
	/* Assert: back to the mask before the owner's first change */
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x700u);
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x700ull);
	KUNIT_EXPECT_EQ(test, d->sock[0].owner_pid, 0u);
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x780u);
	ioca_ddio_exit(d);
}

static bool offline_online(struct ioca_ddio *d, unsigned int s)
{
	return s == 0 || !socket1_offline;
}

static const struct ioca_ddio_backend offline_backend = {
	.id = IOCA_BACKEND_EMULATED,
	.name = "offline",
	.read = flaky_read,
	.write = flaky_write,
	.online = offline_online,
};

static void ddio_apply_test_offline_socket_refused(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req reqs[] = {
		{ .socket = 0, .mask = 0x780 },
		{ .socket = 1, .mask = 0x780 },
	};
	const char *why = NULL;

	regs_reset(true);
	d = backend_ddio(test, &offline_backend, 2);
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), -ENODEV);
	KUNIT_EXPECT_STREQ(test, why,
			   "every CPU of the socket is offline; bring one online first");
	/* Nothing written, not even socket 0 */
	KUNIT_EXPECT_FALSE(test, d->sock[0].dirty);
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x600u);
	ioca_ddio_exit(d);
}

static void ddio_apply_test_package_back_online_gets_its_mask(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req req = { .socket = 1, .mask = 0x780 };
	const char *why = NULL;

	regs_reset(false);
	d = backend_ddio(test, &offline_backend, 2);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	/* Arrange: the package goes offline and its register is reset */
	socket1_offline = true;
	flaky_reg[1] = HIGH_BITS | 0x600;
	socket1_offline = false;
	/* Act */
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 1), 0);
	/* Assert: the intended mask, the other bits as they are */
	KUNIT_EXPECT_EQ(test, flaky_reg[1], HIGH_BITS | 0x780);
	/* A socket never changed is left alone */
	flaky_reg[0] = HIGH_BITS | 0x7c0;
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 0), 0);
	KUNIT_EXPECT_EQ(test, flaky_reg[0], HIGH_BITS | 0x7c0);
	flaky_reg[0] = HIGH_BITS;
	ioca_ddio_exit(d);
}

static void ddio_apply_test_restore_reports_offline_socket(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req reqs[] = {
		{ .socket = 0, .mask = 0x780 },
		{ .socket = 1, .mask = 0x780 },
	};
	DECLARE_BITMAP(failed, IOCA_MAX_SOCKETS) = { 0 };
	const char *why = NULL;

	regs_reset(false);
	d = backend_ddio(test, &offline_backend, 2);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), 0);
	socket1_offline = true;
	/* Act */
	KUNIT_EXPECT_EQ(test, ioca_ddio_restore(d, failed), -ENODEV);
	/* Assert: socket 0 restored, socket 1 reported and left as it is */
	KUNIT_EXPECT_FALSE(test, test_bit(0, failed));
	KUNIT_EXPECT_TRUE(test, test_bit(1, failed));
	KUNIT_EXPECT_EQ(test, flaky_reg[0], HIGH_BITS);
	KUNIT_EXPECT_EQ(test, flaky_reg[1], HIGH_BITS | 0x780);
	KUNIT_EXPECT_TRUE(test, d->sock[1].dirty);
	socket1_offline = false;
	ioca_ddio_exit(d);
}

static void ddio_apply_test_new_package_becomes_a_socket(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req req = { .socket = 2, .mask = 0x780 };
	const char *why = NULL;

	regs_reset(false);
	flaky_reg[2] = HIGH_BITS | 0x300;
	d = backend_ddio(test, &offline_backend, 2);
	/* Arrange: socket 2 does not exist yet */
	KUNIT_EXPECT_EQ(test, ioca_ddio_resolve(d, &req, &why), -ENODEV);
	/* Act: its first CPU comes online */
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 2), 0);
	/* Assert: a socket with the value it had, usable like the others */
	KUNIT_EXPECT_EQ(test, d->nr_sockets, 3u);
	KUNIT_EXPECT_EQ(test, d->sock[2].boot_raw, HIGH_BITS | 0x300);
	KUNIT_EXPECT_EQ(test, d->sock[2].mask, 0x300u);
	KUNIT_EXPECT_EQ(test, d->sock[2].llc_ways, 11u);
	KUNIT_ASSERT_EQ(test, ioca_ddio_resolve(d, &req, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, flaky_reg[2], HIGH_BITS | 0x780);
	/* A package id beyond the next one is not added */
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 5), -ENODEV);
	KUNIT_EXPECT_EQ(test, d->nr_sockets, 3u);
	ioca_ddio_exit(d);
	KUNIT_EXPECT_EQ(test, flaky_reg[2], HIGH_BITS | 0x300);
}

/* As the MSR: no CPU of socket 1 online, nothing to read or write through. */
static int msrlike_read(struct ioca_ddio *d, unsigned int s, u64 *raw)
{
	if (s == 1 && socket1_offline)
		return -ENODEV;
	return flaky_read(d, s, raw);
}

static int msrlike_write(struct ioca_ddio *d, unsigned int s, u64 raw)
{
	if (s == 1 && socket1_offline)
		return -ENODEV;
	return flaky_write(d, s, raw);
}

static bool msrlike_online(struct ioca_ddio *d, unsigned int s)
{
	return s != 1 || !socket1_offline;
}

static const struct ioca_ddio_backend msrlike_backend = {
	.id = IOCA_BACKEND_MSR,
	.name = "msrlike",
	.read = msrlike_read,
	.write = msrlike_write,
	.online = msrlike_online,
};

static void ddio_apply_test_offline_middle_package_at_load(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req req = { .socket = 1, .mask = 0x780 };
	const char *why = NULL;

	regs_reset(true);
	flaky_reg[1] = HIGH_BITS | 0x300;
	/* Act: three packages, the middle one without an online CPU */
	d = backend_ddio(test, &msrlike_backend, 3);
	/* Assert: loaded, the middle register not read, sets refused */
	KUNIT_EXPECT_EQ(test, d->nr_sockets, 3u);
	KUNIT_EXPECT_TRUE(test, d->sock[1].unread);
	KUNIT_EXPECT_FALSE(test, d->sock[0].unread);
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), -ENODEV);
	/* Its first CPU online: the register is read then, as at load */
	socket1_offline = false;
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 1), 0);
	KUNIT_EXPECT_FALSE(test, d->sock[1].unread);
	KUNIT_EXPECT_EQ(test, d->sock[1].boot_raw, HIGH_BITS | 0x300);
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x300u);
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	ioca_ddio_exit(d);
	KUNIT_EXPECT_EQ(test, flaky_reg[1], HIGH_BITS | 0x300);
}

static void ddio_apply_test_dead_owner_offline_mask_never_returns(struct kunit *test)
{
	struct ioca_ddio *d;
	struct ioca_ddio_req before = { .socket = 1, .mask = 0x700 };
	struct ioca_ddio_req req = { .socket = 1, .mask = 0x780 };
	struct ioca_ddio_owner o = { .portid = 7, .pid = 70, .own = true };
	const char *why = NULL;

	regs_reset(false);
	d = backend_ddio(test, &msrlike_backend, 2);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &before, 1, NULL, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, &o, &why), 0);
	/* Arrange: the package goes offline, then the owner dies */
	socket1_offline = true;
	flaky_reg[1] = HIGH_BITS;
	/* Act */
	ioca_ddio_release_owner(d, 7);
	/* Assert: the mask on record is the one before the owner */
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x700u);
	KUNIT_EXPECT_EQ(test, d->sock[1].owner_portid, 0u);
	/* ...and that, not the dead owner's, is what comes back */
	socket1_offline = false;
	KUNIT_EXPECT_EQ(test, ioca_ddio_socket_online(d, 1), 0);
	KUNIT_EXPECT_EQ(test, flaky_reg[1], HIGH_BITS | 0x700);
	ioca_ddio_exit(d);
}

static void status_of(struct ioca_ddio *d, unsigned int s,
		      struct ioca_ddio_status *st)
{
	mutex_lock(&d->lock);
	ioca_ddio_status(d, s, st);
	mutex_unlock(&d->lock);
}

static void ddio_apply_test_locked_register_fails_with_eio(struct kunit *test)
{
	struct ioca_ddio *d = emulated_ddio(test, 2);
	struct ioca_ddio_req reqs[] = {
		{ .socket = 0, .mask = 0x7c0 },
		{ .socket = 1, .mask = 0x780 },
	};
	struct ioca_ddio_status st;
	const char *why = NULL;

	status_of(d, 1, &st);
	KUNIT_EXPECT_TRUE(test, st.writable);
	KUNIT_EXPECT_TRUE(test, st.verified);
	/* Arrange: socket 1's register ignores writes */
	KUNIT_ASSERT_EQ(test, ioca_ddio_emul_set_mode(d, 1, IOCA_DDIO_EMUL_LOCKED), 0);
	/* Act */
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), -EIO);
	/* Assert: the socket and both values named, socket 0 put back */
	KUNIT_EXPECT_STREQ(test, why,
			   "socket 1: DDIO register written 0x780, read back 0x600: the write did not stick");
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x600ull);
	KUNIT_EXPECT_EQ(test, d->sock[0].mask, 0x600u);
	KUNIT_EXPECT_EQ(test, d->sock[1].mask, 0x600u);
	status_of(d, 1, &st);
	KUNIT_EXPECT_TRUE(test, st.available);
	KUNIT_EXPECT_FALSE(test, st.writable);
	KUNIT_EXPECT_FALSE(test, st.verified);
	status_of(d, 0, &st);
	KUNIT_EXPECT_TRUE(test, st.writable);
	/* Unlocked, the next write sticks and the socket is writable again */
	KUNIT_ASSERT_EQ(test, ioca_ddio_emul_set_mode(d, 1, IOCA_DDIO_EMUL_NORMAL), 0);
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, reqs, 2, NULL, &why), 0);
	KUNIT_EXPECT_EQ(test, d->sock[1].emul_reg, 0x780ull);
	status_of(d, 1, &st);
	KUNIT_EXPECT_TRUE(test, st.writable);
	KUNIT_EXPECT_TRUE(test, st.verified);
	ioca_ddio_exit(d);
}

static void ddio_apply_test_ignoring_register_is_unverified(struct kunit *test)
{
	struct ioca_ddio *d = emulated_ddio(test, 1);
	struct ioca_ddio_req req = { .socket = 0, .mask = 0x780 };
	struct ioca_ddio_status st;
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, ioca_ddio_emul_set_mode(d, 0, IOCA_DDIO_EMUL_IGNORING), 0);
	/* Act: the write reads back, so the set succeeds */
	KUNIT_EXPECT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	/* Assert: writable, but not verified */
	status_of(d, 0, &st);
	KUNIT_EXPECT_EQ(test, st.field, 0x7ffu);
	KUNIT_EXPECT_TRUE(test, st.writable);
	KUNIT_EXPECT_FALSE(test, st.verified);
	KUNIT_EXPECT_EQ(test, ioca_ddio_emul_set_mode(d, 0, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, ioca_ddio_emul_set_mode(d, 1, IOCA_DDIO_EMUL_LOCKED),
			-EINVAL);
	ioca_ddio_exit(d);
}

static void ddio_apply_test_restore_to_locked_register_reported(struct kunit *test)
{
	struct ioca_ddio *d = emulated_ddio(test, 1);
	struct ioca_ddio_req req = { .socket = 0, .mask = 0x780 };
	DECLARE_BITMAP(failed, IOCA_MAX_SOCKETS) = { 0 };
	const char *why = NULL;

	KUNIT_ASSERT_EQ(test, ioca_ddio_apply(d, &req, 1, NULL, &why), 0);
	KUNIT_ASSERT_EQ(test, ioca_ddio_emul_set_mode(d, 0, IOCA_DDIO_EMUL_LOCKED), 0);
	/* Act: the boot value does not go back in */
	KUNIT_EXPECT_EQ(test, ioca_ddio_restore(d, failed), -EIO);
	/* Assert: reported, still on record as changed */
	KUNIT_EXPECT_TRUE(test, test_bit(0, failed));
	KUNIT_EXPECT_TRUE(test, d->sock[0].dirty);
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x780ull);
	KUNIT_ASSERT_EQ(test, ioca_ddio_emul_set_mode(d, 0, IOCA_DDIO_EMUL_NORMAL), 0);
	ioca_ddio_exit(d);
	KUNIT_EXPECT_EQ(test, d->sock[0].emul_reg, 0x600ull);
}

static struct kunit_case ddio_apply_test_cases[] = {
	KUNIT_CASE(ddio_apply_test_failed_write_puts_back_previous),
	KUNIT_CASE(ddio_apply_test_failed_set_keeps_the_epochs),
	KUNIT_CASE(ddio_apply_test_writes_only_ddio_bits),
	KUNIT_CASE(ddio_apply_test_unload_writes_boot_value_not_default),
	KUNIT_CASE(ddio_apply_test_owner_close_puts_back),
	KUNIT_CASE(ddio_apply_test_offline_socket_refused),
	KUNIT_CASE(ddio_apply_test_package_back_online_gets_its_mask),
	KUNIT_CASE(ddio_apply_test_restore_reports_offline_socket),
	KUNIT_CASE(ddio_apply_test_new_package_becomes_a_socket),
	KUNIT_CASE(ddio_apply_test_offline_middle_package_at_load),
	KUNIT_CASE(ddio_apply_test_dead_owner_offline_mask_never_returns),
	KUNIT_CASE(ddio_apply_test_locked_register_fails_with_eio),
	KUNIT_CASE(ddio_apply_test_ignoring_register_is_unverified),
	KUNIT_CASE(ddio_apply_test_restore_to_locked_register_reported),
	{}
};

static struct kunit_suite ddio_apply_test_suite = {
	.name = "ioca-ddio-apply",
	.test_cases = ddio_apply_test_cases,
};

kunit_test_suite(ddio_apply_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for changing ioca DDIO masks");
IOCA_IMPORT_KUNIT_NS();
