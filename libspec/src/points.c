// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "points.h"

const char *points_kind_name(enum spec_point_kind kind)
{
	switch (kind) {
	case SPEC_POINT_ENUM:
		return "spec_enum";
	case SPEC_POINT_RANGE:
		return "spec_range";
	case SPEC_POINT_GENERIC:
		return "spec_generic";
	case SPEC_POINT_ASSUME:
		return "spec_assume";
	case SPEC_POINT_CUSTOM:
		return "spec_custom";
	case SPEC_POINT_GEN:
		return "spec_gen";
	case SPEC_POINT_PTR:
		return "spec_ptr";
	}
	return "?";
}

struct spec_point *points_find(const struct point_table *t, const char *label)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (!strcmp(t->p[i]->label, label))
			return t->p[i];
	}
	return NULL;
}

static int site_copy(struct spec_site *dst, const struct spec_site *src)
{
	dst->function = strdup(src->function);
	dst->file = strdup(src->file);
	dst->line = src->line;
	if (!dst->function || !dst->file) {
		free(dst->function);
		free(dst->file);
		return -ENOMEM;
	}
	return 0;
}

static int same_shape(const struct spec_point *p, enum spec_point_kind kind, const int64_t *values,
		      size_t nr_values, int64_t lo, int64_t hi)
{
	if (p->kind != kind)
		return 0;
	if (kind == SPEC_POINT_ENUM)
		return p->nr_values == nr_values &&
		       !memcmp(p->values, values, nr_values * sizeof(*values));
	if (kind == SPEC_POINT_RANGE)
		return p->lo == lo && p->hi == hi;
	return 1;
}

static struct spec_point *point_new(struct point_table *t, const char *label,
				    enum spec_point_kind kind, const int64_t *values,
				    size_t nr_values, int64_t lo, int64_t hi)
{
	struct spec_point *p;

	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 8;
		struct spec_point **np = realloc(t->p, cap * sizeof(*np));

		if (!np)
			return NULL;
		t->p = np;
		t->cap = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->label = strdup(label);
	if (nr_values)
		p->values = malloc(nr_values * sizeof(*values));
	if (!p->label || (nr_values && !p->values)) {
		free(p->label);
		free(p->values);
		free(p);
		return NULL;
	}
	if (nr_values)
		memcpy(p->values, values, nr_values * sizeof(*values));
	p->kind = kind;
	p->nr_values = nr_values;
	p->lo = lo;
	p->hi = hi;
	p->idx = t->n;
	t->p[t->n++] = p;
	return p;
}

int points_add_site(struct point_table *t, const char *label, enum spec_point_kind kind,
		    const int64_t *values, size_t nr_values, int64_t lo, int64_t hi,
		    const struct spec_site *site, char *err, size_t errsz)
{
	struct spec_point *p = points_find(t, label);
	struct spec_site *ns;

	if (p && !same_shape(p, kind, values, nr_values, lo, hi)) {
		snprintf(err, errsz,
			 "%s:%d: point '%s' (%s) differs from its first site at %s:%d (%s)",
			 site->file, site->line, label, points_kind_name(kind), p->sites[0].file,
			 p->sites[0].line, points_kind_name(p->kind));
		return -EINVAL;
	}
	if (!p)
		p = point_new(t, label, kind, values, nr_values, lo, hi);
	if (!p)
		goto nomem;
	ns = realloc(p->sites, (p->nr_sites + 1) * sizeof(*ns));
	if (!ns)
		goto nomem;
	p->sites = ns;
	if (site_copy(&p->sites[p->nr_sites], site))
		goto nomem;
	p->nr_sites++;
	return 0;
nomem:
	snprintf(err, errsz, "out of memory adding point '%s'", label);
	return -ENOMEM;
}

void points_set_unguardable(struct spec_point *p, const char *why)
{
	if (!p->unguardable)
		p->unguardable = strdup(why);
}

void points_free(struct point_table *t)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		struct spec_point *p = t->p[i];
		struct spec_cleanup *c = atomic_load(&p->cleanup), *older;

		for (; c; c = older) {
			older = c->older;
			free(c);
		}
		for (j = 0; j < p->nr_sites; j++) {
			free(p->sites[j].function);
			free(p->sites[j].file);
		}
		free(p->sites);
		free(p->values);
		free(p->label);
		free(p->unguardable);
		free(p);
	}
	free(t->p);
	t->p = NULL;
	t->n = t->cap = 0;
}

void spec_rt_guard_fail(struct spec_point *p, int64_t observed)
{
	struct spec_cleanup *c;

	atomic_fetch_add_explicit(&p->failures, 1, memory_order_relaxed);
	c = atomic_load_explicit(&p->cleanup, memory_order_acquire);
	if (c && c->fn)
		c->fn(c->ctx, p->label, observed);
}
