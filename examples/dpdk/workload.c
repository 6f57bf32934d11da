// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ip.h>
#include <rte_udp.h>

#include "workload.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static fwd_key random_key(uint64_t *s, uint32_t dst)
{
	uint8_t proto = rnd(s) % 2 ? IPPROTO_UDP : IPPROTO_TCP;

	return fwd_key_of((uint32_t)rnd(s), dst, (uint16_t)rnd(s), (uint16_t)rnd(s), proto);
}

/* A destination (network order) under a random route, so the LPM answers. */
static uint32_t routed_dst(const struct workload *w, uint64_t *s)
{
	unsigned int r = (unsigned int)(rnd(s) % w->o.nr_routes);
	uint32_t host = w->routes[r] | ((uint32_t)rnd(s) & (0xffffffffu >> w->route_len[r]));

	return rte_cpu_to_be_32(host);
}

static void pick_hot(struct workload *w, unsigned int *hot, uint64_t *s, unsigned int skip)
{
	unsigned int i;

	/* Flows [skip, skip + nr_hot) of a random rotation: disjoint sets for
	 * successive skips.
	 */
	uint64_t base = rnd(s) % w->o.nr_flows;

	for (i = 0; i < w->o.nr_hot; i++)
		hot[i] = (unsigned int)((base + skip + i) % w->o.nr_flows);
}

static void make_stream(struct workload *w, uint64_t seed, unsigned int skip)
{
	unsigned int hot[256];
	uint64_t s = seed;
	size_t i;

	pick_hot(w, hot, &s, skip);
	for (i = 0; i < w->o.nr_pkts; i++) {
		unsigned int r = (unsigned int)(rnd(&s) % 100);

		w->kind[i] = PKT_KNOWN;
		if (r < w->o.hot_pct) {
			w->keys[i] = w->flows[hot[rnd(&s) % w->o.nr_hot]];
			continue;
		}
		r = (unsigned int)(rnd(&s) % 100);
		if (r < 60) {
			w->keys[i] = w->flows[rnd(&s) % w->o.nr_flows];
		} else if (r < 90) {
			w->kind[i] = PKT_UNKNOWN;
			/* Half routed, half to addresses no route may cover. */
			w->keys[i] =
				random_key(&s, rnd(&s) % 2 ? routed_dst(w, &s) : (uint32_t)rnd(&s));
		} else {
			w->kind[i] = r < 95 ? PKT_TTL1 : PKT_ARP;
			w->keys[i] = w->flows[rnd(&s) % w->o.nr_flows];
		}
	}
}

int workload_init(struct workload *w, const struct workload_opts *o)
{
	uint64_t s = o->seed | 1;
	unsigned int i;

	memset(w, 0, sizeof(*w));
	if (!o->nr_ports || o->nr_ports > FWD_MAX_PORTS || !o->nr_flows || !o->nr_routes ||
	    !o->nr_hot || o->nr_hot > 256 || o->nr_hot > o->nr_flows || o->hot_pct > 100 ||
	    !o->nr_pkts)
		return -EINVAL;
	w->o = *o;
	w->flows = calloc(o->nr_flows, sizeof(*w->flows));
	w->flow_port = calloc(o->nr_flows, sizeof(*w->flow_port));
	w->routes = calloc(o->nr_routes, sizeof(*w->routes));
	w->route_len = calloc(o->nr_routes, 1);
	w->keys = calloc(o->nr_pkts, sizeof(*w->keys));
	w->kind = calloc(o->nr_pkts, 1);
	if (!w->flows || !w->flow_port || !w->routes || !w->route_len || !w->keys || !w->kind) {
		workload_fini(w);
		return -ENOMEM;
	}
	for (i = 0; i < o->nr_routes; i++) {
		w->route_len[i] = (uint8_t)(8 + rnd(&s) % 17);
		w->routes[i] = (uint32_t)rnd(&s) & ~(0xffffffffu >> w->route_len[i]);
	}
	for (i = 0; i < o->nr_flows; i++) {
		/* Keys are distinct with overwhelming odds; a repeat only
		 * shares an entry.
		 */
		w->flows[i] = random_key(&s, routed_dst(w, &s));
		w->flow_port[i] = (unsigned int)(rnd(&s) % o->nr_ports);
	}
	make_stream(w, s, 0);
	return 0;
}

