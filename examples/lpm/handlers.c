// SPDX-License-Identifier: GPL-2.0
/*
 * The route lookups a packet-forwarding service calls per packet. Natively
 * they are plain calls of the table's lookup; under the JIT the spec_gen
 * points let lpm_gen.c compile the hot destinations (FP), the whole table
 * as nested ifs (NI), or both (NI-FP).
 */
#include <libspec/annotate.h>

#include "handlers.h"

long route4(const struct lpm *t, uint32_t dst)
{
	return spec_gen("lpm4", lpm4_lookup, t, dst);
}

long route6(const struct lpm *t, lpm_u128 dst)
{
	return spec_gen("lpm6", lpm6_lookup, t, dst);
}
