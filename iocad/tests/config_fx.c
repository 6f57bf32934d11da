// SPDX-License-Identifier: GPL-2.0
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "config_fx.h"

struct config *config_fx_parse(const char *text, char *err, size_t len, int *rc)
{
	struct config *c = malloc(sizeof(*c));

	assert_non_null(c);
	config_defaults(c);
	c->ntenants = CONFIG_FX_MARKER;
	*rc = config_parse_string(text, "t.ini", c, err, len);
	return c;
}
