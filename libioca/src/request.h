/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * Request attribute builders, apart from the socket so the tests can check
 * the exact layout the module parses.
 */
#ifndef LIBIOCA_REQUEST_H
#define LIBIOCA_REQUEST_H

#include <stdbool.h>
#include <netlink/msg.h>
#include "libioca.h"
#include "log.h"

/*
 * IOCA_A_DDIO_SOCKET nests for @reqs (and IOCA_A_DDIO_OWNER). -EINVAL with
 * a warning when a request is ill-formed (not exactly one of mask and ways,
 * a socket twice, n out of range), -EMSGSIZE when @msg is too small.
 */
int ioca_req_ddio(struct nl_msg *msg, const struct ioca_ddio_req *reqs, size_t n, bool owner,
		  const struct ioca_log *log);

/*
 * The attributes of a sampler-set request. -E2BIG with a warning when a list
 * exceeds the ABI's maxima, -EINVAL for a NULL list with a count,
 * -EMSGSIZE when @msg is too small.
 */
/* ddio-device-set's attributes: 0, -EINVAL (@log says why) or -EMSGSIZE. */
int ioca_req_ddio_device(struct nl_msg *msg, const char *addr, uint32_t mode, bool owner,
			 const struct ioca_log *log);
int ioca_req_sampler(struct nl_msg *msg, const struct ioca_sampler_config *cfg, bool owner,
		     const struct ioca_log *log);

/*
 * The same attributes as given, lists past the ABI's maxima included (the
 * module's own selftests send those to see them refused): 0 or -EMSGSIZE.
 */
int ioca_req_sampler_put(struct nl_msg *msg, const struct ioca_sampler_config *cfg, bool owner);

#endif
