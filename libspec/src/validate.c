// SPDX-License-Identifier: GPL-2.0
/*
 * Validation happens in the caller of specialize(), before anything is
 * queued, so a bad configuration is refused at once with its reason and
 * nothing is half-applied.
 */
#include <inttypes.h>
#include <stdio.h>

#include "log.h"
#include "runtime_error.h"
#include "validate.h"

int validate_fail(struct spec_runtime *rt, int err, const char *fmt, ...)
{
	char msg[RT_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&rt->lock);
	rt_set_error(rt, err, msg);
	pthread_mutex_unlock(&rt->lock);
	return libspec_err(err);
}

static void list_values(const struct spec_point *p, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < p->nr_values && len + 24 < size; i++)
		len += snprintf(buf + len, size - len, "%s%" PRId64, i ? ", " : "", p->values[i]);
}

static int validate_entry(struct spec_runtime *rt, const struct cfg_entry *e)
{
	struct spec_point *p = points_find(&rt->pts, e->label);
	const char *kind;
	char vals[256];
	bool value_kind;

	if (!p)
		return validate_fail(rt, -ENOENT,
				     "unknown label '%s': no point of that name in the IR",
				     e->label);
	kind = points_kind_name(p->kind);
	value_kind = p->kind == SPEC_POINT_ENUM || p->kind == SPEC_POINT_RANGE ||
		     p->kind == SPEC_POINT_GENERIC || p->kind == SPEC_POINT_PTR;
	if (e->param && p->kind != SPEC_POINT_GEN)
		return validate_fail(rt, -EINVAL,
				     "'%s' is a %s point (%s:%d): only spec_gen points take a "
				     "generator parameter (/P)",
				     e->label, kind, p->sites[0].file, p->sites[0].line);
	if (p->kind == SPEC_POINT_GEN) {
		if (e->mode != CFG_DISABLED && !p->emit)
			return validate_fail(rt, -EINVAL,
					     "spec_gen point '%s' (%s:%d) has no generator "
					     "registered (spec_runtime__add_gen)",
					     e->label, p->sites[0].file, p->sites[0].line);
		return 0;
	}
	if (e->mode == CFG_VALUE && !value_kind)
		return validate_fail(rt, -EINVAL,
				     "'%s' is a %s point (%s:%d): it is enabled, not set to "
				     "a value",
				     e->label, kind, p->sites[0].file, p->sites[0].line);
	if (e->mode == CFG_ENABLED && value_kind && p->kind != SPEC_POINT_RANGE)
		return validate_fail(rt, -EINVAL, "'%s' is a %s point (%s:%d): it needs a value",
				     e->label, kind, p->sites[0].file, p->sites[0].line);
	if (e->mode == CFG_VALUE && p->kind == SPEC_POINT_ENUM) {
		size_t i;

		for (i = 0; i < p->nr_values && p->values[i] != e->value; i++)
			;
		if (i == p->nr_values) {
			list_values(p, vals, sizeof(vals));
			return validate_fail(
				rt, -EINVAL,
				"value %" PRId64 " for '%s' (spec_enum at %s:%d) is not one "
				"of {%s}",
				e->value, e->label, p->sites[0].file, p->sites[0].line, vals);
		}
	}
	if (e->mode == CFG_VALUE && p->kind == SPEC_POINT_RANGE &&
	    (e->value < p->lo || e->value > p->hi))
		return validate_fail(rt, -ERANGE,
				     "value %" PRId64 " for '%s' (spec_range at %s:%d) is outside "
				     "[%" PRId64 ", %" PRId64 "]",
				     e->value, e->label, p->sites[0].file, p->sites[0].line, p->lo,
				     p->hi);
	if (e->mode == CFG_ENABLED && p->kind == SPEC_POINT_CUSTOM && !p->gen)
		return validate_fail(rt, -EINVAL,
				     "custom point '%s' (%s:%d) has no generator registered",
				     e->label, p->sites[0].file, p->sites[0].line);
	if (e->every && p->kind == SPEC_POINT_ASSUME)
		return validate_fail(rt, -EINVAL, "'%s' is a spec_assume point: no value to sample",
				     e->label);
	if (e->mode != CFG_DISABLED && !e->noguard && p->unguardable &&
	    p->kind != SPEC_POINT_CUSTOM)
		return validate_fail(rt, -EINVAL,
				     "guard of '%s' cannot be placed at %s; turn it off "
				     "(!noguard) only if the value always holds",
				     e->label, p->unguardable);
	return 0;
}

int validate_config(struct spec_runtime *rt, const struct spec_config *cfg)
{
	size_t i;
	int ret;

	for (i = 0; i < cfg->n; i++) {
		ret = validate_entry(rt, &cfg->e[i]);
		if (ret)
			return ret;
	}
	return 0;
}
