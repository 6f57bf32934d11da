/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info as one JSON object, for scripts: the same fields as the readable
 * form, from libioca's decoded struct.
 */
#ifndef IOCACTL_CTL_JSON_H
#define IOCACTL_CTL_JSON_H

#include <stdio.h>
#include <libioca.h>
#include "ctl_irdt.h"

/* @irdt NULL: no "io_rdt" member. */
void ctl_json_info(FILE *f, const struct ioca_info *info, const struct ctl_irdt *irdt);

#endif
