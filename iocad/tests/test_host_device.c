// SPDX-License-Identifier: GPL-2.0
/* The host's stand-in for a storage device's DMA writes: the block layer's bytes read. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fake_tree.h"
#include "host_device.h"

static void test_host_device_block_bytes_sums_namespaces(void **u)
{
	static const char *const dirs[] = {
		"0000:5e:00.0",
		"0000:5e:00.0/nvme",
		"0000:5e:00.0/nvme/nvme0",
		"0000:5e:00.0/nvme/nvme0/nvme0n1",
		"0000:5e:00.0/nvme/nvme0/nvme0n2",
		"0000:5e:00.0/nvme/nvme0/nvme0n1/nvme0n1p1",
		"0000:3b:00.0",
		"0000:5f:00.0",
		"0000:5f:00.0/nvme",
		"0000:5f:00.0/nvme/nvme1",
		"0000:5f:00.0/nvme/nvme1/nvme1n1",
	};
	char root[] = "/tmp/iocad-pciXXXXXX";
	uint64_t bytes = 7;

	(void)u;
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		fake_tree_mkdir(root, dirs[i]);
	fake_tree_put(root, "0000:5e:00.0/nvme/nvme0/nvme0n1/stat",
		      "     100        3     2048      10 0 0 0 0 0 0 0\n");
	fake_tree_put(root, "0000:5e:00.0/nvme/nvme0/nvme0n2/stat", "1 0 8 0 5 0 16 0 0 0 0\n");
	/* a partition is part of its namespace: not counted twice */
	fake_tree_put(root, "0000:5e:00.0/nvme/nvme0/nvme0n1/nvme0n1p1/stat", "1 0 1000 0\n");
	assert_int_equal(host_device_block_bytes(root, "0000:5e:00.0", &bytes), 0);
	assert_true(bytes == (2048 + 8) * 512ull);
	/* not NVMe (a NIC): not measured, @bytes untouched */
	bytes = 7;
	assert_int_equal(host_device_block_bytes(root, "0000:3b:00.0", &bytes), -ENODATA);
	assert_true(bytes == 7);
	/* a stat file that does not parse */
	fake_tree_put(root, "0000:5f:00.0/nvme/nvme1/nvme1n1/stat", "garbage\n");
	assert_int_equal(host_device_block_bytes(root, "0000:5f:00.0", &bytes), -ENODATA);
	fake_tree_remove(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_device_block_bytes_sums_namespaces),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
