/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A longest-prefix-match table for IPv4 and IPv6 routes: one hash table of
 * (prefix length, prefix) -> next hop, probed from the longest length that
 * has routes down to the shortest. Simple and exact, and slow exactly where
 * the Iridescent paper's LibLPM is: a lookup that matches only a short
 * prefix (the default route) probes every longer length first.
 *
 * Not thread-safe: lookups may run concurrently with each other, updates
 * need the caller's exclusion (examples/lpm uses a rwlock).
 */
#ifndef LPM_LPM_H
#define LPM_LPM_H

#include <stddef.h>
#include <stdint.h>

#define LPM_NONE (-1L) /* lookup result without a matching route */

typedef unsigned __int128 lpm_u128;

struct lpm;

/* A route: addresses whose first @len bits equal @prefix's go to @nh. */
struct lpm_route {
	lpm_u128 prefix; /* IPv4: the address in the low 32 bits */
	int len;
	long nh;
};

/* @width: 32 (IPv4) or 128 (IPv6). Returns NULL on ENOMEM or a bad width. */
struct lpm *lpm_new(int width);
void lpm_free(struct lpm *t);
int lpm_width(const struct lpm *t);

/* Add or replace a route (bits past @len are ignored). 0 or -EINVAL/-ENOMEM. */
int lpm_add(struct lpm *t, lpm_u128 prefix, int len, long nh);
/* Remove a route. 0 or -ENOENT. */
int lpm_del(struct lpm *t, lpm_u128 prefix, int len);
size_t lpm_count(const struct lpm *t);
/* Copy at most @max routes into @out; returns the number of routes. */
size_t lpm_routes(const struct lpm *t, struct lpm_route *out, size_t max);

/* The next hop of the longest matching route, or LPM_NONE. */
long lpm_lookup(const struct lpm *t, lpm_u128 addr);
long lpm4_lookup(const struct lpm *t, uint32_t addr);
long lpm6_lookup(const struct lpm *t, lpm_u128 addr);

/* The first @len bits of a @width-bit address. */
lpm_u128 lpm_mask(int len, int width);

#endif /* LPM_LPM_H */
