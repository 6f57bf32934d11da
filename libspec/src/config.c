// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "log.h"

bool config_label_ok(const char *label)
{
	const char *p;

	if (!label || !*label || strlen(label) > CONFIG_LABEL_MAX)
		return false;
	for (p = label; *p; p++) {
		if (strchr(",=!~+", *p) || isspace((unsigned char)*p) ||
		    !isprint((unsigned char)*p))
			return false;
	}
	return true;
}

/* Binary search; *pos gets the insertion point when absent. */
static struct cfg_entry *find_pos(const struct spec_config *cfg, const char *label, size_t *pos)
{
	size_t lo = 0, hi = cfg->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(cfg->e[mid].label, label);

		if (!c) {
			*pos = mid;
			return &cfg->e[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return NULL;
}

const struct cfg_entry *config_find(const struct spec_config *cfg, const char *label)
{
	size_t pos;

	return find_pos(cfg, label, &pos);
}

/* Entry of @label, created disabled if absent. */
static struct cfg_entry *get_entry(struct spec_config *cfg, const char *label, int *err)
{
	struct cfg_entry *e;
	size_t pos;

	/* A plain value logs nothing: -EINVAL says it (parsing names the entry). */
	if (!cfg || !config_label_ok(label)) {
		*err = libspec_err(-EINVAL);
		return NULL;
	}
	e = find_pos(cfg, label, &pos);
	if (e)
		return e;
	if (cfg->n == cfg->cap) {
		size_t cap = cfg->cap ? cfg->cap * 2 : 8;
		struct cfg_entry *ne = realloc(cfg->e, cap * sizeof(*ne));

		if (!ne) {
			*err = libspec_err(-ENOMEM);
			return NULL;
		}
		cfg->e = ne;
		cfg->cap = cap;
	}
	e = &cfg->e[pos];
	memmove(e + 1, e, (cfg->n - pos) * sizeof(*e));
	memset(e, 0, sizeof(*e));
	e->label = strdup(label);
	if (!e->label) {
		memmove(e, e + 1, (cfg->n - pos) * sizeof(*e));
		*err = libspec_err(-ENOMEM);
		return NULL;
	}
	cfg->n++;
	return e;
}

struct spec_config *spec_config__new(void)
{
	struct spec_config *cfg = calloc(1, sizeof(*cfg));

	if (!cfg)
		return libspec_err_ptr(-ENOMEM);
	return cfg;
}

void spec_config__free(struct spec_config *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->n; i++)
		free(cfg->e[i].label);
	free(cfg->e);
	free(cfg);
}

int spec_config__merge(struct spec_config *dst, const struct spec_config *src)
{
	size_t i;
	int err = 0;

	if (!dst || !src)
		return libspec_err(-EINVAL);
	for (i = 0; i < src->n; i++) {
		struct cfg_entry *e = get_entry(dst, src->e[i].label, &err);

		if (!e)
			return err;
		e->mode = src->e[i].mode;
		e->value = src->e[i].value;
		e->noguard = src->e[i].noguard;
		e->every = src->e[i].every;
		e->param = src->e[i].param;
	}
	return 0;
}

struct spec_config *spec_config__dup(const struct spec_config *cfg)
{
	struct spec_config *c;
	int err;

	if (!cfg)
		return libspec_err_ptr(-EINVAL);
	c = spec_config__new();
	if (!c)
		return NULL;
	err = spec_config__merge(c, cfg);
	if (err) {
		spec_config__free(c);
		return libspec_err_ptr(err);
	}
	return c;
}

int spec_config__set_value(struct spec_config *cfg, const char *label, int64_t value)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->mode = CFG_VALUE;
	e->value = value;
	return 0;
}

int spec_config__set_data(struct spec_config *cfg, const char *label, const void *data)
{
	return spec_config__set_value(cfg, label, (int64_t)(uintptr_t)data);
}

int spec_config__set_param(struct spec_config *cfg, const char *label, int64_t param)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->param = param;
	return 0;
}

int spec_config__enable(struct spec_config *cfg, const char *label)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->mode = CFG_ENABLED;
	e->value = 0;
	return 0;
}

int spec_config__disable(struct spec_config *cfg, const char *label)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->mode = CFG_DISABLED;
	e->value = 0;
	e->param = 0;
	return 0;
}

int spec_config__set_guard(struct spec_config *cfg, const char *label, bool on)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->noguard = !on;
	return 0;
}

int spec_config__set_sampling(struct spec_config *cfg, const char *label, uint32_t every_n)
{
	int err = 0;
	struct cfg_entry *e = get_entry(cfg, label, &err);

	if (!e)
		return err;
	e->every = every_n;
	return 0;
}

int spec_config__get_value(const struct spec_config *cfg, const char *label, int64_t *value)
{
	const struct cfg_entry *e;

	if (!cfg || !label || !value)
		return libspec_err(-EINVAL);
	e = config_find(cfg, label);
	if (!e || e->mode != CFG_VALUE)
		return 0;
	*value = e->value;
	return 1;
}

