// SPDX-License-Identifier: GPL-2.0
/*
 * Built twice: by spec-cc for the runtime, and natively by the JIT's own
 * compiler, level and target (the Makefile's NATIVE_CODE_FLAGS), so that
 * test_native_code can hold the generic variant's bytes against these.
 */
#include "hash_probe.h"

long hash_probe_get(const struct hash_probe *t, unsigned long key)
{
	unsigned long i = hash_probe_home(key);

	for (;; i = (i + 1) & (HASH_PROBE_SIZE - 1)) {
		if (t->slot[i].key == key)
			return t->slot[i].val;
		if (!t->slot[i].key)
			return -1;
	}
}
