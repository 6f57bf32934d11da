// SPDX-License-Identifier: GPL-2.0
#include "runtime_ref.h"

void rt_get(struct spec_runtime *rt)
{
	atomic_fetch_add_explicit(&rt->extra_refs, 1, memory_order_relaxed);
}

/*
 * Acquire-release: whatever the other holders did to the runtime happens
 * before the teardown of the thread that drops the last reference.
 */
bool rt_put_last(struct spec_runtime *rt)
{
	return atomic_fetch_sub_explicit(&rt->extra_refs, 1, memory_order_acq_rel) == 0;
}
