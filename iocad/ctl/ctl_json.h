/* SPDX-License-Identifier: GPL-2.0 */
/*
 * info as one JSON object, for scripts: the same fields as the readable
 * form, with attributes the module left out omitted rather than zeroed.
 */
#ifndef IOCACTL_CTL_JSON_H
#define IOCACTL_CTL_JSON_H

#include <netlink/netlink.h>

/* tnl_parse_fn for INFO_GET; @arg is the FILE * to print to. */
int ctl_json_info(struct nlmsghdr *nlh, void *arg);

#endif
