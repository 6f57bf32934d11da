// SPDX-License-Identifier: GPL-2.0
/*
 * The handler of policy_vm_test: one operation is R dependent loads from a
 * table larger than any LLC, R a free choice the policy searches. Each
 * candidate does R times the loads (misses on real hardware, emulated
 * memory accesses under TCG) of R = 1 per operation: its cost per
 * operation is ordered by R whatever the machine.
 */
#include <stdint.h>

#include <libspec/annotate.h>

uint64_t vm_probe(const uint64_t *tab, uint64_t mask, uint64_t x, int rounds)
{
	const int R = spec_enum("rounds", rounds, 1, 64, 4096);

	for (int i = 0; i < R; i++)
		x = tab[(x * 0x9e3779b97f4a7c15ull >> 17) & mask] ^ (x + (uint64_t)i);
	return x;
}
