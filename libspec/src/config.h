/* SPDX-License-Identifier: GPL-2.0 */
/* Configurations: label -> setting maps, kept sorted so text is canonical. */
#ifndef LIBSPEC_CONFIG_H
#define LIBSPEC_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

#include "libspec/libspec.h"

#define CONFIG_LABEL_MAX 100

enum cfg_mode {
	CFG_DISABLED = 0,
	CFG_VALUE,   /* value point set to a constant */
	CFG_ENABLED, /* assume or custom point on */
};

struct cfg_entry {
	char *label;
	enum cfg_mode mode;
	int64_t value;
	bool noguard;
	uint32_t every; /* sampling period, 0 = off */
	int64_t param;	/* spec_gen points: the generator's parameter */
};

struct spec_config {
	struct cfg_entry *e;
	size_t n, cap;
};

/* Entry of @label or NULL. */
const struct cfg_entry *config_find(const struct spec_config *cfg, const char *label);

/* Labels must survive the text form: no separators or spaces. */
bool config_label_ok(const char *label);

struct libspec_log;
/* spec_config__parse() naming a bad entry to @log (NULL: the default). */
struct spec_config *config_parse(const char *text, const struct libspec_log *log);

#endif /* LIBSPEC_CONFIG_H */
