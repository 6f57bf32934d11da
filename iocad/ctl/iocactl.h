/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocactl: the operator's client for ioca.ko's generic netlink family.
 * Exit status: 0 done, 1 the request failed, 2 usage error.
 */
#ifndef IOCACTL_IOCACTL_H
#define IOCACTL_IOCACTL_H

#define IOCACTL_EXIT_FAIL 1
#define IOCACTL_EXIT_USAGE 2

#endif
