// SPDX-License-Identifier: GPL-2.0
/*
 * Built twice: by spec-cc for the runtime, and natively by the JIT's own
 * compiler, level and target (the Makefile's NATIVE_CODE_FLAGS), so that
 * test_native_code can hold the generic variant's bytes against these.
 * The scan of a bucket is a loop the O2/O3 pipelines unroll and O1 does
 * not, so a generic variant built at a lower level shows too.
 */
#include "hash_probe.h"

long hash_probe_get(const struct hash_probe *t, unsigned long key)
{
	unsigned long i = hash_probe_home(key);

	for (;; i = (i + 1) & (HASH_PROBE_BUCKETS - 1)) {
		for (int j = 0; j < HASH_PROBE_WAYS; j++) {
			if (t->b[i].key[j] == key)
				return t->b[i].val[j];
			if (!t->b[i].key[j])
				return -1;
		}
	}
}
