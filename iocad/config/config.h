/* SPDX-License-Identifier: GPL-2.0 */
/*
 * iocad's tenant config: an INI file with one [platform] section and one
 * [tenant NAME] section per tenant (CONFIG.md is the reference). Parsing
 * fills a caller-owned struct and touches the caller's copy only on
 * success, so a bad reload leaves the running config in place.
 */
#ifndef IOCAD_CONFIG_H
#define IOCAD_CONFIG_H

#include <stddef.h>

#include "decide/policy.h"
#include "config/config_check.h"
#include "config/config_metrics.h"
#include "config/config_threshold.h"
#include "platform.h"

/* Fill @cfg with the documented defaults and no tenants. */
void config_defaults(struct config *cfg);

/*
 * Parse and validate an INI file into @out (left untouched on error).
 * Returns 0 or -errno; on error @err holds "file:line: key: problem".
 */
int config_parse_file(const char *path, struct config *out, char *err, size_t errlen);

/*
 * A drop-in tenant file (dropin.h): only [tenant NAME] sections, added to
 * a copy of @base (a parsed config) and checked whole into @out; errors
 * name @path. @out is untouched on error and may be @base.
 */
int config_parse_tenants_file(const char *path, const struct config *base, struct config *out,
			      char *err, size_t errlen);

/* Same, from a string; @name stands in for the file name in messages. */
int config_parse_string(const char *text, const char *name, struct config *out, char *err,
			size_t errlen);

#endif /* IOCAD_CONFIG_H */
