/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of a scenario's [events] section ("at 5s traffic PS rate=4M")
 * into a struct scenario_event. The tenant is named, not resolved: the
 * scenario parser resolves names once the whole file is read.
 */
#ifndef IOCAD_SIM_EVENT_H
#define IOCAD_SIM_EVENT_H

#include <stddef.h>

#include "scenario.h"

/*
 * Parse @text (modified in place) into @ev; ev->line is the caller's.
 * Returns 0, or -EINVAL with @msg saying what is wrong (no file:line).
 */
int sim_event_parse(char *text, struct scenario_event *ev, char *msg, size_t len);

#endif /* IOCAD_SIM_EVENT_H */