int spec_config__format(const struct spec_config *cfg, char *buf, size_t size)
{
	size_t i, len = 0;
	const char *sep = "";

	if (!cfg || (!buf && size))
		return libspec_err(-EINVAL);
	if (size)
		buf[0] = '\0';
	for (i = 0; i < cfg->n; i++) {
		const struct cfg_entry *e = &cfg->e[i];
		char item[160];
		int n;

		if (e->mode == CFG_DISABLED && !e->every)
			continue;
		n = snprintf(item, sizeof(item), "%s%s", sep, e->label);
		if (e->mode == CFG_VALUE)
			n += snprintf(item + n, sizeof(item) - n, "=%" PRId64, e->value);
		else if (e->mode == CFG_ENABLED)
			n += snprintf(item + n, sizeof(item) - n, "+");
		if (e->mode != CFG_DISABLED && e->param)
			n += snprintf(item + n, sizeof(item) - n, "/%" PRId64, e->param);
		if (e->mode != CFG_DISABLED && e->noguard)
			n += snprintf(item + n, sizeof(item) - n, "!noguard");
		if (e->every)
			n += snprintf(item + n, sizeof(item) - n, "~%" PRIu32, e->every);
		if ((size_t)n >= sizeof(item))
			return libspec_err(-ENAMETOOLONG);
		if (len + n < size)
			memcpy(buf + len, item, n + 1);
		else if (size)
			buf[size - 1] = '\0';
		len += n;
		sep = ",";
	}
	return (int)len;
}

/* One "label[=V|+][!noguard][~N]" item of @len chars at @s. */
static int parse_item(struct spec_config *cfg, const char *s, size_t len, char *why, size_t whysz)
{
	char label[CONFIG_LABEL_MAX + 1], rest[64], *p, *end;
	size_t l;
	int err;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	l = strcspn(s, "=+!~,");
	if (l > len)
		l = len;
	if (!l || l > CONFIG_LABEL_MAX || len - l >= sizeof(rest))
		return -EINVAL;
	memcpy(label, s, l);
	label[l] = '\0';
	memcpy(rest, s + l, len - l);
	rest[len - l] = '\0';
	if (!rest[0]) {
		snprintf(why, whysz,
			 ": bare label '%s': write %s=V (value), %s+ (enable) or %s~N (sample)",
			 label, label, label, label);
		return -EINVAL;
	}
	if (config_find(cfg, label)) {
		snprintf(why, whysz, ": label '%s' appears twice", label);
		return -EINVAL;
	}
	err = spec_config__disable(cfg, label);
	if (err) {
		if (err == -EINVAL)
			snprintf(why, whysz, ": bad label '%s'", label);
		return err;
	}
	p = rest;
	if (*p == '=') {
		long long v;

		errno = 0;
		v = strtoll(p + 1, &end, 0);
		if (errno || end == p + 1)
			return -EINVAL;
		spec_config__set_value(cfg, label, v);
		p = end;
	} else if (*p == '+') {
		spec_config__enable(cfg, label);
		p++;
	}
	if (*p == '/' && p != rest) {
		long long v;

		errno = 0;
		v = strtoll(p + 1, &end, 0);
		if (errno || end == p + 1)
			return -EINVAL;
		spec_config__set_param(cfg, label, v);
		p = end;
	}
	if (!strncmp(p, "!noguard", 8)) {
		spec_config__set_guard(cfg, label, false);
		p += 8;
	}
	if (*p == '~') {
		unsigned long v;

		errno = 0;
		v = strtoul(p + 1, &end, 0);
		if (errno || end == p + 1 || v > UINT32_MAX)
			return -EINVAL;
		spec_config__set_sampling(cfg, label, (uint32_t)v);
		p = end;
	}
	return *p ? -EINVAL : 0;
}

struct spec_config *config_parse(const char *text, const struct libspec_log *log)
{
	struct spec_config *cfg;
	const char *s, *comma;

	if (!text)
		return libspec_err_ptr(-EINVAL);
	cfg = spec_config__new();
	if (!cfg)
		return NULL;
	if (strspn(text, " \t\n") == strlen(text))
		return cfg;
	for (s = text;; s = comma + 1) {
		char why[512] = "";
		size_t len;
		int err;

		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		err = parse_item(cfg, s, len, why, sizeof(why));
		if (err) {
			pr_warn(log, "config: bad entry '%.*s' at offset %zu of \"%s\"%s", (int)len,
				s, (size_t)(s - text), text, why);
			spec_config__free(cfg);
			return libspec_err_ptr(err);
		}
		if (!comma)
			break;
	}
	return cfg;
}

struct spec_config *spec_config__parse(const char *text)
{
	return config_parse(text, NULL);
}

struct spec_config *spec_config__parse_opts(const char *text,
					    const struct spec_config_parse_opts *opts)
{
	struct libspec_log log = LIBSPEC_LOG_OPTS(opts);

	if (!OPTS_VALID(&log, opts, spec_config_parse_opts))
		return libspec_err_ptr(-EINVAL);
	return config_parse(text, &log);
}
