// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lpm.h"

struct slot {
	lpm_u128 prefix;
	long nh;
	int len; /* -1: empty */
};

struct lpm {
	int width;
	struct slot *slots;
	size_t cap, n; /* cap: power of two, at most half full */
	/* How many routes each length has: lookups skip empty lengths. */
	size_t per_len[129];
	/* The lengths with routes, longest first. */
	int lens[129];
	int nr_lens;
};

lpm_u128 lpm_mask(int len, int width)
{
	lpm_u128 all = width == 128 ? ~(lpm_u128)0 : (((lpm_u128)1 << width) - 1);

	if (len <= 0)
		return 0;
	if (len >= width)
		return all;
	return all & ~((((lpm_u128)1) << (width - len)) - 1);
}

static uint64_t hash(lpm_u128 prefix, int len)
{
	uint64_t h = (uint64_t)prefix ^ ((uint64_t)(prefix >> 64) * 0x9e3779b97f4a7c15ull);

	h ^= (uint64_t)len * 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 29);
}

static struct slot *find(const struct lpm *t, lpm_u128 prefix, int len)
{
	size_t i = hash(prefix, len) & (t->cap - 1);

	for (;; i = (i + 1) & (t->cap - 1)) {
		struct slot *s = &t->slots[i];

		if (s->len < 0 || (s->len == len && s->prefix == prefix))
			return s;
	}
}

static int alloc_slots(struct lpm *t, size_t cap)
{
	size_t i;

	t->slots = malloc(cap * sizeof(*t->slots));
	if (!t->slots)
		return -ENOMEM;
	for (i = 0; i < cap; i++)
		t->slots[i].len = -1;
	t->cap = cap;
	return 0;
}

struct lpm *lpm_new(int width)
{
	struct lpm *t;

	if (width != 32 && width != 128)
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->width = width;
	if (alloc_slots(t, 64)) {
		free(t);
		return NULL;
	}
	return t;
}

void lpm_free(struct lpm *t)
{
	if (!t)
		return;
	free(t->slots);
	free(t);
}

int lpm_width(const struct lpm *t)
{
	return t->width;
}

static void update_lens(struct lpm *t)
{
	int l;

	t->nr_lens = 0;
	for (l = t->width; l >= 0; l--) {
		if (t->per_len[l])
			t->lens[t->nr_lens++] = l;
	}
}

static int grow(struct lpm *t)
{
	struct slot *old = t->slots;
	size_t i, cap = t->cap;

	if (alloc_slots(t, 2 * cap)) {
		t->slots = old;
		return -ENOMEM;
	}
	for (i = 0; i < cap; i++) {
		if (old[i].len >= 0)
			*find(t, old[i].prefix, old[i].len) = old[i];
	}
	free(old);
	return 0;
}

int lpm_add(struct lpm *t, lpm_u128 prefix, int len, long nh)
{
	struct slot *s;

	if (len < 0 || len > t->width)
		return -EINVAL;
	if (2 * (t->n + 1) > t->cap && grow(t))
		return -ENOMEM;
	prefix &= lpm_mask(len, t->width);
	s = find(t, prefix, len);
	if (s->len < 0) {
		s->prefix = prefix;
		s->len = len;
		t->n++;
		if (!t->per_len[len]++)
			update_lens(t);
	}
	s->nh = nh;
	return 0;
}

int lpm_del(struct lpm *t, lpm_u128 prefix, int len)
{
	struct slot *s;
	size_t i, j;

	if (len < 0 || len > t->width)
		return -ENOENT;
	prefix &= lpm_mask(len, t->width);
	s = find(t, prefix, len);
	if (s->len < 0)
		return -ENOENT;
	s->len = -1;
	t->n--;
	if (!--t->per_len[len])
		update_lens(t);
	/* Linear probing: re-place the run after the hole. */
	i = (size_t)(s - t->slots);
	for (j = (i + 1) & (t->cap - 1); t->slots[j].len >= 0; j = (j + 1) & (t->cap - 1)) {
		struct slot moved = t->slots[j];

		t->slots[j].len = -1;
		*find(t, moved.prefix, moved.len) = moved;
	}
	return 0;
}

size_t lpm_count(const struct lpm *t)
{
	return t->n;
}

size_t lpm_routes(const struct lpm *t, struct lpm_route *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < t->cap; i++) {
		if (t->slots[i].len < 0)
			continue;
		if (n < max)
			out[n] = (struct lpm_route){t->slots[i].prefix, t->slots[i].len,
						    t->slots[i].nh};
		n++;
	}
	return n;
}

long lpm_lookup(const struct lpm *t, lpm_u128 addr)
{
	int i;

	for (i = 0; i < t->nr_lens; i++) {
		int len = t->lens[i];
		const struct slot *s = find(t, addr & lpm_mask(len, t->width), len);

		if (s->len >= 0)
			return s->nh;
	}
	return LPM_NONE;
}

long lpm4_lookup(const struct lpm *t, uint32_t addr)
{
	return lpm_lookup(t, addr);
}

long lpm6_lookup(const struct lpm *t, lpm_u128 addr)
{
	return lpm_lookup(t, addr);
}
