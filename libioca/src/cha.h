/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * CHA presets: the uncore events that count a socket's DDIO hits and misses
 * (TOR_INSERTS on every CHA of the socket), their per-model encodings and
 * the discovery of the uncore_cha_N PMUs in sysfs.
 */
#ifndef LIBIOCA_CHA_H
#define LIBIOCA_CHA_H

#include <stddef.h>
#include <stdint.h>
#include "libioca.h"
#include "log.h"

/* One event's role in the preset: which sum it goes to. */
enum ioca_cha_role {
	IOCA_CHA_HIT,
	IOCA_CHA_MISS,
};

struct ioca_cha_preset {
	size_t nr_chas;
	size_t nevents;
	struct ioca_event events[IOCA_MAX_UNCORE_EVENTS];
	enum ioca_cha_role role[IOCA_MAX_UNCORE_EVENTS];
};

/* An encoding of TOR_INSERTS hit/miss for one traffic flow. */
struct ioca_cha_encoding {
	unsigned int flow; /* enum ioca_cha_flow */
	uint64_t hit_config, miss_config, config1;
};

/*
 * The encodings for family 6 @model: the number written to @enc (at most
 * @max), 0 when the model has no known encoding.
 */
size_t ioca_cha_encodings(uint32_t family, uint32_t model, struct ioca_cha_encoding *enc,
			  size_t max);

/*
 * The perf types of the uncore_cha_N PMUs under @root, ordered by N, into
 * @types (at most @max). Their number, or -errno (-ENODEV: none found).
 */
int ioca_cha_discover(const char *root, uint32_t *types, size_t max, const struct ioca_log *log);

#endif
