// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "lpm_gen.h"

static struct spec_u128 u128(lpm_u128 v)
{
	return (struct spec_u128){(uint64_t)v, (uint64_t)(v >> 64)};
}

/* Hot destinations with the answers the sampled lookups gave. */
static int fast_path(struct spec_gen *g, size_t k)
{
	size_t n, i;
	const struct spec_observed *hot = spec_gen__hot(g, &n);
	struct spec_gen_exact *c;
	int ret;

	if (n > k)
		n = k;
	if (!n)
		return 0;
	c = calloc(n, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		c[i].key = (struct spec_u128){(uint64_t)hot[i].value, (uint64_t)hot[i].value_hi};
		c[i].out = hot[i].out;
	}
	ret = spec_gen__exact(g, 0, c, n);
	free(c);
	return ret;
}

static int by_start(const void *a, const void *b)
{
	const struct lpm_route *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return x->len - y->len; /* the enclosing route first */
}

struct intervals {
	struct spec_gen_range *r;
	size_t n;
};

/* Append [lo, hi] -> nh, merged with an adjacent equal neighbour. */
static void put(struct intervals *iv, lpm_u128 lo, lpm_u128 hi, long nh)
{
	struct spec_gen_range *last = iv->n ? &iv->r[iv->n - 1] : NULL;

	if (lo > hi)
		return;
	if (last && last->out == nh && (((lpm_u128)last->hi.hi << 64) | last->hi.lo) + 1 == lo) {
		last->hi = u128(hi);
		return;
	}
	iv->r[iv->n++] = (struct spec_gen_range){u128(lo), u128(hi), nh};
}

/*
 * The table as disjoint address intervals, each with the next hop of its
 * longest matching route: a sweep over the routes by start address with a
 * stack of the routes enclosing the current position.
 */
static int to_intervals(const struct lpm *t, struct intervals *iv)
{
	size_t n = lpm_count(t), i, depth = 0;
	int width = lpm_width(t);
	struct lpm_route *r = calloc(n ? n : 1, sizeof(*r)), *stack[130];
	lpm_u128 pos = 0;
	bool done = false;

	/* Every route adds at most two boundaries. */
	iv->r = calloc(2 * n + 1, sizeof(*iv->r));
	iv->n = 0;
	if (!r || !iv->r) {
		free(r);
		free(iv->r);
		return -ENOMEM;
	}
	n = lpm_routes(t, r, n);
	qsort(r, n, sizeof(*r), by_start);
	for (i = 0; i <= n; i++) {
		lpm_u128 start = i < n ? r[i].prefix : 0;

		/* Close the enclosing routes that end before this one starts. */
		while (depth) {
			struct lpm_route *top = stack[depth - 1];
			lpm_u128 end = top->prefix | ~lpm_mask(top->len, width);

			end &= lpm_mask(width, width);
			if (i < n && end >= start)
				break;
			if (!done)
				put(iv, pos, end, top->nh);
			done = end == lpm_mask(width, width);
			pos = end + 1;
			depth--;
		}
		if (i == n)
			break;
		if (depth)
			put(iv, pos, start - 1, stack[depth - 1]->nh);
		pos = start;
		done = false;
		stack[depth++] = &r[i];
	}
	free(r);
	return 0;
}

/* The whole table as nested ifs: a balanced tree of compares over its
 * intervals, every answer compiled in.
 */
static int nested_ifs(struct spec_gen *g, const struct lpm *t)
{
	struct intervals iv;
	int ret = to_intervals(t, &iv);

	if (ret)
		return ret;
	ret = spec_gen__ranges(g, 0, iv.r, iv.n);
	free(iv.r);
	return ret ? ret : spec_gen__default_value(g, LPM_NONE);
}

int lpm_gen(void *ctx, struct spec_gen *g)
{
	const struct lpm *t = spec_gen__data(g);
	int64_t param = spec_gen__param(g);
	int ret = 0;

	(void)ctx;
	if (!t)
		return -EINVAL; /* enabled without a table */
	if (LPM_GEN_FP(param))
		ret = fast_path(g, (size_t)LPM_GEN_FP(param));
	if (!ret && (param & LPM_GEN_NI))
		ret = nested_ifs(g, t);
	return ret;
}

struct spec_config *lpm_gen_config(const char *label, const struct lpm *t, int64_t param,
				   uint32_t every)
{
	struct spec_config *c = spec_config__new();

	if (!c)
		return NULL;
	if ((param &&
	     (spec_config__set_data(c, label, t) || spec_config__set_param(c, label, param))) ||
	    (every && spec_config__set_sampling(c, label, every))) {
		spec_config__free(c);
		return NULL;
	}
	return c;
}
