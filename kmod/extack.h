/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_EXTACK_H
#define _IOCA_EXTACK_H

#include <linux/netlink.h>

/*
 * NL_SET_ERR_MSG*() take string literals only; the DDIO messages come from a
 * table of static strings, so set the same two fields directly. Apart from
 * netlink.h so that the parts that only report errors (owner.c,
 * sampler_uncore.c) do not include the family's handlers.
 */
static inline void ioca_nl_set_err(struct netlink_ext_ack *extack,
				   const struct nlattr *attr, const char *msg)
{
	if (!extack)
		return;
	extack->_msg = msg;
	extack->bad_attr = attr;
}

#endif /* _IOCA_EXTACK_H */
