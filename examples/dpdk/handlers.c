// SPDX-License-Identifier: GPL-2.0
/*
 * The forwarder's poll, the code libspec specializes. Natively the
 * annotations are identities; in the IR (spec-cc) the burst sizes become
 * constants the policy chooses (the loops over a burst then have a known
 * trip count) and the lookup becomes whatever fwd_gen.c emits for the hot
 * flows in front of the generic lookup. DPDK's rx/tx burst calls are inline
 * functions of rte_ethdev.h, so they are part of the IR too.
 */
#include <libspec/annotate.h>

#include <rte_ethdev.h>
#include <rte_ip.h>

#include "fwd.h"

static void send_queue(struct fwd *f, unsigned int hop)
{
	struct fwd_txq *q = &f->txq[hop];
	uint16_t sent = rte_eth_tx_burst(f->port[hop], 0, q->m, q->len);

	f->tx += sent;
	if (sent < q->len)
		fwd_drop(f, q->m + sent, q->len - sent);
	q->len = 0;
}

/* Rewrites @m for its next hop; returns its output port, or -1 to drop it. */
static long route(struct fwd *f, struct rte_mbuf *m)
{
	struct rte_ether_hdr *eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	uint16_t sport = 0, dport = 0;
	uint32_t sum;
	long hop;

	if (m->data_len < sizeof(*eth) + sizeof(*ip) + 4 ||
	    eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
	    ip->version_ihl != RTE_IPV4_VHL_DEF || ip->time_to_live <= 1)
		return -1;
	if (ip->next_proto_id == IPPROTO_TCP || ip->next_proto_id == IPPROTO_UDP) {
		const uint16_t *l4 = (const uint16_t *)(ip + 1);

		sport = l4[0];
		dport = l4[1];
	}
	hop = spec_gen("flow", fwd_lookup, f->tables,
		       fwd_key_of(ip->src_addr, ip->dst_addr, sport, dport, ip->next_proto_id));
	if (hop < 0 || hop >= (long)f->nr_ports)
		return -1;
	/* TTL is the high byte of its 16-bit word: RFC 1624's update of the
	 * one's complement sum for that word going down by 0x0100. The swaps
	 * are builtins: DPDK's x86 rte_bswap16 is inline assembly, which the
	 * optimizer cannot see through and libspec's JIT cannot assemble.
	 */
	ip->time_to_live--;
	sum = (uint32_t)__builtin_bswap16(ip->hdr_checksum) + 0x0100;
	sum = (sum & 0xffff) + (sum >> 16);
	ip->hdr_checksum = __builtin_bswap16((uint16_t)sum);
	rte_ether_addr_copy(&f->peer[hop], &eth->dst_addr);
	rte_ether_addr_copy(&f->mac[hop], &eth->src_addr);
	return hop;
}

unsigned int fwd_poll(struct fwd *f)
{
	unsigned int rx_burst = spec_enum("rx_burst", f->rx_burst, FWD_BURSTS);
	unsigned int tx_burst = spec_enum("tx_burst", f->tx_burst, FWD_BURSTS);
	struct rte_mbuf *pkts[FWD_MAX_BURST], *drop[FWD_MAX_BURST];
	unsigned int p, i, got = 0;

	for (p = 0; p < f->nr_ports; p++) {
		uint16_t n = rte_eth_rx_burst(f->port[p], 0, pkts, (uint16_t)rx_burst);
		unsigned int nr_drop = 0;

		for (i = 0; i < n; i++) {
			long hop = route(f, pkts[i]);
			struct fwd_txq *q;

			if (hop < 0) {
				drop[nr_drop++] = pkts[i];
				continue;
			}
			q = &f->txq[hop];
			q->m[q->len++] = pkts[i];
			if (q->len >= tx_burst)
				send_queue(f, (unsigned int)hop);
		}
		if (nr_drop)
			fwd_drop(f, drop, nr_drop);
		got += n;
	}
	f->rx += got;
	if (!got)
		for (p = 0; p < f->nr_ports; p++)
			if (f->txq[p].len)
				send_queue(f, p);
	return got;
}
