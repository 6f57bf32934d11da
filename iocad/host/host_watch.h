/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host platform's per-interval look at CAT (host_watch.c), called
 * from poll() after the samples are folded.
 */
#ifndef IOCAD_HOST_WATCH_H
#define IOCAD_HOST_WATCH_H

struct host;

/*
 * Every interval: CAT as the plan in force says. CPUs that went offline
 * or online since the last apply (sysfs "online"): the plan's CAT is
 * written again, so each group holds its online CPUs (resctrl gives a CPU
 * that comes back to the default group). resctrl remounted, or iocad's
 * groups removed by someone: made again; a runtime's class that appeared:
 * its mask written. resctrl not mounted: said once and looked at again
 * with backoff. DDIO and the sampler are left alone. 0 if nothing changed
 * or all went well.
 */
int host_apply_hotplug(struct host *h);

#endif /* IOCAD_HOST_WATCH_H */
