/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dpdk-fwd-replay: the forwarder on the ports the EAL makes from --vdev
 * arguments (by default net_pcap replaying a generated capture whose hot
 * flows shift and net_null as a sink; net_ring ones are polled but routed
 * to by no flow, as they send back what they are sent), each variant
 * measured over repeated runs (spread.h).
 */
#ifndef DPDK_REPLAY_H
#define DPDK_REPLAY_H

#include <stddef.h>

#include <rte_mempool.h>

#include "fwd.h"

struct replay {
	struct fwd f;
	struct rte_mempool *pool;
	struct spec_runtime *rt;
	fwd_poll_fn spec_poll;
	size_t total;	     /* packets in one replay of the capture */
	unsigned int nr_out; /* ports flows are routed to: the first ones */
};

#endif /* DPDK_REPLAY_H */
