/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's CPU topology as sysfs shows it: which CPUs are online, the
 * socket (physical package) of each, and the id of each socket's L3 cache
 * (resctrl's domain id in "L3:<id>=..."). Read from a root directory so
 * tests can hand in a fake tree. The loop's config check refuses tenant
 * CPUs that are offline, absent or on two sockets from what it says.
 */
#ifndef IOCAD_HOST_TOPO_H
#define IOCAD_HOST_TOPO_H

#include <stdbool.h>
#include <stddef.h>

#include "platform.h"

#define HOST_TOPO_SYSFS "/sys/devices/system/cpu"

struct host_topo {
	unsigned int ncpus;		 /* ids 0 .. ncpus-1 were looked at */
	bool present[PLATFORM_MAX_CPUS]; /* a cpuN directory exists */
	bool online[PLATFORM_MAX_CPUS];	 /* listed in "online" */
	int socket[PLATFORM_MAX_CPUS];	 /* physical_package_id, -1 unknown */
	int l3_id[PLATFORM_MAX_CPUS];	 /* id of its L3 cache, -1 unknown */
};

/*
 * Read @root (HOST_TOPO_SYSFS or a test tree): root/online, and per
 * cpuN/ topology/physical_package_id and cache/indexK/{level,id}.
 * Returns 0 or -errno with @err set.
 */
int host_topo_read(const char *root, struct host_topo *t, char *err, size_t errlen);

/* The CPUs @root/online lists into @on; 0 or -errno with @err set. */
int host_topo_online(const char *root, struct platform_cpuset *on, char *err, size_t errlen);

/*
 * The same through *@fd, kept open on @root/online for the next call (-1:
 * open it; the caller closes it): the per-interval look.
 */
int host_topo_online_fd(int *fd, const char *root, struct platform_cpuset *on, char *err,
			size_t errlen);

/* L3 id of @socket (from its first online CPU), or -1. */
int host_topo_l3_id(const struct host_topo *t, unsigned int socket);

/* @t's CPUs as platform_info says them: ncpus and each CPU's socket. */
void host_topo_info(const struct host_topo *t, struct platform_info *out);

#endif /* IOCAD_HOST_TOPO_H */
