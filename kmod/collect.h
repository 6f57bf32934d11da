/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_COLLECT_H
#define _IOCA_COLLECT_H

#include "sampler_state.h"

void ioca_collect_interval_work(struct work_struct *work);
int ioca_collect_on_demand(struct ioca_sampler *s, struct genl_info *info);
int ioca_collect_subscribe(struct ioca_sampler *s, u32 portid, u32 pid);
bool ioca_collect_unsubscribe(struct ioca_sampler *s, u32 portid);

#endif /* _IOCA_COLLECT_H */
