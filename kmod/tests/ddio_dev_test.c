// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: DDIO per device, the pure parts: which root ports are known, the
 * register bits each mode sets (every other bit kept), the mode register
 * values stand for, and the PCI address syntax.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/pci_ids.h>
#include "../compat.h"
#include "../ddio_dev.h"

struct rp_case {
	const char *desc;
	u16 vendor, device;
	bool emulate, known;
};

static const struct rp_case rp_cases[] = {
	{ "Skylake-SP IIO root port A (8086:2030)", 0x8086, 0x2030, false, true },
	{ "Skylake-SP IIO root port D (8086:2033)", 0x8086, 0x2033, false, true },
	{ "8086:2034 is not a root port of the table", 0x8086, 0x2034, false, false },
	{ "8086:202f is not either", 0x8086, 0x202f, false, false },
	{ "QEMU's pcie-root-port without emulate=1", 0x1b36, 0x000c, false, false },
	{ "QEMU's pcie-root-port with emulate=1", 0x1b36, 0x000c, true, true },
	{ "another Red Hat device with emulate=1", 0x1b36, 0x000d, true, false },
	{ "an AMD root port", 0x1022, 0x1483, true, false },
};

static void rp_desc(const struct rp_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rp, rp_cases, rp_desc);

static void ddio_dev_test_known_root_ports(struct kunit *test)
{
	const struct rp_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, ioca_rp_known(c->vendor, c->device, c->emulate),
			c->known);
}

struct mode_case {
	const char *desc;
	enum ioca_ddio_device_mode mode;
	u32 p0, p1, want0, want1;
};

static const struct mode_case mode_cases[] = {
	{ "off clears only bit 7", IOCA_DDIO_DEVICE_MODE_OFF,
	  0xf0f000ff, 0x12345678, 0xf0f0007f, 0x12345678 },
	{ "full-off clears bits 7 and 3, sets TPHDIS", IOCA_DDIO_DEVICE_MODE_FULL_OFF,
	  0xf0f000ff, 0x12345678, 0xf0f00077, 0x12345778 },
	{ "on restores the defaults of the three bits", IOCA_DDIO_DEVICE_MODE_ON,
	  0xf0f00008, 0x00000100, 0xf0f00080, 0x00000000 },
	{ "on of the defaults changes nothing", IOCA_DDIO_DEVICE_MODE_ON,
	  0x00000080, 0x00000000, 0x00000080, 0x00000000 },
};

static void mode_desc(const struct mode_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mode, mode_cases, mode_desc);

static void ddio_dev_test_mode_sets_only_its_bits(struct kunit *test)
{
	const struct mode_case *c = test->param_value;
	u32 p0 = c->p0, p1 = c->p1;

	ioca_rp_mode_regs(c->mode, &p0, &p1);
	KUNIT_EXPECT_EQ(test, p0, c->want0);
	KUNIT_EXPECT_EQ(test, p1, c->want1);
	/* and what it wrote reads as that mode */
	KUNIT_EXPECT_EQ(test, ioca_rp_mode_of(p0, p1), c->mode);
}

static void ddio_dev_test_mode_of_registers(struct kunit *test)
{
	/* bit 7 set is on whatever the others say */
	KUNIT_EXPECT_EQ(test, ioca_rp_mode_of(0x88, 0x100), IOCA_DDIO_DEVICE_MODE_ON);
	/* bit 7 clear but no-snoop writes or TPH still allocate: off, not full-off */
	KUNIT_EXPECT_EQ(test, ioca_rp_mode_of(0x08, 0x100), IOCA_DDIO_DEVICE_MODE_OFF);
	KUNIT_EXPECT_EQ(test, ioca_rp_mode_of(0x00, 0x000), IOCA_DDIO_DEVICE_MODE_OFF);
	KUNIT_EXPECT_EQ(test, ioca_rp_mode_of(0x00, 0x100), IOCA_DDIO_DEVICE_MODE_FULL_OFF);
}

struct addr_case {
	const char *desc;
	const char *s;
	int err;
	u32 domain, bus, dev, fn;
};

static const struct addr_case addr_cases[] = {
	{ "domain:bus:dev.fn", "0000:3a:00.0", 0, 0, 0x3a, 0, 0 },
	{ "bus:dev.fn, domain 0", "17:1f.7", 0, 0, 0x17, 0x1f, 7 },
	{ "domain 1", "0001:00:1c.0", 0, 1, 0, 0x1c, 0 },
	{ "no function", "0000:3a:00", -EINVAL },
	{ "trailing text", "0000:3a:00.0x", -EINVAL },
	{ "device 0x20 is beyond a slot", "00:20.0", -EINVAL },
	{ "function 8", "00:1c.8", -EINVAL },
	{ "bus 0x100", "0000:100:00.0", -EINVAL },
	{ "empty", "", -EINVAL },
};

static void addr_desc(const struct addr_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(addr, addr_cases, addr_desc);

static void ddio_dev_test_pci_address(struct kunit *test)
{
	const struct addr_case *c = test->param_value;
	u32 domain = 99, bus = 99, dev = 99, fn = 99;

	KUNIT_ASSERT_EQ(test, ioca_pci_addr_parse(c->s, &domain, &bus, &dev, &fn),
			c->err);
	if (c->err)
		return;
	KUNIT_EXPECT_EQ(test, domain, c->domain);
	KUNIT_EXPECT_EQ(test, bus, c->bus);
	KUNIT_EXPECT_EQ(test, dev, c->dev);
	KUNIT_EXPECT_EQ(test, fn, c->fn);
}

static struct kunit_case ddio_dev_test_cases[] = {
	KUNIT_CASE_PARAM(ddio_dev_test_known_root_ports, rp_gen_params),
	KUNIT_CASE_PARAM(ddio_dev_test_mode_sets_only_its_bits, mode_gen_params),
	KUNIT_CASE(ddio_dev_test_mode_of_registers),
	KUNIT_CASE_PARAM(ddio_dev_test_pci_address, addr_gen_params),
	{}
};

static struct kunit_suite ddio_dev_test_suite = {
	.name = "ioca-ddio-dev",
	.test_cases = ddio_dev_test_cases,
};

kunit_test_suite(ddio_dev_test_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests for ioca's DDIO per device");
IOCA_IMPORT_KUNIT_NS();
