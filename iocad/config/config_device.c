// SPDX-License-Identifier: GPL-2.0
/*
 * [device ADDR] sections: parsed key by key from config.c's handler,
 * checked once the whole file is read.
 */
#include "config/config_device.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_check.h"
#include "config/config_threshold.h"
#include "config/config_value.h"

/* @n hex digits at @s, then @end (or the string's end when @end is 0). */
static bool hex_run(const char *s, unsigned int n, char end)
{
	for (unsigned int i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return s[n] == end;
}

int config_device_addr(const char *s, char *out, size_t outlen, char *why, size_t len)
{
	char full[PLATFORM_PCI_ADDR_LEN];
	size_t n = strlen(s);

	if (n == 7)
		snprintf(full, sizeof(full), "0000:%s", s);
	else if (n == 12)
		snprintf(full, sizeof(full), "%s", s);
	else
		full[0] = '\0';
	if (!full[0] || !hex_run(full, 4, ':') || !hex_run(full + 5, 2, ':') ||
	    !hex_run(full + 8, 2, '.') || full[11] < '0' || full[11] > '7' || full[12]) {
		snprintf(why, len, "expected a PCI address DDDD:BB:DD.F (hex), e.g. 0000:3b:00.0");
		return -EINVAL;
	}
	/* device numbers are 5 bits: 00..1f */
	if (strtol(full + 8, NULL, 16) > 0x1f) {
		snprintf(why, len, "device %.2s is past 1f", full + 8);
		return -EINVAL;
	}
	for (size_t i = 0; full[i]; i++)
		full[i] = (char)tolower((unsigned char)full[i]);
	snprintf(out, outlen, "%s", full);
	return 0;
}

int config_device_section(struct config *cfg, const char *addr, unsigned int line,
			  unsigned int *index, char *msg, size_t len)
{
	char norm[PLATFORM_PCI_ADDR_LEN], why[96];
	struct config_device *d;

	while (*addr == ' ')
		addr++;
	if (config_device_addr(addr, norm, sizeof(norm), why, sizeof(why))) {
		snprintf(msg, len, "[device %s]: bad address: %s", addr, why);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < cfg->ndevices; i++)
		if (!strcmp(cfg->device[i].addr, norm)) {
			snprintf(msg, len, "[device %s] given twice (first at line %u)", norm,
				 cfg->device[i].line);
			return -EINVAL;
		}
	if (cfg->ndevices == CONFIG_MAX_DEVICES) {
		snprintf(msg, len, "[device %s]: more than %d devices", norm, CONFIG_MAX_DEVICES);
		return -EINVAL;
	}
	*index = cfg->ndevices++;
	d = &cfg->device[*index];
	memset(d, 0, sizeof(*d));
	memcpy(d->addr, norm, sizeof(norm));
	d->kind = CONFIG_DEV_NETWORK;
	d->line = line;
	return 0;
}

static int ddio_value(const char *val, int *out)
{
	static const struct {
		const char *name;
		int value;
	} v[] = {
		{"on", CONFIG_DEV_DDIO_ON},
		{"off", CONFIG_DEV_DDIO_OFF},
		{"full-off", CONFIG_DEV_DDIO_FULL_OFF},
		{"auto", CONFIG_DEV_DDIO_AUTO},
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (!strcmp(val, v[i].name)) {
			*out = v[i].value;
			return 0;
		}
	return -EINVAL;
}

int config_device_key(struct config *cfg, unsigned int index, const char *key, const char *val,
		      unsigned int line, unsigned int *bit, char *msg, size_t len)
{
	struct config_device *d = &cfg->device[index];
	char why[128] = "";
	int r = 0;

	if (!strcmp(key, "ddio")) {
		*bit = CONFIG_DEV_K_DDIO;
		d->ddio_line = line;
		if (ddio_value(val, &d->ddio))
			r = snprintf(why, sizeof(why), "expected on, off, full-off or auto");
	} else if (!strcmp(key, "kind")) {
		*bit = CONFIG_DEV_K_KIND;
		d->kind_line = line;
		if (!strcmp(val, "storage") || !strcmp(val, "network"))
			d->kind = val[0] == 's' ? CONFIG_DEV_STORAGE : CONFIG_DEV_NETWORK;
		else
			r = snprintf(why, sizeof(why), "expected storage or network");
	} else if (!strcmp(key, "tenant")) {
		*bit = CONFIG_DEV_K_TENANT;
		d->tenant_line = line;
		if (config_check_name(val))
			r = snprintf(why, sizeof(why),
				     "a tenant name is 1-%d characters of A-Z a-z "
				     "0-9 _ -",
				     PLATFORM_NAME_LEN - 1);
		else
			snprintf(d->tenant, sizeof(d->tenant), "%s", val);
	} else if (!strcmp(key, "socket")) {
		*bit = CONFIG_DEV_K_SOCKET;
		d->socket_set = true;
		r = config_value_uint(val, 0, PLATFORM_MAX_SOCKETS - 1, &d->socket, why,
				      sizeof(why));
	} else {
		r = config_thr_key(&d->thr, key, val, line, true, why, sizeof(why));
		if (r == -EEXIST) {
			snprintf(msg, len, "[device %s] %s: %s", d->addr, key, why);
			return -EINVAL;
		}
		if (r > 0) {
			snprintf(msg, len,
				 "[device %s] %s: unknown key (ddio, kind, tenant, socket, "
				 "storage_*)",
				 d->addr, key);
			return -EINVAL;
		}
	}
	if (r) {
		snprintf(msg, len, "[device %s] %s: bad value '%s': %s", d->addr, key, val, why);
		return -EINVAL;
	}
	return 0;
}

int config_device_thresholds(struct config *cfg, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < cfg->ndevices; i++) {
		struct config_device *d = &cfg->device[i];
		unsigned int line;
		char why[160];

		config_thr_inherit(&d->thr, &cfg->thr);
		if (config_thr_check(&d->thr, &line, why, sizeof(why)))
			return config_err_at(cfg, line ? line : d->line, err, errlen,
					     "[device %s] %s (with [platform]'s)", d->addr, why);
	}
	return 0;
}

int config_device_check(const struct config *cfg, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < cfg->ndevices; i++) {
		const struct config_device *d = &cfg->device[i];

		if (!d->ddio)
			return config_err_at(
				cfg, d->line, err, errlen,
				"[device %s]: ddio missing (on, off, full-off or auto)", d->addr);
		if (d->ddio == CONFIG_DEV_DDIO_AUTO && d->kind != CONFIG_DEV_STORAGE)
			return config_err_at(cfg, d->ddio_line, err, errlen,
					     "[device %s] ddio: auto is A4's rule for storage DMA: "
					     "give kind = storage, or on or off for a %s device",
					     d->addr, config_device_kind_name(d->kind));
		if (d->tenant[0] && config_tenant_index(cfg, d->tenant) < 0 && !cfg->ntenants_dirs)
			return config_err_at(cfg, d->tenant_line, err, errlen,
					     "[device %s] tenant: no tenant %s in this config",
					     d->addr, d->tenant);
	}
	return 0;
}

const char *config_device_ddio_name(int ddio)
{
	switch (ddio) {
	case CONFIG_DEV_DDIO_ON:
		return "on";
	case CONFIG_DEV_DDIO_OFF:
		return "off";
	case CONFIG_DEV_DDIO_FULL_OFF:
		return "full-off";
	case CONFIG_DEV_DDIO_AUTO:
		return "auto";
	default:
		return "as found";
	}
}

const char *config_device_kind_name(enum config_dev_kind kind)
{
	return kind == CONFIG_DEV_STORAGE ? "storage" : "network";
}
