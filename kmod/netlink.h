/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_NETLINK_H
#define _IOCA_NETLINK_H

#include "ioca_nl_gen.h"

/* Upper bound of an info reply's payload. */
#define IOCA_INFO_MSG_SIZE (512 + IOCA_MAX_SOCKETS * 96)

/*
 * NL_SET_ERR_MSG*() take string literals only; the DDIO messages come from a
 * table of static strings, so set the same two fields directly.
 */
static inline void ioca_nl_set_err(struct netlink_ext_ack *extack,
				   const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

int ioca_nl_register(void);
void ioca_nl_unregister(void);

#endif /* _IOCA_NETLINK_H */
