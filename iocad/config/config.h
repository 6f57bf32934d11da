/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocad's tenant config: an INI file with one [platform] section and one
 * [tenant NAME] section per tenant (CONFIG.md is the reference). Parsing
 * fills a caller-owned struct and touches the caller's copy only on
 * success, so a bad reload leaves the running config in place.
 */
#ifndef IOCAD_CONFIG_H
#define IOCAD_CONFIG_H

/* [platform] io_control (host/io_alloc.h's enum io_control has the same values) */
#define CONFIG_IO_CONTROL_AUTO 0
#define CONFIG_IO_CONTROL_DDIO 1
#define CONFIG_IO_CONTROL_IO_ALLOC 2

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/config_metrics.h"
#include "config/config_threshold.h"
#include "platform.h"

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

/* Fill @cfg with the documented defaults and no tenants. */
void config_defaults(struct config *cfg);

/*
 * Parse and validate an INI file into @out (left untouched on error).
 * Returns 0 or -errno; on error @err holds "file:line: key: problem".
 */
int config_parse_file(const char *path, struct config *out, char *err, size_t errlen);

/*
 * A drop-in tenant file (dropin.h): only [tenant NAME] sections, added to
 * a copy of @base (a parsed config) and checked whole into @out; errors
 * name @path. @out is untouched on error and may be @base.
 */
int config_parse_tenants_file(const char *path, const struct config *base, struct config *out,
			      char *err, size_t errlen);

/* Same, from a string; @name stands in for the file name in messages. */
int config_parse_string(const char *text, const char *name, struct config *out, char *err,
			size_t errlen);

/*
 * Checks that need the platform, for the tenants of one socket
 * (@cfg->socket, a config_for_socket() result): "detect" resolved against
 * that socket's LLC, CPU ids exist, ways fit. On success @cfg->llc_ways
 * and @cfg->ddio_ways are resolved. Returns 0 or -EINVAL with @err set;
 * @cfg is unchanged on error.
 */
int config_resolve(struct config *cfg, const struct platform_info *info, char *err, size_t errlen);

/*
 * The inclusive ways of @inc on an LLC of @llc_ways ways: the mask, the
 * @value lowest ways, none (0), or by default 0x003 when @llc_ways is 11
 * (Skylake-SP / Cascade Lake, where A4 measured them) and none otherwise.
 * Returns 0 with @out set, or -EINVAL with a reason in @why when the range
 * is not within the LLC.
 */
int config_inclusive_mask(const struct config_inclusive *inc, unsigned int llc_ways, uint32_t *out,
			  char *why, size_t len);

/* The tenant that stands for @i's group: its first tenant, or @i itself. */
static inline unsigned int config_leader(const struct config *cfg, unsigned int i)
{
	return cfg->tenant[i].group_leader ? cfg->tenant[i].group_leader - 1 : i;
}

/* Index of the tenant called @name, or -1. */
int config_tenant_index(const struct config *cfg, const char *name);

#endif /* IOCAD_CONFIG_H */
