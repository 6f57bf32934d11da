/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The masks of the runtimes' classes iocad writes (rdt_class.c): noted
 * before its first write, put back when it lets go. Internal to rdt*.c.
 */
#ifndef IOCAD_RDT_CLASS_H
#define IOCAD_RDT_CLASS_H

#include "rdt_apply.h"

/* Note a shared group's mask before iocad's first write (once). 0 or -errno. */
int rdt_note_orig(struct rdt *r, const struct rdt_group *g);

/* Put back a shared group's noted mask and forget it. 0 or -errno. */
int rdt_put_orig(struct rdt *r, const struct rdt_group *g);

/* Forget a shared group's noted mask: it vanished, what comes back is new. */
void rdt_forget_orig(struct rdt *r, const char *name);

#endif /* IOCAD_RDT_CLASS_H */
