/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's equations (SIMULATOR.md): from the platform, each
 * tenant's workload and the current CAT and DDIO masks to steady-state
 * rates per second: instructions, cycles, LLC references and misses per
 * tenant, DDIO hits and misses, memory traffic. No time, no noise, no I/O:
 * sim_platform.c integrates these rates over intervals and events.
 */
#ifndef IOCAD_SIM_MODEL_H
#define IOCAD_SIM_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"
#include "sim_pool.h"

#define SIM_LINE 64.0

struct sim_params {
	unsigned int ways;   /* LLC ways of the socket */
	double way_bytes;    /* bytes per way (LLC size / ways) */
	double miss_penalty; /* cycles an LLC miss stalls a core on an idle memory system */
	double ghz;	     /* core clock */
	/*
	 * The inclusive ways (A4): a DCA line a core has read moves into
	 * them (SIMULATOR.md, "Where RX lines live"). 0: it stays where it
	 * is, in DDIO's ways.
	 */
	uint32_t incl_mask;
	double leak_cycles; /* cycles a consumer loses per DDIO write miss on its rings */
	double llc_latency; /* cycles of an LLC hit (latency figure only) */
	double l2_bytes;    /* private L2 per core; 0: not modelled (ws is LLC-level) */
	double l2_latency;  /* cycles of an L2 hit (latency figure only) */
	/*
	 * Loaded latency (SIMULATOR.md, "Memory bandwidth"): a miss costs
	 * miss_penalty * (1 + mem_slope * u / (1 - u)), u = DRAM traffic /
	 * mem_bw (at most SIM_MEM_U_MAX). mem_bw 0: no contention.
	 */
	double mem_bw;	  /* peak DRAM bandwidth of the socket, bytes/s */
	double mem_slope; /* how fast latency rises with utilisation */
	/*
	 * The RX ring as a finite buffer (sim_loss.h; SIMULATOR.md, "Zero-loss
	 * throughput"): the longest a polling core stops serving its rings in
	 * one RFC2544 trial, and the packets it takes per queue per poll.
	 */
	double stall;	 /* seconds */
	double rx_burst; /* packets */
};

#define SIM_MEM_U_MAX 0.95

/* What a tenant runs; sizes in bytes, rates per second. */
struct sim_workload {
	bool active; /* false: not started yet or left; its cores idle */
	double ws;   /* working set of its own data */
	double rpi;  /* LLC references per instruction to its own data */
	double cpi;  /* cycles per instruction when every reference hits */
	/* Packet processing: rate > 0 makes the tenant an RX ring consumer. */
	double rate;	   /* offered packets per second */
	double pkt;	   /* packet size */
	double buf;	   /* RX buffer size per descriptor */
	unsigned int ring; /* descriptors per RX queue */
	unsigned int queues;
	double ipp;   /* instructions per packet */
	double touch; /* bytes of each packet the core reads */
	/* Virtual switch: flow table (part of its own data) and lookup cost. */
	double flows;
	double flow_bytes; /* bytes per flow-table entry */
	double emc_flows;  /* flows the exact-match cache holds; beyond, lookups cost more */
	double flow_refs;  /* extra references of a lookup that misses the exact-match cache */
	double mlp;	   /* misses it overlaps (batched, prefetched lookups): stall = P/mlp */
	bool dca;	   /* its NIC writes into the LLC (DDIO on for the device); else to DRAM */
	/*
	 * Share of its received packets it sends back out (forwarding): the
	 * NIC's TX DMA reads each such packet from the LLC if cached (a DDIO
	 * read, no allocation) or from DRAM (SIMULATOR.md, "TX reads").
	 */
	double tx;
	/* Storage I/O its device writes by DMA (sim_device.h). */
	double dma_rate;    /* bytes per second; 0: none */
	double dma_block;   /* bytes per I/O */
	double dma_buffers; /* bytes of distinct buffers the writes land in */
	bool dma_reread;    /* its cores read every block once it is complete */
};

struct sim_tenant {
	unsigned int ncpus;
	uint32_t mask; /* CAT ways its cores may allocate into */
	struct sim_workload w;
	/* its storage device's writes do not allocate (sim_device.h) */
	bool dma_ddio_off;
};

struct sim_tenant_rates {
	double instructions;
	double cycles; /* unhalted: a packet consumer halts when it has no work */
	double llc_refs;
	double llc_misses;
	double pkts;	 /* packets processed */
	double drops;	 /* offered but not taken: the ring was full */
	double hit_own;	 /* hit ratio of its own data */
	double t_char;	 /* characteristic time of its lines, s (INFINITY: all fit) */
	double occ;	 /* bytes it holds in the LLC */
	double ring_hit; /* DDIO write hit ratio of its RX buffers */
	/* Shares of its RX ring's lines resident in DDIO's ways, the inclusive ways, or gone */
	double ring_ddio, ring_incl, ring_gone;
	double ring_mc;	  /* probability a line the core reads was evicted first */
	double lat_ns;	  /* mean latency of a reference to its own data (L2/LLC/DRAM) */
	double cpp;	  /* cycles per packet processed (packet consumers) */
	double tx_reads;  /* lines/s the NIC's TX DMA reads */
	double tx_misses; /* of them, lines/s read from DRAM (not cached) */
	/* its storage device's DMA writes, bytes per second (sim_device.h) */
	double dma_bytes;
};

struct sim_rates {
	unsigned int ntenants;
	struct sim_tenant_rates tenant[PLATFORM_MAX_TENANTS];
	double ddio_hits;
	double ddio_misses;
	double ddio_occ;  /* bytes DDIO's in-flight/ring lines hold */
	double incl_occ;  /* bytes of read DCA lines in the inclusive ways */
	double tx_reads;  /* lines/s the NIC's TX DMA reads, over every tenant */
	double tx_misses; /* of them, lines/s from DRAM */
	/* DRAM traffic: reads on misses, write-backs of DDIO allocations, TX reads from DRAM */
	double mem_bytes;
	double mem_util;	 /* mem_bytes / mem_bw (0 without mem_bw) */
	double penalty;		 /* cycles a miss costs at that load (miss_penalty when idle) */
	unsigned int iterations; /* fixed-point iterations it took */
};

/* Scratch space for one solve (large: keep it off small stacks). */
struct sim_model_ws {
	struct sim_pool pool;
	/* per tenant: own data, flow table; per ring: two classes in DDIO's ways, two at home;
	 * its storage device's writes in DDIO's ways */
	struct sim_class cls[PLATFORM_MAX_TENANTS * 7];
	struct sim_agent agent[SIM_POOL_MAX_AGENTS];
};

/* Fill @w with a light non-networking workload (documented defaults). */
void sim_workload_defaults(struct sim_workload *w);

/*
 * Steady state for @n tenants and DDIO mask @ddio_mask.
 * Returns 0, or -EINVAL if an argument is out of range.
 */
int sim_model_solve(const struct sim_params *p, const struct sim_tenant *t, unsigned int n,
		    uint32_t ddio_mask, struct sim_model_ws *ws, struct sim_rates *out);

#endif /* IOCAD_SIM_MODEL_H */
