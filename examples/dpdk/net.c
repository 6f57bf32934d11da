// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_hash.h>
#include <rte_hash_crc.h>
#include <rte_lpm.h>

#include "net.h"

#define RING_SIZE 4096
#define POOL_SIZE 8191

/* The EAL is one per process: so is its state here. */
static struct {
	bool started;
	int err;
	char runtime_dir[256];
} eal;

int net_eal_init_args(int argc, char **argv)
{
	if (eal.started)
		return eal.err;
	eal.started = true;
	if (rte_eal_init(argc, argv) < 0) {
		eal.err = -rte_errno;
		fprintf(stderr, "dpdk-fwd: rte_eal_init: %s\n", rte_strerror(rte_errno));
	}
	/* Made even when the arguments are refused later. */
	snprintf(eal.runtime_dir, sizeof(eal.runtime_dir), "%s", rte_eal_get_runtime_dir());
	return eal.err;
}

int net_eal_init(void)
{
	/* The EAL keeps pointers into its argv. A prefix per process: test
	 * runs in parallel never share a runtime directory.
	 */
	static char prefix[64];
	static char *argv[] = {
		"ioca-dpdk-fwd",  "-l",		 "0",	    "--no-huge",
		"--no-pci",	  "--no-shconf", "-m",	    "256",
		"--no-telemetry", "--log-level", "*:error", "--file-prefix",
		prefix,		  NULL,
	};

	if (!eal.started)
		snprintf(prefix, sizeof(prefix), "ioca-fwd-%ld", (long)getpid());
	return net_eal_init_args((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv);
}

void net_eal_fini(void)
{
	if (eal.started && !eal.err)
		rte_eal_cleanup();
	/* The EAL empties its runtime directory but leaves it: one directory
	 * per run would pile up under /var/run/dpdk.
	 */
	if (eal.runtime_dir[0] && rmdir(eal.runtime_dir) && errno != ENOENT)
		fprintf(stderr, "dpdk-fwd: %s left behind: %s\n", eal.runtime_dir, strerror(errno));
	eal.runtime_dir[0] = '\0';
	eal.err = -ESHUTDOWN;
}

static int start_port(struct net *n, const char *name, unsigned int i)
{
	static const struct rte_eth_conf conf;
	char rn[RTE_RING_NAMESIZE];
	int port;

	snprintf(rn, sizeof(rn), "%s_i%u", name, i);
	n->in[i] = rte_ring_create(rn, RING_SIZE, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	snprintf(rn, sizeof(rn), "%s_o%u", name, i);
	n->out[i] = rte_ring_create(rn, RING_SIZE, SOCKET_ID_ANY, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (!n->in[i] || !n->out[i])
		return -rte_errno;
	snprintf(rn, sizeof(rn), "%s_p%u", name, i);
	port = rte_eth_from_rings(rn, &n->in[i], 1, &n->out[i], 1, SOCKET_ID_ANY);
	if (port < 0)
		return -rte_errno;
	n->fwd.port[i] = (uint16_t)port;
	if (rte_eth_dev_configure(n->fwd.port[i], 1, 1, &conf) ||
	    rte_eth_rx_queue_setup(n->fwd.port[i], 0, RING_SIZE, SOCKET_ID_ANY, NULL, n->pool) ||
	    rte_eth_tx_queue_setup(n->fwd.port[i], 0, RING_SIZE, SOCKET_ID_ANY, NULL) ||
	    rte_eth_dev_start(n->fwd.port[i]))
		return -EIO;
	/* Locally administered addresses: 02:00:00:00:<port>:01 ours, :02 the peer's. */
	n->fwd.mac[i] = (struct rte_ether_addr){{2, 0, 0, 0, (uint8_t)i, 1}};
	n->fwd.peer[i] = (struct rte_ether_addr){{2, 0, 0, 0, (uint8_t)i, 2}};
	return 0;
}

struct net *net_new(const char *name, unsigned int nr_ports, struct fwd_tables *t)
{
	char pn[RTE_MEMPOOL_NAMESIZE];
	struct net *n;
	unsigned int i;
	int err;

	if (!nr_ports || nr_ports > FWD_MAX_PORTS || !t) {
		fprintf(stderr, "dpdk-fwd: net_new: %u ports (1..%d) or no tables\n", nr_ports,
			FWD_MAX_PORTS);
		errno = EINVAL;
		return NULL;
	}
	err = net_eal_init();
	if (err) {
		errno = -err;
		return NULL;
	}
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->fwd.nr_ports = nr_ports;
	n->fwd.rx_burst = n->fwd.tx_burst = 32;
	n->fwd.tables = t;
	snprintf(pn, sizeof(pn), "%s_pool", name);
	n->pool = rte_pktmbuf_pool_create(pn, POOL_SIZE, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
					  SOCKET_ID_ANY);
	err = n->pool ? 0 : -rte_errno;
	for (i = 0; !err && i < nr_ports; i++)
		err = start_port(n, name, i);
	if (err) {
		fprintf(stderr, "dpdk-fwd: %s: setting up port %u: %s\n", name, i,
			rte_strerror(-err));
		net_free(n);
		errno = -err;
		return NULL;
	}
	return n;
}

static void drain_ring(struct rte_ring *r)
{
	void *m[64];
	unsigned int k;

	while (r && (k = rte_ring_dequeue_burst(r, m, 64, NULL)))
		rte_pktmbuf_free_bulk((struct rte_mbuf **)m, k);
}

void net_free(struct net *n)
{
	unsigned int i;

	if (!n)
		return;
	for (i = 0; i < n->fwd.nr_ports; i++) {
		struct fwd_txq *q = &n->fwd.txq[i];

		rte_pktmbuf_free_bulk(q->m, q->len);
		q->len = 0;
		if (n->in[i] || n->out[i]) {
			rte_eth_dev_stop(n->fwd.port[i]);
			rte_eth_dev_close(n->fwd.port[i]);
		}
		drain_ring(n->in[i]);
		drain_ring(n->out[i]);
		rte_ring_free(n->in[i]);
		rte_ring_free(n->out[i]);
	}
	rte_mempool_free(n->pool);
	free(n);
}

struct fwd_tables *tables_new(const char *name, unsigned int max_flows)
{
	char hn[RTE_HASH_NAMESIZE];
	struct rte_hash_parameters hp = {
		.name = hn,
		.entries = max_flows < 8 ? 8 : max_flows,
		.key_len = sizeof(fwd_key),
		.hash_func = rte_hash_crc,
		.socket_id = SOCKET_ID_ANY,
	};
	struct rte_lpm_config lc = {.max_rules = 1024, .number_tbl8s = 256};
	struct fwd_tables *t;
	int err = net_eal_init();

	if (err) {
		errno = -err;
		return NULL;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	snprintf(hn, sizeof(hn), "%s_flows", name);
	t->flows = rte_hash_create(&hp);
	snprintf(hn, sizeof(hn), "%s_routes", name);
	t->routes = t->flows ? rte_lpm_create(hn, SOCKET_ID_ANY, &lc) : NULL;
	if (!t->routes) {
		fprintf(stderr, "dpdk-fwd: %s: creating the tables: %s\n", name,
			rte_strerror(rte_errno));
		err = rte_errno;
		tables_free(t);
		errno = err;
		return NULL;
	}
	return t;
}

int tables_add_flow(struct fwd_tables *t, fwd_key key, unsigned int port)
{
	return rte_hash_add_key_data(t->flows, &key, (void *)(uintptr_t)(port + 1));
}

int tables_add_route(struct fwd_tables *t, uint32_t prefix, uint8_t len, unsigned int port)
{
	return rte_lpm_add(t->routes, prefix, len, port);
}

void tables_free(struct fwd_tables *t)
{
	if (!t)
		return;
	rte_hash_free(t->flows);
	rte_lpm_free(t->routes);
	free(t);
}

long fwd_lookup(struct fwd_tables *t, fwd_key key)
{
	void *port;
	uint32_t hop;

	t->lookups++;
	if (rte_hash_lookup_data(t->flows, &key, &port) >= 0)
		return (long)(uintptr_t)port - 1;
	/* The destination, in network order in the key, is in host order in the table. */
	if (!rte_lpm_lookup(t->routes, rte_be_to_cpu_32((uint32_t)(key >> 32)), &hop))
		return hop;
	return -1;
}

void fwd_drop(struct fwd *f, struct rte_mbuf **m, unsigned int n)
{
	f->dropped += n;
	rte_pktmbuf_free_bulk(m, n);
}
