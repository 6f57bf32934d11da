// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

static char last_msg[2048];

const char *tu_ir(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s.ll", HANDLER_DIR, name);
	return path;
}

void tu_print(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)ctx;
	if (level == LIBSPEC_PRINT_WARN)
		vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
}

void tu_capture(void)
{
	last_msg[0] = '\0';
}

const char *tu_last_msg(void)
{
	return last_msg;
}

uint64_t tu_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

struct spec_runtime *tu_open(const char *name)
{
	LIBSPEC_OPTS(spec_runtime_opts, o, .print = tu_print);
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(tu_ir(name), &o);
	if (!rt)
		fail_msg("open %s: %s", tu_ir(name), tu_last_msg());
	return rt;
}

struct spec_runtime *tu_open_loaded(const char *name, const struct spec_runtime_opts *opts)
{
	LIBSPEC_OPTS(spec_runtime_opts, o, .print = tu_print);
	struct spec_runtime *rt;

	/* The caller's options, with the tests' callback unless they name one. */
	if (opts) {
		o = *opts;
		if (!o.print)
			o.print = tu_print;
	}
	tu_capture();
	rt = spec_runtime__open(tu_ir(name), &o);
	if (!rt)
		fail_msg("open %s: %s", tu_ir(name), tu_last_msg());
	if (spec_runtime__load(rt))
		fail_msg("load %s: %s", tu_ir(name), tu_last_msg());
	return rt;
}

int tu_specialize(struct spec_runtime *rt, const char *text)
{
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = tu_print);
	struct spec_config *cfg = spec_config__parse_opts(text, &po);
	int ret;

	if (!cfg)
		fail_msg("parse \"%s\": %s", text, tu_last_msg());
	ret = spec_runtime__specialize_sync(rt, cfg, NULL);
	spec_config__free(cfg);
	return ret;
}
