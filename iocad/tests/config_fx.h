/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing a config text in the config tests. */
#ifndef IOCAD_TESTS_CONFIG_FX_H
#define IOCAD_TESTS_CONFIG_FX_H

#include <stddef.h>

#include "config/config.h"

/* ntenants of the struct before parsing: an error must leave it. */
#define CONFIG_FX_MARKER 7

/*
 * @text parsed as "t.ini" into a new config (free it) that holds the
 * defaults and CONFIG_FX_MARKER tenants before; @rc and @err are
 * config_parse_string()'s.
 */
struct config *config_fx_parse(const char *text, char *err, size_t len, int *rc);

#endif /* IOCAD_TESTS_CONFIG_FX_H */
