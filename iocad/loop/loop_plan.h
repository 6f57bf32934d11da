/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's plan (loop_plan.c): start, reload, apply, for loop.c (the
 * intervals). The state they share is loop_state.h's.
 */
#ifndef IOCAD_LOOP_PLAN_H
#define IOCAD_LOOP_PLAN_H

#include "loop/loop_state.h"

/* Place l->cfg, cut it per socket and make the first LLC Alloc; apply it. */
int loop_plan_start(struct loop *l);

/*
 * SIGHUP: a config that fails to parse, fit or check changes nothing.
 * True when the reloaded config is in force (also when it changed
 * nothing), false when it was refused.
 */
bool loop_plan_reload(struct loop *l);

/*
 * Apply the allocation of every used socket as one plan. On success the
 * sockets' known DDIO masks are the plan's.
 */
int loop_plan_apply(struct loop *l);

/*
 * Says once when a PS tenant lands on the inclusive ways because it fits
 * nowhere else, and once when it is off them again; after every apply and
 * every decision (a layout can become the fallback without changing).
 */
void loop_plan_say_inclusive(struct loop *l, unsigned int id, struct loop_sock *s);

/*
 * After a refused apply: a socket the platform now says has no DDIO way
 * control (its register did not take the write) runs as with ddio =
 * observe from then on, said once. True if a socket changed so.
 */
bool loop_plan_ddio_control(struct loop *l);

#endif /* IOCAD_LOOP_PLAN_H */
