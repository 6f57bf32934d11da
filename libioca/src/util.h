/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/* Small pure helpers of the public API: masks and event kind names. */
#ifndef LIBIOCA_UTIL_H
#define LIBIOCA_UTIL_H

#include "libioca.h"

#endif
