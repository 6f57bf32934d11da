/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_OWNER_H
#define _IOCA_OWNER_H

#include <linux/types.h>

struct ioca_sampler;
struct netlink_ext_ack;

int ioca_owner_check_sampler(struct ioca_sampler *s, u32 portid,
			     struct netlink_ext_ack *extack);
void ioca_owner_set_sampler(struct ioca_sampler *s, u32 portid, bool own);
bool ioca_owner_is_process(u32 pid);
int ioca_owner_register(void);
void ioca_owner_unregister(void);

#endif /* _IOCA_OWNER_H */
