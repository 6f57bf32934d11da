/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Whether a socket's DDIO ways can be controlled, from the info reply. */
#ifndef LIBIOCA_DDIO_CONTROL_H
#define LIBIOCA_DDIO_CONTROL_H

#include "libioca.h"

#endif
