/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fast path of the forwarder's "flow" lookup (a spec_gen point): the k
 * hottest sampled flows compiled as a switch on the 128-bit flow key whose
 * answers are the output ports the samples saw; every other key takes the
 * generic lookup (rte_hash, then rte_lpm). k is the generator's parameter,
 * so a policy searches it like any value (the paper's Fig. 9).
 */
#ifndef DPDK_FWD_GEN_H
#define DPDK_FWD_GEN_H

#include <libspec/gen.h>

#include "fwd.h"

#define FWD_FLOW_LABEL "flow"

/* spec_gen_fn for FWD_FLOW_LABEL; @ctx unused. */
int fwd_gen(void *ctx, struct spec_gen *g);

/*
 * A configuration: burst sizes @rx and @tx (0: left generic; set, their
 * guard is off, as any burst size forwards correctly), a fast path of @k
 * flows for tables @t (0: none), sampling the lookup every @every calls
 * (0: off). NULL and errno on failure.
 */
struct spec_config *fwd_config(unsigned int rx, unsigned int tx, struct fwd_tables *t,
			       unsigned int k, uint32_t every);

#endif /* DPDK_FWD_GEN_H */
