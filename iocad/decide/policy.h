/* SPDX-License-Identifier: GPL-2.0 */
/*
 * struct config, what the decisions are told: the tenants, the sockets,
 * the devices and the rules' thresholds, as config/ parses them
 * (CONFIG.md). Types only, so the decisions need none of the parser.
 */
#ifndef IOCAD_DECIDE_POLICY_H
#define IOCAD_DECIDE_POLICY_H

/* [platform] io_control (host/io_alloc.h's enum io_control has the same values) */
#define CONFIG_IO_CONTROL_AUTO 0
#define CONFIG_IO_CONTROL_DDIO 1
#define CONFIG_IO_CONTROL_IO_ALLOC 2

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decide/antagonist.h"
#include "decide/decide_device.h"
#include "platform.h"

/* [metrics]: config/config_metrics.h parses it */
#define CONFIG_METRICS_LISTEN_LEN 64
#define CONFIG_METRICS_PATH_LEN 256

struct config_metrics {
	char listen[CONFIG_METRICS_LISTEN_LEN]; /* "" : no HTTP endpoint */
	char textfile[CONFIG_METRICS_PATH_LEN]; /* "" : no textfile */
	unsigned int line;			/* the [metrics] header, 0: none */
	unsigned int listen_line;
	unsigned int textfile_line;
	char web_config[CONFIG_METRICS_PATH_LEN]; /* "" : plain HTTP, no auth */
	unsigned int web_config_line;
	unsigned int healthz_intervals; /* 0: the default (CONFIG_METRICS_HEALTHZ_INTERVALS) */
};

/* The rules' thresholds (storage_*, antagonist_*): config/config_threshold.h parses them */
/* One bit per key, in config_threshold.c's table order. */
#define CONFIG_THR_NKEYS 23

struct config_thr {
	struct decide_device_params storage;
	struct antagonist_params antagonist;
	unsigned int keys;		     /* the keys given (1 << table index) */
	unsigned int line[CONFIG_THR_NKEYS]; /* where each was given */
};

#define CONFIG_PATH_LEN 256
#define CONFIG_MAX_TENANTS_DIRS 4		    /* [platform] tenants_dir, repeated */
#define CONFIG_CGROUP_ROOT_DEFAULT "/sys/fs/cgroup" /* the cgroup v2 root */

enum config_model {
	CONFIG_MODEL_AGGREGATION, /* one vswitch owns the NIC (OVS + virtio) */
	CONFIG_MODEL_SLICING,	  /* SR-IOV: each tenant owns its VF's rings */
};

enum config_prio {
	CONFIG_PRIO_BE, /* best effort: may share ways with DDIO */
	CONFIG_PRIO_PS, /* performance sensitive: kept away from DDIO */
};

struct config_tenant {
	char name[PLATFORM_NAME_LEN];
	unsigned int cpus[PLATFORM_MAX_CPUS]; /* ascending, no duplicates */
	unsigned int ncpus;
	unsigned int ways; /* initial LLC ways; the floor Reclaim returns to */
	enum config_prio prio;
	bool networking;
	bool vswitch; /* the virtual switch of the aggregation model */
	/* Tenants of one group share one CAT mask (one class of service). */
	char group[PLATFORM_NAME_LEN]; /* "" : not in a group */
	unsigned int group_leader;     /* 1 + index of its group's first tenant, 0: none */
	/*
	 * cgroup = PATH (below the cgroup v2 root): @cpus were read from its
	 * cpuset.cpus.effective at parse time (cgroup_cpus.h); "": cpus given.
	 */
	char cgroup[CONFIG_PATH_LEN];
	/*
	 * rdt_class = NAME: an existing resctrl group (a container runtime's
	 * RDT class) whose L3 mask iocad manages instead of making its own;
	 * iocad never creates, removes or fills it. "": iocad's own group.
	 */
	char rdt_class[PLATFORM_NAME_LEN];
	/* The socket its CPUs are on; set by config_place(). */
	unsigned int socket;
	/* Where each setting came from, for errors found after parsing. */
	unsigned int line;
	unsigned int cpus_line;
	unsigned int ways_line;
	unsigned int prio_line;
	unsigned int vswitch_line;
	unsigned int group_line;
	unsigned int cgroup_line;
	unsigned int rdt_class_line;
};

/*
 * A [socket N] section: settings of one socket that differ from
 * [platform]'s. Only the keys in @keys (CONFIG_SOCK_*) were given.
 */
#define CONFIG_SOCK_LLC (1u << 0)
#define CONFIG_SOCK_DDIO (1u << 1)
#define CONFIG_SOCK_DDIO_MIN (1u << 2)
#define CONFIG_SOCK_DDIO_MAX (1u << 3)
#define CONFIG_SOCK_DDIO_MODE (1u << 4)
#define CONFIG_SOCK_MODEL (1u << 5)
#define CONFIG_SOCK_INCLUSIVE (1u << 6)

/*
 * inclusive_ways (A4, ISCA 2025): the LLC ways DCA lines move into when a
 * core touches them. Given as a mask, as a count of the lowest ways, or
 * none; not given: CONFIG_INCL_DEFAULT (config_inclusive_mask()).
 */
enum config_incl {
	CONFIG_INCL_DEFAULT, /* the two lowest ways on an 11-way LLC, else none */
	CONFIG_INCL_NONE,
	CONFIG_INCL_MASK,  /* @value is the mask */
	CONFIG_INCL_COUNT, /* @value is the number of lowest ways */
};

struct config_inclusive {
	enum config_incl kind;
	uint32_t value;
	unsigned int line; /* 0: not given */
};

