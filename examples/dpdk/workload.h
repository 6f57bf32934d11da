/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A deterministic traffic source and sink for the forwarder: tables of
 * known flows and routes, and a packet stream from a seed in which a few
 * hot flows carry most packets (the rest: other known flows, unknown flows
 * that only a route or nothing matches, expiring TTLs, non-IPv4 frames).
 * Each packet carries its stream index, so outputs can be compared packet
 * by packet.
 */
#ifndef DPDK_WORKLOAD_H
#define DPDK_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"

#define WORKLOAD_PKT_LEN 64

struct workload_opts {
	uint64_t seed;
	unsigned int nr_ports;	/* output ports the tables spread over */
	unsigned int nr_flows;	/* known flows (the rte_hash) */
	unsigned int nr_routes; /* routes (rte_lpm), /8../24 */
	unsigned int nr_hot;	/* hot flows */
	unsigned int hot_pct;	/* share of packets from the hot flows */
	size_t nr_pkts;		/* stream length (the stream repeats) */
};

struct workload {
	struct workload_opts o;
	fwd_key *flows;
	unsigned int *flow_port;
	uint32_t *routes; /* prefixes, host order */
	uint8_t *route_len;
	/* per packet: the flow index (< nr_flows), or an unknown key's kind */
	fwd_key *keys;
	uint8_t *kind;
	unsigned int shifts;
};

enum { PKT_KNOWN, PKT_UNKNOWN, PKT_TTL1, PKT_ARP };

int workload_init(struct workload *w, const struct workload_opts *o);
/* Moves the hot set to flows disjoint from the current one. */
void workload_shift(struct workload *w);
void workload_fini(struct workload *w);
/* The workload's flows and routes in @t. 0 or -errno. */
int workload_fill(const struct workload *w, struct fwd_tables *t);

/* Writes packet @p of the stream (wrapping), WORKLOAD_PKT_LEN bytes
 * carrying @seq in its last 4, to @buf.
 */
void workload_frame(const struct workload *w, size_t p, uint32_t seq, uint8_t *buf);

/* Builds packets @pos.. of the stream (wrapping) and puts up to @count of
 * them on port @port's input ring; returns how many, advances @pos. Each
 * packet's last 4 bytes: @port << 24 | its stream position (low 24 bits).
 */
unsigned int workload_inject(const struct workload *w, struct net *n, unsigned int port,
			     size_t *pos, unsigned int count);

/* Takes what port @port sent: copies up to @max packets' first
 * WORKLOAD_PKT_LEN bytes to @out (may be NULL) and frees them all; returns
 * the number taken.
 */
size_t workload_collect(struct net *n, unsigned int port, uint8_t *out, size_t max);

#endif /* DPDK_WORKLOAD_H */
