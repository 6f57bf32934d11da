/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* The one decoder of the IOCA_CMD_INFO_GET reply. */
#ifndef LIBIOCA_DECODE_INFO_H
#define LIBIOCA_DECODE_INFO_H

#include <netlink/netlink.h>
#include "libioca.h"
#include "log.h"

/*
 * Decodes the info reply @nlh into @info (zeroed first). 0, or -EBADMSG
 * with a warning to @log naming what is malformed or missing.
 */
int ioca_decode_info(const struct nlmsghdr *nlh, struct ioca_info *info,
		     const struct ioca_log *log);

/* Decodes one IOCA_A_*_EVENT nest (shared with the tests). */
int ioca_decode_event(struct nlattr *nest, struct ioca_event_info *ev, const struct ioca_log *log);

#endif
