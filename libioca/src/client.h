/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* struct ioca_client: the request socket and the calls for each op. */
#ifndef LIBIOCA_CLIENT_H
#define LIBIOCA_CLIENT_H

#include "libioca.h"
#include "log.h"
#include "transport.h"

struct ioca_client {
	struct ioca_log log;
	struct ioca_transport t;
};

#endif
