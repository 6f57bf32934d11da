/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-key checks of a parsed config (CPU overlap, way budget, PS
 * isolation, the vswitch rule). Each error names file, line and key.
 */
#ifndef IOCAD_CONFIG_CHECK_H
#define IOCAD_CONFIG_CHECK_H

#include <stddef.h>

#include "decide/policy.h"

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

/*
 * Checks that need the platform, for the tenants of one socket
 * (@cfg->socket, a config_for_socket() result): "detect" resolved against
 * that socket's LLC, CPU ids exist, ways fit. On success @cfg->llc_ways
 * and @cfg->ddio_ways are resolved. Returns 0 or -EINVAL with @err set;
 * @cfg is unchanged on error.
 */
int config_resolve(struct config *cfg, const struct platform_info *info, char *err, size_t errlen);

/*
 * The inclusive ways of @inc on an LLC of @llc_ways ways: the mask, the
 * @value lowest ways, none (0), or by default 0x003 when @llc_ways is 11
 * (Skylake-SP / Cascade Lake, where A4 measured them) and none otherwise.
 * Returns 0 with @out set, or -EINVAL with a reason in @why when the range
 * is not within the LLC.
 */
int config_inclusive_mask(const struct config_inclusive *inc, unsigned int llc_ways, uint32_t *out,
			  char *why, size_t len);

/* Index of the tenant called @name, or -1. */
int config_tenant_index(const struct config *cfg, const char *name);

#endif /* IOCAD_CONFIG_CHECK_H */