void workload_shift(struct workload *w)
{
	w->shifts++;
	make_stream(w, w->o.seed * 31 + w->shifts, w->shifts * w->o.nr_hot);
}

void workload_fini(struct workload *w)
{
	free(w->flows);
	free(w->flow_port);
	free(w->routes);
	free(w->route_len);
	free(w->keys);
	free(w->kind);
	memset(w, 0, sizeof(*w));
}

int workload_fill(const struct workload *w, struct fwd_tables *t)
{
	unsigned int i;
	int err;

	for (i = 0; i < w->o.nr_routes; i++) {
		err = tables_add_route(t, w->routes[i], w->route_len[i], i % w->o.nr_ports);
		if (err)
			return err;
	}
	for (i = 0; i < w->o.nr_flows; i++) {
		err = tables_add_flow(t, w->flows[i], w->flow_port[i]);
		if (err)
			return err;
	}
	return 0;
}

void workload_frame(const struct workload *w, size_t p, uint32_t seq, uint8_t *buf)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)buf;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	uint16_t *l4 = (uint16_t *)(ip + 1);
	uint8_t *payload = buf + WORKLOAD_PKT_LEN - sizeof(seq);
	fwd_key key = w->keys[p % w->o.nr_pkts];
	uint8_t kind = w->kind[p % w->o.nr_pkts];

	memset(eth, 0, WORKLOAD_PKT_LEN);
	eth->dst_addr = (struct rte_ether_addr){{2, 0, 0, 0, 0xff, 1}};
	eth->src_addr = (struct rte_ether_addr){{2, 0, 0, 0, 0xff, 2}};
	eth->ether_type =
		rte_cpu_to_be_16(kind == PKT_ARP ? RTE_ETHER_TYPE_ARP : RTE_ETHER_TYPE_IPV4);
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->total_length = rte_cpu_to_be_16(WORKLOAD_PKT_LEN - sizeof(*eth));
	ip->time_to_live = kind == PKT_TTL1 ? 1 : 64;
	ip->src_addr = (uint32_t)key;
	ip->dst_addr = (uint32_t)(key >> 32);
	ip->next_proto_id = (uint8_t)(key >> 96);
	l4[0] = (uint16_t)(key >> 64);
	l4[1] = (uint16_t)(key >> 80);
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	memcpy(payload, &seq, sizeof(seq));
}

unsigned int workload_inject(const struct workload *w, struct net *n, unsigned int port,
			     size_t *pos, unsigned int count)
{
	struct rte_mbuf *m[256];
	unsigned int i, k;

	if (count > 256)
		count = 256;
	count = rte_ring_free_count(n->in[port]) < count ? rte_ring_free_count(n->in[port]) : count;
	if (!count || rte_pktmbuf_alloc_bulk(n->pool, m, count))
		return 0;
	for (i = 0; i < count; i++) {
		size_t p = (*pos + i) % w->o.nr_pkts;

		workload_frame(w, p, port << 24 | (uint32_t)((*pos + i) & 0xffffff),
			       rte_pktmbuf_mtod(m[i], uint8_t *));
		m[i]->data_len = m[i]->pkt_len = WORKLOAD_PKT_LEN;
	}
	k = rte_ring_enqueue_burst(n->in[port], (void **)m, count, NULL);
	if (k < count)
		rte_pktmbuf_free_bulk(m + k, count - k);
	*pos += k;
	return k;
}

size_t workload_collect(struct net *n, unsigned int port, uint8_t *out, size_t max)
{
	struct rte_mbuf *m[256];
	size_t taken = 0;
	unsigned int k, i;

	while ((k = rte_ring_dequeue_burst(n->out[port], (void **)m, 256, NULL))) {
		for (i = 0; i < k; i++, taken++)
			if (out && taken < max)
				memcpy(out + taken * WORKLOAD_PKT_LEN,
				       rte_pktmbuf_mtod(m[i], const uint8_t *), WORKLOAD_PKT_LEN);
		rte_pktmbuf_free_bulk(m, k);
	}
	return taken;
}
