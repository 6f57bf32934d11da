/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _IOCA_EPOCH_H
#define _IOCA_EPOCH_H

#include <linux/types.h>

/**
 * ioca_epoch_next() - the epoch after @e
 * @e: a run or DDIO epoch
 *
 * 0 means "none" to every reader (a socket never read, an older module):
 * a wrapped epoch skips it, so readers comparing epochs see a change and
 * never a mask or a run without one.
 *
 * Return: @e + 1, or 1 past U32_MAX.
 */
static inline u32 ioca_epoch_next(u32 e)
{
	return e == U32_MAX ? 1 : e + 1;
}

#endif /* _IOCA_EPOCH_H */
