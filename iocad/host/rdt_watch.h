/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whether resctrl still holds what iocad's record says: the mount (a
 * remount takes every group with it), each group's directory (removed or
 * made again by someone else), the runtimes' classes (vanished, back).
 * Cheap enough for every interval: a stat(2) of the root, then a read(2)
 * of an inotify watch on it, and a stat(2) per group only when something
 * came or went there (or the last look found a change). Also what a plan needs at its peak, for the
 * CLOSID check.
 */
#ifndef IOCAD_RDT_WATCH_H
#define IOCAD_RDT_WATCH_H

#include "rdt.h"

/* resctrl was remounted, or one of iocad's groups was removed or made again */
#define RDT_LOST 1
/* a runtime's class the record waits for is there */
#define RDT_CLASS_BACK 2

/*
 * 0 if resctrl holds what the record says, else a mask of RDT_LOST and
 * RDT_CLASS_BACK, or -ENOENT when resctrl is not mounted (no info/L3). A
 * class that vanished is marked missing (its tenant waits) and said once.
 */
int rdt_verify(struct rdt *r);

/* How many of rdt_verify's looks were full ones (a stat per group): for tests. */
unsigned long rdt_verify_looks(const struct rdt *r);

/*
 * After RDT_LOST: read info/L3 again and take the record from what is
 * there (after a remount: none of iocad's groups), so the next apply makes
 * what is missing. 0 or -errno with @err set (-ENOENT: not mounted).
 */
int rdt_reset(struct rdt *r, char *err, size_t errlen);

/*
 * Groups of ours on this socket that exist at once while @g (@n groups) is
 * applied: those there now and the plan's new ones (the dropped ones go
 * only at the commit).
 */
unsigned int rdt_peak(struct rdt *r, const struct rdt_group *g, unsigned int n);

/*
 * The runtimes' classes of the record that are not there (their tenants
 * wait): their names, comma-separated, appended to @buf (of @len, a
 * string), and their number.
 */
unsigned int rdt_missing_classes(const struct rdt *r, char *buf, size_t len);

#endif /* IOCAD_RDT_WATCH_H */
