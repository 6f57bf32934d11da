/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * DDIO control: whether a socket's DDIO ways can be controlled (from the
 * info reply), and the epochs a ddio-set's reply says its writes produced.
 */
#ifndef LIBIOCA_DDIO_CONTROL_H
#define LIBIOCA_DDIO_CONTROL_H

#include <netlink/netlink.h>
#include "libioca.h"
#include "log.h"

/*
 * A ddio-set reply (IOCA_A_DDIO_WRITTEN nests): sets epochs[i] for the
 * socket of reqs[i]. 0, or -EBADMSG for a malformed reply or a socket the
 * request did not name.
 */
int ioca_decode_ddio_written(const struct nlmsghdr *nlh, const struct ioca_ddio_req *reqs, size_t n,
			     uint32_t *epochs, const struct ioca_log *log);

#endif
