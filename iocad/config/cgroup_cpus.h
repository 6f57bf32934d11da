/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tenant that is a cgroup (`cgroup = PATH`): its CPUs are the cgroup's
 * cpuset.cpus.effective under the cgroup v2 root. cgroupfs sends no
 * inotify event when that file's value changes (the kernel notifies only
 * cpuset.cpus.partition), so iocad re-reads it every interval
 * (cgroup_watch.h) and reloads when it moved.
 */
#ifndef IOCAD_CGROUP_CPUS_H
#define IOCAD_CGROUP_CPUS_H

#include <stddef.h>

/*
 * Check @path (relative to the root, a leading '/' allowed, no "..").
 * 0 or -EINVAL with @why set.
 */
int cgroup_cpus_check_path(const char *path, char *why, size_t len);

/*
 * Read @root/@path/cpuset.cpus.effective into @cpus (ascending,
 * PLATFORM_MAX_CPUS entries) and @n. 0, or -errno with @why saying which
 * file and what to do.
 */
int cgroup_cpus_read(const char *root, const char *path, unsigned int *cpus, unsigned int *n,
		     char *why, size_t len);

#endif /* IOCAD_CGROUP_CPUS_H */
