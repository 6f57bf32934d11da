/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The forwarder's setting on virtual devices, so it runs on any machine:
 * DPDK's EAL without hugepages or PCI on one lcore, one net_ring port per
 * forwarder port (an input ring a generator fills, an output ring a
 * collector drains), a packet pool, and the lookup tables.
 */
#ifndef DPDK_NET_H
#define DPDK_NET_H

#include <rte_mempool.h>
#include <rte_ring.h>

#include "fwd.h"

/* Starts the EAL once per process (-l 0 --no-huge --no-pci --no-shconf);
 * later calls return its first result. 0 or -errno.
 */
int net_eal_init(void);
/* The same with the caller's EAL arguments (kept by the EAL: static). */
int net_eal_init_args(int argc, char **argv);
/* Releases the EAL's resources at exit; it cannot be started again
 * (net_eal_init() then returns -ESHUTDOWN).
 */
void net_eal_fini(void);

struct net {
	struct fwd fwd;
	struct rte_ring *in[FWD_MAX_PORTS];
	struct rte_ring *out[FWD_MAX_PORTS];
	struct rte_mempool *pool;
};

/* @nr_ports ports named after @name (unique per process), bursts of 32. */
struct net *net_new(const char *name, unsigned int nr_ports, struct fwd_tables *t);
void net_free(struct net *n);

struct fwd_tables *tables_new(const char *name, unsigned int max_flows);
/* @key -> @port; -errno */
int tables_add_flow(struct fwd_tables *t, fwd_key key, unsigned int port);
/* @prefix/@len (host order) -> @port; -errno */
int tables_add_route(struct fwd_tables *t, uint32_t prefix, uint8_t len, unsigned int port);
void tables_free(struct fwd_tables *t);

#endif /* DPDK_NET_H */
