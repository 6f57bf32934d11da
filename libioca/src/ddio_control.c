// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ioca_ddio_control__why_not(): the module's per-socket DDIO flags turned
 * into the one sentence a daemon logs when it runs without DDIO control.
 */
#include <stddef.h>

#include "ddio_control.h"

LIBIOCA_API const char *ioca_ddio_control__why_not(const struct ioca_ddio_control *dc)
{
	if (!dc || !dc->reported)
		return NULL;
	if (!dc->available)
		return "the module cannot reach the socket's DDIO register (no CPU of the "
		       "socket online since load, or the field is unknown)";
	if (!dc->writable)
		return "DDIO writes do not stick: the last write to IIO_LLC_WAYS read back "
		       "otherwise (a locked register), or kernel lockdown refuses them";
	return NULL;
}
