// SPDX-License-Identifier: GPL-2.0
#include "host_device.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "host_state.h"

/* enum platform_dev_ddio to the module's enum ioca_ddio_device_mode. */
static uint32_t module_mode(int mode)
{
	switch (mode) {
	case PLATFORM_DEV_DDIO_OFF:
		return IOCA_DDIO_DEVICE_MODE_OFF;
	case PLATFORM_DEV_DDIO_FULL_OFF:
		return IOCA_DDIO_DEVICE_MODE_FULL_OFF;
	default:
		return IOCA_DDIO_DEVICE_MODE_ON;
	}
}

/*
 * What @addr has now as the module says: its entry in INFO's device list
 * (a root port the module changed, read back), else on (the root port's
 * default; the module does not read a port it never changed).
 */
static uint32_t found_mode(struct host *h, const char *addr)
{
	if (ioca_client__info(h->client, h->info))
		return IOCA_DDIO_DEVICE_MODE_ON;
	for (uint32_t i = 0; i < h->info->ndevices && i < IOCA_MAX_DDIO_DEVICES; i++)
		if (!strcmp(h->info->devices[i].addr, addr))
			return h->info->devices[i].mode;
	return IOCA_DDIO_DEVICE_MODE_ON;
}

static int set(struct host *h, const char *addr, uint32_t mode, bool own)
{
	IOCA_OPTS(ioca_ddio_opts, o, .owner = own);
	int r = ioca_client__ddio_device_set(h->client, addr, mode, &o);

	if (r) {
		const char *ext = ioca_client__last_extack(h->client);

		/* the loop's line says strerror(-r) already: the module's reason, else that */
		snprintf(h->last_err, sizeof(h->last_err), "device %s: %s", addr,
			 *ext ? ext : strerror(-r));
	}
	return r;
}

int host_device_ddio(void *ctx, const char *addr, int mode)
{
	struct host *h = ctx;
	struct host_devices *dv = &h->dev;
	unsigned int i;
	int r;

	h->last_err[0] = '\0';
	for (i = 0; i < dv->n; i++)
		if (!strcmp(dv->d[i].addr, addr))
			break;
	if (i == dv->n) {
		if (dv->n == PLATFORM_MAX_DEVICES) {
			snprintf(h->last_err, sizeof(h->last_err),
				 "device %s: more than %d devices", addr, PLATFORM_MAX_DEVICES);
			return -ENOSPC;
		}
		snprintf(dv->d[i].addr, sizeof(dv->d[i].addr), "%s", addr);
		dv->d[i].found = found_mode(h, addr);
		dv->d[i].changed = false;
		dv->n++;
	}
	if (mode == PLATFORM_DEV_DDIO_FOUND) {
		if (!dv->d[i].changed)
			return 0;
		r = set(h, addr, dv->d[i].found, false);
		if (!r)
			dv->d[i].changed = false;
		return r;
	}
	r = set(h, addr, module_mode(mode), true);
	if (!r)
		dv->d[i].changed = true;
	return r;
}

int host_device_block_bytes(const char *pci_root, const char *addr, uint64_t *bytes)
{
	char pat[512];
	uint64_t sum = 0;
	glob_t g;
	int r = 0;

	/* a controller's namespaces: nvme0/nvme0n1 (partitions are below them) */
	snprintf(pat, sizeof(pat), "%s/%s/nvme/nvme*/nvme*n*/stat", pci_root, addr);
	if (glob(pat, 0, NULL, &g))
		return -ENODATA;
	for (size_t i = 0; i < g.gl_pathc && !r; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		uint64_t ios, merges, sectors;

		/* Documentation/block/stat.rst: read I/Os, read merges, read sectors, ... */
		if (!f ||
		    fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, &ios, &merges, &sectors) != 3)
			r = -ENODATA;
		else
			sum += sectors * 512;
		if (f)
			fclose(f);
	}
	globfree(&g);
	if (!r)
		*bytes = sum;
	return r;
}

int host_device_writes(void *ctx, const char *addr, uint64_t *bytes)
{
	struct host *h = ctx;
	struct host_iio_dev *d = host_iio_find(&h->iio, addr);

	if (!d) {
		char say[768];
		uint64_t b;

		/* the first call for an auto device: choose its source, say which */
		d = host_iio_add(&h->iio, addr, !host_device_block_bytes(h->pci_root, addr, &b),
				 say, sizeof(say));
		if (!d)
			return -ENODATA;
		host_say(h, "%s", say);
		if (d->source == HOST_IIO_COUNTER && host_apply_resample(h))
			host_say(h, "device %s: %s", addr, h->last_err);
	}
	if (d->source == HOST_IIO_COUNTER && d->placed) {
		*bytes = host_iio_bytes(d);
		return 0;
	}
	if (d->source == HOST_IIO_NONE)
		return -ENODATA;
	return host_device_block_bytes(h->pci_root, addr, bytes);
}

int host_device_restore(struct host *h)
{
	int first = 0;

	for (unsigned int i = 0; i < h->dev.n; i++) {
		int r;

		if (!h->dev.d[i].changed)
			continue;
		/* without the owner flag: the module's owner record ends too */
		r = set(h, h->dev.d[i].addr, h->dev.d[i].found, false);
		if (r) {
			host_say(h, "restoring %s", h->last_err);
			if (!first)
				first = r;
			continue;
		}
		h->dev.d[i].changed = false;
	}
	return first;
}
