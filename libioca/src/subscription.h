/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * struct ioca_subscription: a socket of its own subscribed to the samples
 * (unicast; the "samples" group with an older module), read with
 * recvfrom() directly (one datagram per message, sized with
 * MSG_PEEK | MSG_TRUNC) and fed to the assembler.
 */
#ifndef LIBIOCA_SUBSCRIPTION_H
#define LIBIOCA_SUBSCRIPTION_H

#include <stdbool.h>
#include "assemble.h"
#include "libioca.h"
#include "log.h"
#include "transport.h"

struct ioca_subscription {
	struct ioca_log log;
	struct ioca_transport t;
	struct ioca_assembler a;
	unsigned char *buf;
	size_t buf_size;
	bool gone; /* the family was unregistered (module unloaded) */
};

#endif
