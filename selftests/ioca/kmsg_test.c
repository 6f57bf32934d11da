// SPDX-License-Identifier: GPL-2.0
/* Last in every boot: nothing the tests did left a splat in the kernel log. */
#include "kselftest_harness.h"
#include "kmsg.h"

TEST(kernel_log_has_no_warn_bug_or_oops)
{
	char splat[256];

	EXPECT_EQ(0, kmsg_find_splat(0, splat, sizeof(splat))) TH_LOG("kernel log: %s", splat);
}

TEST_HARNESS_MAIN
