/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info as one JSON object, for scripts: the same fields as the readable
 * form, from libioca's decoded struct.
 */
#ifndef IOCACTL_CTL_JSON_H
#define IOCACTL_CTL_JSON_H

#include <stdio.h>
#include <libioca.h>

void ctl_json_info(FILE *f, const struct ioca_info *info);

#endif
