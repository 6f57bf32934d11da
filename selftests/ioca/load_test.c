// SPDX-License-Identifier: GPL-2.0
/*
 * Which backend loads depends on the CPU, read here from CPUID as the
 * module must: on a model with DDIO way control (Skylake-SP and later
 * server parts) a plain insmod picks "msr"; on anything else it is refused
 * with a message naming the emulate=1 way out, which then works. Run first
 * in a boot, with the module not loaded; leaves it loaded when it can.
 */
#include <cpuid.h>

#include "ioca_fixture.h"
#include "kmod_load.h"
#include "kmsg.h"

static bool cpu_has_ddio_ways(void)
{
	static const unsigned int models[] = {0x55, 0x6a, 0x6c, 0x8f, 0xcf, 0xad};
	unsigned int a, b, c, d, family, model;
	size_t i;

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return false;
	/* "GenuineIntel" in EBX, EDX, ECX. */
	if (b != 0x756e6547 || d != 0x49656e69 || c != 0x6c65746e)
		return false;
	__get_cpuid(1, &a, &b, &c, &d);
	family = (a >> 8) & 0xf;
	model = ((a >> 4) & 0xf) | (((a >> 16) & 0xf) << 4);
	if (family != 6)
		return false;
	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (model == models[i])
			return true;
	return false;
}

static void ensure_unloaded(struct __test_metadata *_metadata)
{
	if (kmod_loaded("ioca"))
		ASSERT_EQ(0, kmod_unload("ioca", 5000));
}

static void expect_backend(struct __test_metadata *_metadata, uint32_t backend, const char *name)
{
	struct ioca_info info;
	struct tnl_reply r;
	struct tnl nl;

	ASSERT_EQ(0, tnl_open(&nl, IOCA_FAMILY_NAME));
	ASSERT_EQ(0, ioca_info_get(&nl, &info, &r)) TH_LOG("%s", r.msg);
	EXPECT_EQ(backend, info.backend);
	EXPECT_STREQ(name, info.backend_name);
	ASSERT_LE(1, info.nsockets);
	EXPECT_LE(info.min_ways, info.sockets[0].llc_ways);
	tnl_close(&nl);
}

TEST(load_with_emulate_selects_the_emulated_backend)
{
	ensure_unloaded(_metadata);
	ASSERT_EQ(0, kmod_load(kmod_path(), "emulate=1"))
	TH_LOG("insmod %s emulate=1", kmod_path());
	expect_backend(_metadata, IOCA_BACKEND_EMULATED, "emulated");
	ASSERT_EQ(0, kmod_unload("ioca", 5000));
}

TEST(load_without_emulate_follows_the_cpu_model)
{
	size_t mark;
	int err;

	ensure_unloaded(_metadata);
	mark = kmsg_mark();
	err = kmod_load(kmod_path(), "");
	if (cpu_has_ddio_ways()) {
		TH_LOG("CPU model has DDIO way control: expecting the msr backend");
		ASSERT_EQ(0, err);
		expect_backend(_metadata, IOCA_BACKEND_MSR, "msr");
		return;
	}
	TH_LOG("CPU model without DDIO way control: expecting a refusal");
	ASSERT_EQ(-ENODEV, err);
	EXPECT_FALSE(kmod_loaded("ioca"));
	EXPECT_EQ(1, kmsg_contains(mark, "emulate=1"))
	TH_LOG("the refusal must say how to emulate");
	EXPECT_EQ(1, kmsg_contains(mark, "no DDIO way control"));
}

TEST_HARNESS_MAIN