struct config_socket {
	unsigned int line; /* of the section header; 0: no section */
	unsigned int keys;
	unsigned int llc_ways; /* 0: detect */
	unsigned int ddio_ways;
	unsigned int ddio_ways_min;
	unsigned int ddio_ways_max;
	bool ddio_observe;
	enum config_model model;
	struct config_inclusive inclusive;
	unsigned int llc_ways_line;
	unsigned int ddio_line;
	unsigned int model_line;
};

/*
 * [device ADDR]: DDIO for one PCI device's writes. The first three
 * values are enum platform_dev_ddio's.
 */
#define CONFIG_MAX_DEVICES PLATFORM_MAX_DEVICES
enum config_dev_ddio {
	CONFIG_DEV_DDIO_ON = PLATFORM_DEV_DDIO_ON,
	CONFIG_DEV_DDIO_OFF = PLATFORM_DEV_DDIO_OFF,
	CONFIG_DEV_DDIO_FULL_OFF = PLATFORM_DEV_DDIO_FULL_OFF,
	CONFIG_DEV_DDIO_AUTO, /* A4's rule decides (decide_device.h) */
};

enum config_dev_kind {
	CONFIG_DEV_NETWORK, /* a NIC: its writes are consumed at once (DDIO pays) */
	CONFIG_DEV_STORAGE, /* an SSD: large blocks, often not re-read from the LLC */
};

struct config_device {
	char addr[PLATFORM_PCI_ADDR_LEN]; /* "0000:3b:00.0", lower case */
	int ddio;			  /* enum config_dev_ddio; 0: not given */
	enum config_dev_kind kind;
	char tenant[PLATFORM_NAME_LEN]; /* the tenant whose cores consume its data; "": none */
	unsigned int socket;		/* the socket its root port is on */
	bool socket_set;		/* socket given; else the tenant's, else 0 */
	unsigned int line, ddio_line, kind_line, tenant_line;
	/* storage_* keys: its own, the rest [platform]'s once parsed */
	struct config_thr thr;
};

struct config {
	char path[CONFIG_PATH_LEN]; /* file name used in messages */
	enum config_model model;
	uint64_t interval_ns;
	/*
	 * Deprecated [platform] socket = N: every tenant must be on socket N.
	 * Without it a tenant's socket is the one its CPUs are on. In a
	 * per-socket config (config_for_socket) the socket it describes.
	 */
	unsigned int socket;
	bool socket_set;
	unsigned int socket_line;
	unsigned int llc_ways;	    /* 0: detect from the platform */
	unsigned int ddio_ways;	    /* initial DDIO ways; 0: the platform's */
	unsigned int ddio_ways_min; /* DDIO_WAYS_MIN */
	unsigned int ddio_ways_max; /* DDIO_WAYS_MAX */
	double threshold_stable;    /* THRESHOLD_STABLE, relative change */
	double threshold_miss_low;  /* THRESHOLD_MISS_LOW, DDIO misses/s */
	double threshold_min_rate;  /* changes below this many events/s are noise */
	bool ddio_observe;	    /* ddio = observe: never change DDIO's ways */
	bool ddio_grow_to_max;	    /* ddio_growth = paper: grow while misses are high */
	/*
	 * ddio_counters = optional: the degraded mode, run without DDIO
	 * hit/miss counters (the FSM stays in Low Keep); required (default):
	 * a platform without them is refused in a mode that needs them.
	 */
	bool ddio_counters_optional;
	struct config_inclusive inclusive; /* [platform] (or [socket N]) inclusive_ways */
	/*
	 * The inclusive ways' mask the planner keeps PS tenants off, resolved
	 * against the LLC by config_resolve (config_inclusive_mask); 0: none.
	 */
	uint32_t inclusive_mask;
	/*
	 * io_control: what sets I/O's ways on the host. Read at start only.
	 * The values are host/io_alloc.h's enum io_control.
	 */
	int io_control;
	/*
	 * antagonists: enum antagonist_mode (antagonist.h), and the ways an
	 * antagonist is confined to (antagonist_ways).
	 */
	int antagonists;
	unsigned int antagonist_ways;
	/*
	 * storage_* and antagonist_*: the rules' thresholds. Taken at the
	 * next interval on a reload; not part of a socket's plan.
	 */
	struct config_thr thr;
	unsigned int model_line;
	unsigned int llc_ways_line;
	unsigned int ddio_line; /* first ddio_* key seen, else the section */
	struct config_socket sock[PLATFORM_MAX_SOCKETS];
	unsigned int ntenants;
	struct config_tenant tenant[PLATFORM_MAX_TENANTS];
	struct config_metrics metrics; /* [metrics]: read at start only */
	/* [platform] tenants_dir: directories of drop-in tenant files (dropin.h) */
	unsigned int ntenants_dirs;
	char tenants_dir[CONFIG_MAX_TENANTS_DIRS][CONFIG_PATH_LEN];
	char cgroup_root[CONFIG_PATH_LEN]; /* [platform] cgroup_root */
	/* [device ADDR] sections, in file order (CONFIG only, not drop-ins) */
	unsigned int ndevices;
	struct config_device device[CONFIG_MAX_DEVICES];
};

/* The tenant that stands for @i's group: its first tenant, or @i itself. */
static inline unsigned int config_leader(const struct config *cfg, unsigned int i)
{
	return cfg->tenant[i].group_leader ? cfg->tenant[i].group_leader - 1 : i;
}

#endif /* IOCAD_DECIDE_POLICY_H */
