/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's storage devices (SIMULATOR.md, "Storage DMA"): a second
 * DMA source beside the NIC, with its own DDIO switch. A tenant's storage
 * I/O is part of its workload (dma_rate, dma_block, dma_buffers,
 * dma_reread); a scenario's [device ADDR] section names the tenant whose
 * I/O the device at ADDR carries, which is what iocad's per-device DDIO
 * switch (platform_ops.device_ddio) turns on and off.
 *
 * With DDIO on, the device's writes are one more class of DDIO's agent in
 * the occupancy pool: they take DDIO's ways from the NIC's ring lines and
 * from the tenants' lines there. With DDIO off they go to DRAM.
 */
#ifndef IOCAD_SIM_DEVICE_H
#define IOCAD_SIM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "platform.h"
#include "sim_model.h"

struct sim_device {
	char addr[PLATFORM_PCI_ADDR_LEN]; /* "0000:3b:00.0" */
	char owner_name[PLATFORM_NAME_LEN];
	unsigned int owner; /* its tenant, an index into the scenario's */
	unsigned int line;
};

struct sim_devices {
	unsigned int n;
	struct sim_device d[PLATFORM_MAX_DEVICES];
};

/* ---- scenario files: [device ADDR] with `tenant = NAME` ---- */

/* A [device ADDR] header: 0 with @*index set, or -EINVAL with @msg set. */
int sim_device_section(struct sim_devices *dv, const char *addr, unsigned int line,
		       unsigned int *index, char *msg, size_t len);

/* A key of device @index. 0 or -EINVAL with @msg set. */
int sim_device_key(struct sim_devices *dv, unsigned int index, const char *key, const char *val,
		   char *msg, size_t len);

/*
 * After parsing: every device names a tenant of the scenario (resolved
 * by @index_of). 0, or -EINVAL with @msg set and @*line the device's.
 */
int sim_device_finish(struct sim_devices *dv, int (*index_of)(const void *arg, const char *name),
		      const void *arg, unsigned int *line, char *msg, size_t len);

/* ---- the model (called from sim_model.c) ---- */

/*
 * DDIO's class for @t's storage writes, when they allocate: 1 with @c
 * filled, else 0.
 */
unsigned int sim_device_class(const struct sim_tenant *t, struct sim_class *c);

/*
 * @t's storage DMA, DDIO's lines placed as @t_ddio: its writes'
 * DDIO hits and misses (or DRAM writes with DDIO off) into @out, its
 * cores' re-reads into @r (LLC references and misses), @r->dma_bytes.
 * Before @out's memory traffic is summed.
 */
void sim_device_rates(const struct sim_tenant *t, const struct sim_mix *t_ddio,
		      struct sim_tenant_rates *r, struct sim_rates *out);

/* ---- the platform's switch and counter ---- */

struct sim_device_state {
	int mode[PLATFORM_MAX_DEVICES];	    /* enum platform_dev_ddio in force */
	double bytes[PLATFORM_MAX_DEVICES]; /* written since open */
};

/* Index of device @addr (any case, with or without the domain), or -1. */
int sim_device_index(const struct sim_devices *dv, const char *addr);

/*
 * platform_ops.device_ddio: set @mode on device @addr, switching its
 * tenant's writes in @t. 0 or -ENODEV (no such device; @err says so).
 */
int sim_device_set(const struct sim_devices *dv, struct sim_device_state *st, struct sim_tenant *t,
		   const char *addr, int mode, char *err, size_t len);

/* Add @dt seconds of @rates' storage writes to each device's count. */
void sim_device_integrate(const struct sim_devices *dv, struct sim_device_state *st,
			  const struct sim_rates *rates, double dt);

#endif /* IOCAD_SIM_DEVICE_H */
