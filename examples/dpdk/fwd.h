/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An L3 forwarder on DPDK's ethdev API over virtual ports (net_ring): each
 * poll reads a burst from every port, looks each IPv4 packet's flow up in an
 * exact-match table (rte_hash, DPDK l3fwd's "EM" mode) with a route lookup
 * (rte_lpm) for flows it does not know, rewrites the packet for its next
 * hop and queues it on the output port, sending a queue once it holds a TX
 * burst. The poll (handlers.c) is what libspec specializes: the RX and TX
 * burst sizes are spec_enum points, the lookup a spec_gen point whose
 * generator (fwd_gen.c) compiles a fast path for the hot flows.
 *
 * The structures are shared by the native code and the handler IR, which
 * clang-16 builds from the same headers.
 */
#ifndef DPDK_FWD_H
#define DPDK_FWD_H

#include <stdint.h>

#include <rte_ether.h>
#include <rte_mbuf.h>

#define FWD_MAX_PORTS 4
#define FWD_MAX_BURST 128
/* The burst sizes a policy may choose (the spec_enum points' values):
 * DPDK's usual 32, the extremes and one between, 16 pairs to search.
 */
#define FWD_BURSTS 4, 16, 32, 128

typedef unsigned __int128 fwd_key;

/* A flow's 5-tuple (addresses and ports in network order) as one integer:
 * the rte_hash key and the spec_gen point's input.
 */
static inline fwd_key fwd_key_of(uint32_t src, uint32_t dst, uint16_t sport, uint16_t dport,
				 uint8_t proto)
{
	return (fwd_key)src | (fwd_key)dst << 32 | (fwd_key)sport << 64 | (fwd_key)dport << 80 |
	       (fwd_key)proto << 96;
}

struct fwd_tables {
	struct rte_hash *flows; /* fwd_key -> output port (data: port + 1) */
	struct rte_lpm *routes; /* destination -> output port */
	uint64_t lookups;	/* calls of fwd_lookup(): the slow path's count */
};

struct fwd_txq {
	uint16_t len;
	struct rte_mbuf *m[FWD_MAX_BURST];
};

struct fwd {
	uint16_t port[FWD_MAX_PORTS]; /* ethdev port ids */
	unsigned int nr_ports;
	/* the generic burst sizes (1..FWD_MAX_BURST) */
	unsigned int rx_burst;
	unsigned int tx_burst;
	struct fwd_tables *tables;
	struct rte_ether_addr mac[FWD_MAX_PORTS];  /* ours, per port */
	struct rte_ether_addr peer[FWD_MAX_PORTS]; /* the next hop's, per port */
	struct fwd_txq txq[FWD_MAX_PORTS];
	uint64_t rx, tx, dropped;
};

/* Handlers (handlers.c). */

/* One poll of every port; returns the packets received. A poll that
 * receives nothing sends every queue's partial burst (the drain).
 */
unsigned int fwd_poll(struct fwd *f);
typedef unsigned int (*fwd_poll_fn)(struct fwd *f);

/* Native code the handlers call (fwd.c). */

/* The output port of a flow: its flow-table entry, else its destination's
 * route, else -1. Counts its calls in t->lookups.
 */
long fwd_lookup(struct fwd_tables *t, fwd_key key);
/* Frees packets that cannot go anywhere and counts them. */
void fwd_drop(struct fwd *f, struct rte_mbuf **m, unsigned int n);

#endif /* DPDK_FWD_H */
