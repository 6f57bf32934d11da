// SPDX-License-Identifier: GPL-2.0
#include "sim_device.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "config/config_device.h"
#include "sim_pool.h"

int sim_device_section(struct sim_devices *dv, const char *addr, unsigned int line,
		       unsigned int *index, char *msg, size_t len)
{
	char norm[PLATFORM_PCI_ADDR_LEN], why[96];
	struct sim_device *d;

	while (*addr == ' ')
		addr++;
	if (config_device_addr(addr, norm, sizeof(norm), why, sizeof(why))) {
		snprintf(msg, len, "[device %s]: bad address: %s", addr, why);
		return -EINVAL;
	}
	if (sim_device_index(dv, norm) >= 0) {
		snprintf(msg, len, "device %s is defined twice", norm);
		return -EINVAL;
	}
	if (dv->n == PLATFORM_MAX_DEVICES) {
		snprintf(msg, len, "more than %d devices", PLATFORM_MAX_DEVICES);
		return -EINVAL;
	}
	*index = dv->n++;
	d = &dv->d[*index];
	memset(d, 0, sizeof(*d));
	memcpy(d->addr, norm, sizeof(norm));
	d->line = line;
	return 0;
}

int sim_device_key(struct sim_devices *dv, unsigned int index, const char *key, const char *val,
		   char *msg, size_t len)
{
	struct sim_device *d = &dv->d[index];

	if (strcmp(key, "tenant")) {
		snprintf(msg, len,
			 "[device %s] %s: unknown key (tenant: the tenant whose storage "
			 "I/O it carries)",
			 d->addr, key);
		return -EINVAL;
	}
	if (strlen(val) >= sizeof(d->owner_name)) {
		snprintf(msg, len, "[device %s] tenant: '%s' is too long", d->addr, val);
		return -EINVAL;
	}
	snprintf(d->owner_name, sizeof(d->owner_name), "%s", val);
	return 0;
}

int sim_device_finish(struct sim_devices *dv, int (*index_of)(const void *arg, const char *name),
		      const void *arg, unsigned int *line, char *msg, size_t len)
{
	for (unsigned int i = 0; i < dv->n; i++) {
		struct sim_device *d = &dv->d[i];
		int t = d->owner_name[0] ? index_of(arg, d->owner_name) : -1;

		*line = d->line;
		if (!d->owner_name[0]) {
			snprintf(msg, len,
				 "[device %s]: tenant missing (whose storage I/O it carries)",
				 d->addr);
			return -EINVAL;
		}
		if (t < 0) {
			snprintf(msg, len, "[device %s] tenant: no tenant '%s' in this scenario",
				 d->addr, d->owner_name);
			return -EINVAL;
		}
		for (unsigned int j = 0; j < i; j++)
			if (dv->d[j].owner == (unsigned int)t) {
				snprintf(msg, len,
					 "[device %s] tenant: %s's storage I/O is on device "
					 "%s already",
					 d->addr, d->owner_name, dv->d[j].addr);
				return -EINVAL;
			}
		d->owner = (unsigned int)t;
	}
	*line = 0;
	return 0;
}

static bool streams(const struct sim_tenant *t)
{
	return t->w.active && t->ncpus > 0 && t->w.dma_rate > 0 && t->w.dma_buffers >= SIM_LINE;
}

unsigned int sim_device_class(const struct sim_tenant *t, struct sim_class *c)
{
	if (!streams(t) || t->dma_ddio_off)
		return 0;
	/* the buffers it writes into, each rewritten dma_rate/dma_buffers times a second */
	c->lines = t->w.dma_buffers / SIM_LINE;
	c->rate = t->w.dma_rate / t->w.dma_buffers;
	return 1;
}

void sim_device_rates(const struct sim_tenant *t, const struct sim_mix *t_ddio,
		      struct sim_tenant_rates *r, struct sim_rates *out)
{
	double lines, hit, gone;

	r->dma_bytes = 0;
	if (!streams(t))
		return;
	lines = t->w.dma_rate / SIM_LINE;
	r->dma_bytes = t->w.dma_rate;
	if (t->dma_ddio_off) {
		/* non-allocating writes: DRAM, and no DDIO hit or miss is counted */
		out->mem_bytes += t->w.dma_rate;
		gone = 1.0;
	} else {
		hit = sim_mix_hit(t_ddio, t->w.dma_rate / t->w.dma_buffers);
		out->ddio_hits += lines * hit;
		out->ddio_misses += lines * (1 - hit);
		/*
		 * A core reads a block once it is complete: its first line
		 * waits dma_block/dma_rate, and survives with e^(-age/T).
		 */
		gone = 0.0;
		for (unsigned int g = 0; g < t_ddio->n; g++) {
			double tg = t_ddio->t[g];

			gone += t_ddio->f[g] *
				(isinf(tg) ? 0.0
				 : tg <= 0 ? 1.0
					   : 1 - exp(-(t->w.dma_block / t->w.dma_rate) / tg));
		}
	}
	if (t->w.dma_reread) {
		r->llc_refs += lines;
		r->llc_misses += lines * gone;
	}
}

int sim_device_index(const struct sim_devices *dv, const char *addr)
{
	char norm[PLATFORM_PCI_ADDR_LEN], why[96];

	if (config_device_addr(addr, norm, sizeof(norm), why, sizeof(why)))
		return -1;
	for (unsigned int i = 0; i < dv->n; i++)
		if (!strcmp(dv->d[i].addr, norm))
			return (int)i;
	return -1;
}

int sim_device_set(const struct sim_devices *dv, struct sim_device_state *st, struct sim_tenant *t,
		   const char *addr, int mode, char *err, size_t len)
{
	int i = sim_device_index(dv, addr);

	if (i < 0) {
		snprintf(err, len,
			 "device %s: no such device in the scenario (the module would refuse a "
			 "root port it does not know)",
			 addr);
		return -ENODEV;
	}
	/* the simulator's root ports start with DDIO on, as the hardware's do */
	if (mode == PLATFORM_DEV_DDIO_FOUND)
		mode = PLATFORM_DEV_DDIO_ON;
	st->mode[i] = mode;
	t[dv->d[i].owner].dma_ddio_off = mode != PLATFORM_DEV_DDIO_ON;
	return 0;
}

void sim_device_integrate(const struct sim_devices *dv, struct sim_device_state *st,
			  const struct sim_rates *rates, double dt)
{
	for (unsigned int i = 0; i < dv->n; i++)
		st->bytes[i] += rates->tenant[dv->d[i].owner].dma_bytes * dt;
}
