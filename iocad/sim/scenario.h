/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Simulator scenario files: the platform, each tenant's workload and timed
 * events. Line-based, INI-like (SIMULATOR.md documents every key):
 *
 *   [platform]          ways, way_size, miss_penalty, ghz, seed,
 *                       noise, duration, ddio_mask, inclusive_mask, leak_cycles,
 *                       llc_latency, l2, l2_latency, mem_bw, mem_slope,
 *                       stall, rx_burst, sockets, cpus_per_socket
 *   [tenant NAME]       cpus (only without a config), active, ws, rpi, cpi,
 *                       mlp, rate, pkt, buf, ring, queues, ipp, touch, flows,
 *                       flow_bytes, emc_flows, flow_refs, dca, tx, dma_rate,
 *                       dma_block, dma_buffers, dma_reread
 *   [device ADDR]       tenant (whose dma_* I/O the device carries)
 *   [events]            at TIME set|traffic|workload TENANT key=value...
 *                       at TIME flows TENANT N
 *                       at TIME join|leave TENANT
 *                       at TIME ddio MASK [socket N]
 *                       at TIME reload CONFIG
 *
 * Every error names file:line and the key or word at fault.
 */
#ifndef IOCAD_SCENARIO_H
#define IOCAD_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "sim_device.h"
#include "sim_model.h"

#define SCENARIO_PATH_LEN 256
#define SCENARIO_MAX_SETS 16

enum scenario_ev_kind {
	SCN_EV_SET,    /* change workload keys of a tenant */
	SCN_EV_JOIN,   /* the tenant's workload starts */
	SCN_EV_LEAVE,  /* the tenant's workload stops, its cores idle */
	SCN_EV_DDIO,   /* someone outside iocad rewrites the DDIO mask */
	SCN_EV_RELOAD, /* the operator replaces iocad's config and sends SIGHUP */
};

struct scenario_set {
	int key; /* index into the tenant key table (sim_keys_name) */
	double value;
};

struct scenario_event {
	uint64_t t_ns;
	enum scenario_ev_kind kind;
	unsigned int tenant;	      /* index into scenario.tenant */
	char name[PLATFORM_NAME_LEN]; /* that tenant's name */
	uint32_t mask;		      /* SCN_EV_DDIO */
	unsigned int socket;	      /* SCN_EV_DDIO: whose mask */
	char path[SCENARIO_PATH_LEN]; /* SCN_EV_RELOAD: relative to the scenario's directory */
	unsigned int nset;
	struct scenario_set set[SCENARIO_MAX_SETS];
	unsigned int line;
};

struct scenario_tenant {
	char name[PLATFORM_NAME_LEN];
	struct sim_workload w;
	unsigned int cpus[PLATFORM_MAX_CPUS];
	unsigned int ncpus; /* 0: cpus come from the iocad config */
	unsigned int line;
	unsigned int rate_line; /* where traffic was first given, 0: never */
};

struct scenario {
	char path[SCENARIO_PATH_LEN];
	struct sim_params params;
	uint64_t seed;
	double noise; /* relative sd of counter noise */
	uint64_t duration_ns;
	uint32_t ddio_mask;	/* every socket's at the start */
	unsigned int ddio_line; /* where ddio_mask was given, 0: the default */
	unsigned int incl_line; /* where inclusive_mask was given, 0: the default */
	/*
	 * Sockets, each an LLC of its own (the same parameters, its own DDIO
	 * mask and tenants): CPU c is on socket c / cpus_per_socket.
	 */
	unsigned int nsockets;	      /* 1 .. PLATFORM_MAX_SOCKETS */
	unsigned int cpus_per_socket; /* 0: every CPU on socket 0 */
	unsigned int ntenants;
	struct scenario_tenant tenant[PLATFORM_MAX_TENANTS];
	struct sim_devices dev; /* [device ADDR] sections */
	unsigned int nevents;
	struct scenario_event *events; /* sorted by time, file order within a time */
};

/*
 * Parse a scenario file. Returns a new scenario, or NULL with errno set
 * and @err holding "file:line: problem".
 */
struct scenario *scenario_load(const char *path, char *err, size_t errlen);

/* Same from a string; @name stands in for the file name in messages. */
struct scenario *scenario_parse_string(const char *text, const char *name, char *err,
				       size_t errlen);

void scenario_free(struct scenario *s);

/* Index of tenant @name, or -1. */
int scenario_tenant_index(const struct scenario *s, const char *name);

#endif /* IOCAD_SCENARIO_H */
