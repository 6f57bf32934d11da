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

static int keep(enum libspec_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBSPEC_WARN)
		vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	return 0;
}

void tu_capture(void)
{
	last_msg[0] = '\0';
	libspec_set_print(keep);
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
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(tu_ir(name), NULL);
	if (!rt)
		fail_msg("open %s: %s", tu_ir(name), tu_last_msg());
	return rt;
}

struct spec_runtime *tu_open_loaded(const char *name, const struct spec_runtime_opts *opts)
{
	struct spec_runtime *rt;

	tu_capture();
	rt = spec_runtime__open(tu_ir(name), opts);
	if (!rt)
		fail_msg("open %s: %s", tu_ir(name), tu_last_msg());
	if (spec_runtime__load(rt))
		fail_msg("load %s: %s", tu_ir(name), tu_last_msg());
	return rt;
}

int tu_specialize(struct spec_runtime *rt, const char *text)
{
	struct spec_config *cfg = spec_config__parse(text);
	int ret;

	if (!cfg)
		fail_msg("parse \"%s\": %s", text, tu_last_msg());
	ret = spec_runtime__specialize_sync(rt, cfg, NULL);
	spec_config__free(cfg);
	return ret;
}
