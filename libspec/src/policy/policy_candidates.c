// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy_candidates.h"

/* One axis of the product: the values of a point, or off/on. */
struct dim {
	const char *label;
	bool toggle;	       /* assume or custom point: choice 0 off, 1 on */
	bool optional;	       /* observed values: choice 0 not set, i values[i - 1] */
	const int64_t *values; /* enum point */
	int64_t lo;	       /* range point (values == NULL, !toggle) */
	uint64_t n;	       /* number of choices */
};

static int dim_of(const struct spec_point_info *pt, const struct policy_space_opts *o, bool listed,
		  struct dim *d, char *err, size_t errsz)
{
	uint64_t span;

	memset(d, 0, sizeof(*d));
	d->label = pt->label;
	switch (pt->kind) {
	case SPEC_POINT_ENUM:
		d->values = pt->values;
		d->n = pt->nr_values;
		return d->n ? 1
			    : (snprintf(err, errsz, "point '%s' has no values", pt->label),
			       -EINVAL);
	case SPEC_POINT_RANGE:
		span = (uint64_t)pt->hi - (uint64_t)pt->lo;
		if (pt->hi < pt->lo || span >= o->max_range_values) {
			if (!listed)
				return 0;
			snprintf(err, errsz,
				 "labels: range point '%s' [%" PRId64 ", %" PRId64
				 "] has more than max_range_values=%" PRIu64 " values",
				 pt->label, pt->lo, pt->hi, o->max_range_values);
			return -E2BIG;
		}
		d->lo = pt->lo;
		d->n = span + 1;
		return 1;
	case SPEC_POINT_ASSUME:
		d->toggle = true;
		d->n = 2;
		return 1;
	case SPEC_POINT_CUSTOM:
		/* Enabling one needs a generator the service registered. */
		if (!listed)
			return 0;
		d->toggle = true;
		d->n = 2;
		return 1;
	case SPEC_POINT_GEN:
		/* Its setting is the data pointer: only the service knows it. */
		if (!listed)
			return 0;
		snprintf(err, errsz,
			 "labels: spec_gen point '%s' is set to its data; give it in extra",
			 pt->label);
		return -EINVAL;
	case SPEC_POINT_PTR:
	case SPEC_POINT_GENERIC:
		if (!listed)
			return 0;
		snprintf(
			err, errsz,
			"labels: generic point '%s' has no values to enumerate; give them in extra",
			pt->label);
		return -EINVAL;
	}
	snprintf(err, errsz, "point '%s' has unknown kind %d", pt->label, (int)pt->kind);
	return -EINVAL;
}

static bool observed(const struct policy_space_opts *o, const char *label)
{
	size_t i;

	for (i = 0; i < o->nr_observe; i++)
		if (!strcmp(o->observe[i], label))
			return true;
	return false;
}

