/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_NETLINK_H
#define _IOCA_NETLINK_H

#include "extack.h"
#include "ioca_nl_gen.h"

/* Upper bound of an info reply's payload. */
#define IOCA_INFO_MSG_SIZE (512 + IOCA_MAX_SOCKETS * 128)
/* The root ports' nests: two addresses, five scalars each. */
#define IOCA_DEV_INFO_SIZE (IOCA_MAX_DDIO_DEVICES * 112)

int ioca_nl_register(void);
void ioca_nl_unregister(void);

#endif /* _IOCA_NETLINK_H */
