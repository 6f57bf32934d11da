/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocactl sampler set and monitor: the commands with options of their own.
 * Declared in ctl_cmds.h with the other handlers.
 */
#ifndef IOCACTL_CTL_SAMPLER_H
#define IOCACTL_CTL_SAMPLER_H

#include "ctl_cmds.h"

#endif
