/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * LLC way masks, the one definition userspace shares: libioca (its public
 * libioca_mask_contiguous() and libioca_top_ways() are these), iocad's core,
 * its simulator and its host platform. Header-only, so iocad's pure core and
 * the simulator need not link libioca (a netlink client) for two lines of
 * arithmetic, and libioca's public API stays the only thing it exports.
 * Not installed.
 */
#ifndef IOCA_COMMON_WAYS_H
#define IOCA_COMMON_WAYS_H

#include <stdbool.h>
#include <stdint.h>

/* True if @m is non-empty and its set bits are one contiguous run. */
static inline bool ways_contiguous(uint32_t m)
{
	/* Adding the lowest set bit clears a contiguous run entirely. */
	return m && ((m + (m & -m)) & m) == 0;
}

/* @n ways from way @lo upward; 0 for no ways or @lo past way 31. */
static inline uint32_t ways_mask(unsigned int lo, unsigned int n)
{
	if (!n || lo >= 32)
		return 0;
	return (n >= 32 ? 0xffffffffu : (1u << n) - 1) << lo;
}

/* Every way of an LLC with @llc_ways ways (at most 32). */
static inline uint32_t ways_all(unsigned int llc_ways)
{
	return ways_mask(0, llc_ways);
}

/* The @n most significant ways of @llc_ways; 0 unless 1 <= @n <= @llc_ways <= 32. */
static inline uint32_t ways_top(unsigned int llc_ways, unsigned int n)
{
	if (llc_ways > 32 || n < 1 || n > llc_ways)
		return 0;
	return ways_mask(llc_ways - n, n);
}

/* True if @m is contiguous and within the @llc_ways ways of its LLC. */
static inline bool ways_fits(uint32_t m, unsigned int llc_ways)
{
	return ways_contiguous(m) && !(m & ~ways_all(llc_ways));
}

#endif /* IOCA_COMMON_WAYS_H */
