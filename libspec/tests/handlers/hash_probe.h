/* SPDX-License-Identifier: GPL-2.0 */
/* A plain lookup for test_native_code (no points, calls or globals). */
#ifndef TEST_HANDLERS_HASH_PROBE_H
#define TEST_HANDLERS_HASH_PROBE_H

#define HASH_PROBE_BITS 8
#define HASH_PROBE_BUCKETS (1ul << HASH_PROBE_BITS)
#define HASH_PROBE_WAYS 4

/*
 * Open addressing over buckets of HASH_PROBE_WAYS slots, probed in order,
 * bucket after bucket; key 0 marks an empty slot.
 */
struct hash_probe {
	struct {
		unsigned long key[HASH_PROBE_WAYS];
		long val[HASH_PROBE_WAYS];
	} b[HASH_PROBE_BUCKETS];
};

/* The value of @key, or -1 */
long hash_probe_get(const struct hash_probe *t, unsigned long key);

/*
 * The bucket where @key is looked up first. The shift by a variable count
 * is there for the target to show: shrx with BMI2, shr %cl without.
 */
static inline unsigned long hash_probe_home(unsigned long key)
{
	unsigned long h = key * 0xbf58476d1ce4e5b9ul;

	return (h ^ (h >> (key & 31))) >> (64 - HASH_PROBE_BITS);
}

#endif /* TEST_HANDLERS_HASH_PROBE_H */
