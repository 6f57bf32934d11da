/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The loop's [device ADDR] settings: what each device's DDIO is set to,
 * through platform_ops.device_ddio, at start, on a reload that changes
 * them and, for `ddio = auto`, whenever A4's rule (decide_device.h) says
 * so. A device the platform refuses is logged with its address and the
 * reason and left alone; the tenants are managed as before. restore()
 * puts every device back as found (the module does too when iocad's
 * socket closes).
 */
#ifndef IOCAD_LOOP_DEVICE_H
#define IOCAD_LOOP_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"

struct config;
struct loop;
struct loop_record;

/*
 * Make the platform hold the config's device settings: new and changed
 * devices set (auto: on, then the rule decides), removed ones put back
 * as found. At start and after every reload; a no-op when nothing changed.
 */
void loop_device_sync(struct loop *l);

/* One interval (after poll): A4's rule for every auto device. */
void loop_device_interval(struct loop *l);

/*
 * A reload whose sockets did not change: take @next's devices into the
 * config in force. True if they differ from the running ones.
 */
bool loop_device_take(struct loop *l, const struct config *next);

/* Socket @socket's devices into @r->dev, @r->ndev (the records' and metrics' view). */
void loop_device_record(const struct loop *l, unsigned int socket, struct loop_record *r);

/* Bit i set: device i of the config in force has DDIO off (or full-off). */
uint32_t loop_device_off_mask(const struct loop *l);

#endif /* IOCAD_LOOP_DEVICE_H */
