// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: libspec's configuration text ("label=value,..."),
 * which services read from their own config files and command lines. A
 * configuration that parses must print back to text that parses to the
 * same configuration.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "libspec/libspec.h"

static void quiet(enum libspec_print_level level, void *ctx, const char *fmt, va_list ap)
{
	(void)level;
	(void)ctx;
	(void)fmt;
	(void)ap;
}

/* The canonical text of @c in a new buffer, or NULL. */
static char *text_of(const struct spec_config *c)
{
	int n = spec_config__format(c, NULL, 0);
	char *s;

	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (s && spec_config__format(c, s, (size_t)n + 1) != n) {
		free(s);
		return NULL;
	}
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	LIBSPEC_OPTS(spec_config_parse_opts, po, .print = quiet);
	struct spec_config *c, *again;
	char *text = fuzz_cstr(data, size);
	char *out = NULL, *out2 = NULL;

	if (!text)
		return 0;
	c = spec_config__parse_opts(text, &po);
	if (c) {
		out = text_of(c);
		again = out ? spec_config__parse_opts(out, &po) : NULL;
		if (!again)
			abort();
		out2 = text_of(again);
		if (!out2 || strcmp(out, out2))
			abort();
		spec_config__free(again);
		spec_config__free(c);
	}
	free(out);
	free(out2);
	free(text);
	return 0;
}