/* Observed points: value points of the space, not also in .labels. */
static int check_observe(const struct spec_space *space, const struct policy_space_opts *o,
			 char *err, size_t errsz)
{
	const struct spec_point_info *pt;
	size_t i, j;

	for (i = 0; i < o->nr_observe; i++) {
		pt = o->observe[i] ? spec_space__find(space, o->observe[i]) : NULL;
		if (!pt) {
			snprintf(err, errsz, "observe_labels[%zu]: no point labelled '%s'", i,
				 o->observe[i] ? o->observe[i] : "(null)");
			return -ENOENT;
		}
		if (pt->kind == SPEC_POINT_ASSUME || pt->kind == SPEC_POINT_CUSTOM) {
			snprintf(err, errsz, "observe_labels[%zu]: '%s' is not a value point", i,
				 pt->label);
			return -EINVAL;
		}
		for (j = 0; o->labels && j < o->nr_labels; j++) {
			if (o->labels[j] && !strcmp(o->labels[j], pt->label)) {
				snprintf(err, errsz, "observe_labels[%zu]: '%s' is in labels too",
					 i, pt->label);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int collect_dims(const struct spec_space *space, const struct policy_space_opts *o,
			struct dim **out, size_t *nr, char *err, size_t errsz)
{
	size_t n = o->labels ? o->nr_labels : spec_space__size(space);
	struct dim *dims = calloc(n + o->nr_obs + 1, sizeof(*dims));
	size_t i, j, k = 0;
	int ret;

	if (!dims)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct spec_point_info *pt;

		if (o->labels) {
			if (!o->labels[i]) {
				snprintf(err, errsz, "labels[%zu] is NULL", i);
				ret = -EINVAL;
				goto fail;
			}
			for (j = 0; j < i; j++) {
				if (!strcmp(o->labels[j], o->labels[i])) {
					snprintf(err, errsz, "labels[%zu]: '%s' listed twice", i,
						 o->labels[i]);
					ret = -EINVAL;
					goto fail;
				}
			}
			pt = spec_space__find(space, o->labels[i]);
			if (!pt) {
				snprintf(err, errsz, "labels[%zu]: no point labelled '%s'", i,
					 o->labels[i]);
				ret = -ENOENT;
				goto fail;
			}
		} else {
			pt = spec_space__point(space, i);
			if (!pt) {
				ret = -errno;
				goto fail;
			}
		}
		if (observed(o, pt->label))
			continue; /* searched over its observed values below */
		ret = dim_of(pt, o, o->labels != NULL, &dims[k], err, errsz);
		if (ret < 0)
			goto fail;
		k += ret;
	}
	for (i = 0; i < o->nr_obs; i++, k++) {
		dims[k].label = o->obs[i].label;
		dims[k].optional = true;
		dims[k].values = o->obs[i].values;
		dims[k].n = o->obs[i].nr + 1;
	}
	*out = dims;
	*nr = k;
	return 0;
fail:
	free(dims);
	return ret;
}

/* Canonical text of @cfg in a new string. */
static int cfg_text(const struct spec_config *cfg, char **out)
{
	char small[256];
	int len = spec_config__format(cfg, small, sizeof(small));

	if (len < 0)
		return len;
	*out = malloc((size_t)len + 1);
	if (!*out)
		return -ENOMEM;
	if ((size_t)len < sizeof(small))
		memcpy(*out, small, (size_t)len + 1);
	else
		spec_config__format(cfg, *out, (size_t)len + 1);
	return 0;
}

/* Every label an extra configuration names must be a point of the space. */
static int check_extra(const struct spec_space *space, const struct spec_config *cfg, size_t idx,
		       char *err, size_t errsz)
{
	char *text, *tok, *save = NULL;
	int ret = cfg_text(cfg, &text);

	if (ret)
		return ret;
	for (tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		tok[strcspn(tok, "=+!~")] = '\0';
		if (*tok && !spec_space__find(space, tok)) {
			snprintf(err, errsz, "extra[%zu]: no point labelled '%s'", idx, tok);
			ret = -ENOENT;
			break;
		}
	}
	free(text);
	return ret;
}

static int set_choice(struct spec_config *cfg, const struct dim *d, uint64_t choice)
{
	if (d->optional)
		return choice ? spec_config__set_value(cfg, d->label, d->values[choice - 1]) : 0;
	if (d->toggle)
		return choice ? spec_config__enable(cfg, d->label) : 0;
	if (d->values)
		return spec_config__set_value(cfg, d->label, d->values[choice]);
	return spec_config__set_value(cfg, d->label, (int64_t)((uint64_t)d->lo + choice));
}

/* Append @cfg (taking it) unless an equal candidate is already there. */
static int add_unique(struct policy_cand *c, size_t *n, struct spec_config *cfg)
{
	char *text;
	size_t i;
	int ret = cfg_text(cfg, &text);

	if (ret) {
		spec_config__free(cfg);
		return ret;
	}
	for (i = 0; i < *n; i++) {
		if (!strcmp(c[i].text, text)) {
			free(text);
			spec_config__free(cfg);
			return 0;
		}
	}
	c[*n].cfg = cfg;
	c[*n].text = text;
	c[*n].score = NAN;
	c[*n].err = 0;
	(*n)++;
	return 0;
}

/* One point of the product: the first dimension varies slowest. */
static struct spec_config *product_point(const struct dim *dims, size_t nr_dims, uint64_t idx,
					 const struct spec_config *extra,
					 const struct policy_space_opts *o, int *ret)
{
	struct spec_config *cfg = spec_config__new();
	size_t i;

	*ret = cfg ? 0 : -ENOMEM;
	for (i = nr_dims; cfg && !*ret && i-- > 0;) {
		*ret = set_choice(cfg, &dims[i], idx % dims[i].n);
		idx /= dims[i].n;
	}
	if (cfg && !*ret && extra)
		*ret = spec_config__merge(cfg, extra);
	for (i = 0; cfg && !*ret && i < o->nr_noguard; i++) {
		int64_t v;

		if (spec_config__get_value(cfg, o->noguard[i], &v) == 1)
			*ret = spec_config__set_guard(cfg, o->noguard[i], false);
	}
	if (*ret) {
		spec_config__free(cfg);
		return NULL;
	}
	return cfg;
}

int policy_candidates_build(const struct spec_space *space, const struct policy_space_opts *o,
			    struct policy_cand **out, size_t *nr, char *err, size_t errsz)
{
	size_t nr_dims = 0, n = 0, i, nx = o->nr_extra ? o->nr_extra : 1;
	struct policy_cand *c = NULL;
	struct dim *dims = NULL;
	uint64_t prod = 1, total, idx;
	int ret;

	for (i = 0; i < o->nr_extra; i++) {
		ret = o->extra[i] ? check_extra(space, o->extra[i], i, err, errsz) : -EINVAL;
		if (!o->extra[i])
			snprintf(err, errsz, "extra[%zu] is NULL", i);
		if (ret)
			return ret;
	}
	for (i = 0; i < o->nr_noguard; i++) {
		if (!o->noguard[i] || !spec_space__find(space, o->noguard[i])) {
			snprintf(err, errsz, "noguard_labels[%zu]: no point labelled '%s'", i,
				 o->noguard[i] ? o->noguard[i] : "(null)");
			return -ENOENT;
		}
	}
	ret = check_observe(space, o, err, errsz);
	if (ret)
		return ret;
	ret = collect_dims(space, o, &dims, &nr_dims, err, errsz);
	if (ret)
		return ret;
	for (i = 0; i < nr_dims; i++) {
		if (dims[i].n > o->max_candidates || prod > o->max_candidates / dims[i].n)
			goto too_big;
		prod *= dims[i].n;
	}
	if (prod > o->max_candidates / nx)
		goto too_big;
	total = prod * nx + (o->include_generic ? 1 : 0);
	if (total > o->max_candidates)
		goto too_big;
	c = calloc(total, sizeof(*c));
	if (!c) {
		ret = -ENOMEM;
		goto out;
	}
	if (o->include_generic) {
		struct spec_config *g = spec_config__new();

		ret = g ? add_unique(c, &n, g) : -ENOMEM;
		if (ret)
			goto out;
	}
	for (idx = 0; idx < prod; idx++) {
		for (i = 0; i < nx; i++) {
			struct spec_config *cfg;

			cfg = product_point(dims, nr_dims, idx, o->nr_extra ? o->extra[i] : NULL, o,
					    &ret);
			if (!cfg)
				goto out;
			ret = add_unique(c, &n, cfg);
			if (ret)
				goto out;
		}
	}
	*out = c;
	*nr = n;
	c = NULL;
	goto out;
too_big:
	snprintf(err, errsz,
		 "the search has more than max_candidates=%zu candidates (%zu dimensions, %zu "
		 "extra)",
		 o->max_candidates, nr_dims, o->nr_extra);
	ret = -E2BIG;
out:
	if (ret)
		policy_candidates_free(c, n);
	free(dims);
	return ret;
}

void policy_candidates_free(struct policy_cand *c, size_t nr)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < nr; i++) {
		spec_config__free(c[i].cfg);
		free(c[i].text);
	}
	free(c);
}
