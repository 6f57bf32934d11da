/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-key checks of a parsed config (CPU overlap, way budget, PS
 * isolation, the vswitch rule). Each error names file, line and key.
 */
#ifndef IOCAD_CONFIG_CHECK_H
#define IOCAD_CONFIG_CHECK_H

#include <stddef.h>

#include "config/config.h"

/* 0 if @name can be a tenant name (also a CSV column prefix), else -EINVAL. */
int config_check_name(const char *name);

/* Checks that need no platform. 0 or -EINVAL with @err set. */
int config_check(struct config *cfg, char *err, size_t errlen);

/*
 * The vswitch rules of one socket's tenants (or of a config without
 * [socket N] sections): aggregation has exactly one, slicing none. Marks
 * the vswitch networking. 0 or -EINVAL with @err set.
 */
int config_check_vswitch(struct config *cfg, char *err, size_t errlen);

/* Way budget checks against @llc_ways ways with @ddio_ways initial DDIO ways. */
int config_check_ways(const struct config *cfg, unsigned int llc_ways, unsigned int ddio_ways,
		      char *err, size_t errlen);

/* "file:line: " (or "file: " when @line is 0) and the message into @err; -EINVAL. */
int config_err_at(const struct config *cfg, unsigned int line, char *err, size_t len,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* IOCAD_CONFIG_CHECK_H */
