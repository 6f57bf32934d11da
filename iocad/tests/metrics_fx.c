// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "metrics_fx.h"
#include "metrics/metrics_render.h"

struct metrics_fx *metrics_fx_new(const char *cfg_text)
{
	struct metrics_fx *x = calloc(1, sizeof(*x));
	char err[256];

	assert_non_null(x);
	assert_int_equal(config_parse_string(cfg_text, "m.ini", &x->cfg, err, sizeof(err)), 0);
	assert_int_equal(metrics_init(&x->m), 0);
	assert_int_equal(metrics_add_socket(&x->m, &x->cfg, NULL), 0);
	return x;
}

void metrics_fx_free(struct metrics_fx *x)
{
	metrics_destroy(&x->m);
	free(x);
}

char *metrics_fx_render(struct metrics *m)
{
	struct metrics_snapshot *s = malloc(sizeof(*s));
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(s);
	metrics_copy(m, s);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(metrics_render(s, f), 0);
	assert_int_equal(fclose(f), 0);
	free(s);
	return text;
}

static const char *find(const char *text, const char *series)
{
	size_t n = strlen(series);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, series, n) && l[n] == ' ')
			return l + n + 1;
	return NULL;
}

bool metrics_fx_has(const char *text, const char *series)
{
	return find(text, series) != NULL;
}

double metrics_fx_value(const char *text, const char *series)
{
	const char *v = find(text, series);

	if (!v)
		fail_msg("no sample %s in:\n%s", series, text);
	return strtod(v, NULL);
}

double metrics_fx_device(const char *text, const char *name, const char *labels, const char *mode)
{
	char series[512];

	if (mode)
		snprintf(series, sizeof(series), "%s%s,mode=\"%s\"}", name, labels, mode);
	else
		snprintf(series, sizeof(series), "%s%s}", name, labels);
	return metrics_fx_value(text, series);
}
