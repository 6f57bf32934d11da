/* SPDX-License-Identifier: GPL-2.0 */
/*
 * [device ADDR] sections of the tenant config: a PCI device whose writes
 * DDIO allocates (on), does not (off, full-off), or that A4's rule
 * decides (auto, storage devices only; decide_device.h). CONFIG.md,
 * "[device ADDR]", is the reference.
 */
#ifndef IOCAD_CONFIG_DEVICE_H
#define IOCAD_CONFIG_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "decide/policy.h"

/* Keys of a [device] section, for the "given twice" check. */
#define CONFIG_DEV_K_DDIO (1u << 0)
#define CONFIG_DEV_K_KIND (1u << 1)
#define CONFIG_DEV_K_TENANT (1u << 2)
#define CONFIG_DEV_K_SOCKET (1u << 3)

/*
 * "DDDD:BB:DD.F" or "BB:DD.F" (hex, any case) into @out, lower case with
 * the domain ("0000:3b:00.0"). 0 or -EINVAL with @why set.
 */
int config_device_addr(const char *s, char *out, size_t outlen, char *why, size_t len);

/*
 * Start a [device ADDR] section at @line: 0 with @*index the new device,
 * or -EINVAL with @msg holding "[device ...]: problem" (no file:line).
 */
int config_device_section(struct config *cfg, const char *addr, unsigned int line,
			  unsigned int *index, char *msg, size_t len);

/* Key @key = @val of device @index at @line; @bit set. 0 or -EINVAL with @msg set. */
int config_device_key(struct config *cfg, unsigned int index, const char *key, const char *val,
		      unsigned int line, unsigned int *bit, char *msg, size_t len);

/*
 * After parsing, [platform]'s checked: each device's storage_* keys not
 * given from [platform]'s, and its pairs agree. 0 or -EINVAL with @err
 * "file:line: ...".
 */
int config_device_thresholds(struct config *cfg, char *err, size_t errlen);

/*
 * After parsing: each device has ddio, auto is for storage, a tenant
 * named exists (unless drop-in files may bring it: tenants_dir). 0 or
 * -EINVAL with @err "file:line: ...".
 */
int config_device_check(const struct config *cfg, char *err, size_t errlen);

/* The names of enum config_dev_ddio and enum config_dev_kind values. */
const char *config_device_ddio_name(int ddio);
const char *config_device_kind_name(enum config_dev_kind kind);

#endif /* IOCAD_CONFIG_DEVICE_H */
