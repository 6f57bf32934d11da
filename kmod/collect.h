/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_COLLECT_H
#define _IOCA_COLLECT_H

#include "sampler.h"

void ioca_collect_interval_work(struct work_struct *work);
int ioca_collect_on_demand(struct ioca_sampler *s, struct genl_info *info);

#endif /* _IOCA_COLLECT_H */
