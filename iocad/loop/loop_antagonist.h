/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's side of antagonists (antagonist.h): each socket's BE tenants
 * judged every interval, said when one becomes or stops being an
 * antagonist, and, with `antagonists = confine`, its group narrowed to its
 * zone in the plan the platform gets (the allocation, and so the FSM and
 * the records' masks, stay the planner's).
 */
#ifndef IOCAD_LOOP_ANTAGONIST_H
#define IOCAD_LOOP_ANTAGONIST_H

#include <stdbool.h>

#include "platform.h"

struct loop;
struct loop_sock;

/* After a socket's decision: judge its tenants. True if the plan must be applied again. */
bool loop_antagonist_step(struct loop *l, struct loop_sock *s);

/*
 * After the platform (re)started its sampling (start, reload): whether
 * samples carry L2 counts now. Where they do not and the platform says
 * why, one line says antagonists are not judged and why (again only if
 * that changes); no tenant is judged without them.
 */
void loop_antagonist_counters(struct loop *l);

/* Narrow @sp (built from @s's allocation) to the antagonists' zones. */
void loop_antagonist_confine(const struct loop_sock *s, struct platform_socket_plan *sp);

#endif /* IOCAD_LOOP_ANTAGONIST_H */
