/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * CHA presets: the uncore events that count a socket's DDIO hits and misses
 * (TOR_INSERTS on every CHA of the socket), their per-model encodings and
 * the discovery of the uncore_cha_N PMUs in sysfs.
 */
#ifndef LIBIOCA_CHA_H
#define LIBIOCA_CHA_H

#include <stdbool.h>
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

/* TOR_INSERTS hit/miss of one opcode, as field values (cha.c). */
struct ioca_cha_encoding {
	unsigned int flow;		/* enum ioca_cha_flow */
	const char *opcode;		/* "ItoM", "ItoMCacheNear", "PCIRdCur" */
	bool extra;			/* counted only while the events fit */
	uint64_t hit_umask, miss_umask; /* the PMU's umask field */
	uint64_t opc;			/* filter_opc0 (with rem/loc/nm/not_nm), 0: none */
};

/*
 * The encodings for family 6 @model: the number written to @enc (at most
 * @max), 0 when the model has no known encoding.
 */
size_t ioca_cha_encodings(uint32_t family, uint32_t model, struct ioca_cha_encoding *enc,
			  size_t max);

/*
 * @e's hit (@miss false) or miss event, its fields placed by the format of
 * PMU @pmu under @root. 0, or -errno naming the PMU and field in @log.
 */
int ioca_cha_encode(const char *root, const char *pmu, const struct ioca_cha_encoding *e, bool miss,
		    struct ioca_event *ev, const struct ioca_log *log);

/*
 * The perf types of the uncore_cha_N PMUs under @root, ordered by N, into
 * @types (at most @max), the lowest N into @first (unless NULL). Their
 * number, or -errno (-ENODEV: none found).
 */
int ioca_cha_discover(const char *root, uint32_t *types, size_t max, unsigned long *first,
		      const struct ioca_log *log);

#endif
