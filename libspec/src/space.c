// SPDX-License-Identifier: GPL-2.0
/* Snapshots of the specialization space with observations merged in. */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "runtime.h"
#include "sampler.h"

#define OBSERVED_MAX 32

struct spec_space {
	size_t n;
	struct spec_point_info *pts;
	struct spec_observed *obs; /* [n][OBSERVED_MAX] */
};

struct spec_space *spec_runtime__space(struct spec_runtime *rt)
{
	struct spec_space *s;
	size_t i;

	if (!rt)
		return libspec_err_ptr(-EINVAL);
	s = calloc(1, sizeof(*s));
	if (!s)
		return libspec_err_ptr(-ENOMEM);
	s->n = rt->pts.n;
	s->pts = calloc(s->n ? s->n : 1, sizeof(*s->pts));
	s->obs = calloc((s->n ? s->n : 1) * OBSERVED_MAX, sizeof(*s->obs));
	if (!s->pts || !s->obs) {
		spec_space__free(s);
		return libspec_err_ptr(-ENOMEM);
	}
	for (i = 0; i < s->n; i++) {
		const struct spec_point *p = rt->pts.p[i];
		struct spec_point_info *pi = &s->pts[i];

		/* Strings and values are owned by the runtime and immutable. */
		pi->label = p->label;
		pi->kind = p->kind;
		pi->function = p->sites[0].function;
		pi->file = p->sites[0].file;
		pi->line = p->sites[0].line;
		pi->nr_sites = p->nr_sites;
		pi->values = p->values;
		pi->nr_values = p->nr_values;
		pi->lo = p->lo;
		pi->hi = p->hi;
		pi->observed = &s->obs[i * OBSERVED_MAX];
		pi->nr_observed = sampler_merge(&rt->dom, p->idx, &s->obs[i * OBSERVED_MAX],
						OBSERVED_MAX, &pi->samples);
		pi->guard_failures = atomic_load(&p->failures);
	}
	return s;
}

size_t spec_space__size(const struct spec_space *space)
{
	return space ? space->n : 0;
}

const struct spec_point_info *spec_space__point(const struct spec_space *space, size_t i)
{
	if (!space || i >= space->n)
		return libspec_err_ptr(-ERANGE);
	return &space->pts[i];
}

const struct spec_point_info *spec_space__find(const struct spec_space *space, const char *label)
{
	size_t i;

	for (i = 0; space && label && i < space->n; i++) {
		if (!strcmp(space->pts[i].label, label))
			return &space->pts[i];
	}
	return libspec_err_ptr(-ENOENT);
}

const struct spec_observed *spec_point_info__observed(const struct spec_point_info *p, size_t i)
{
	if (!p || i >= p->nr_observed)
		return libspec_err_ptr(-ERANGE);
	return &p->observed[i];
}

void spec_space__free(struct spec_space *space)
{
	if (!space)
		return;
	free(space->pts);
	free(space->obs);
	free(space);
}
