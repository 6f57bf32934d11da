/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the host measures a `ddio = auto` device's inbound DMA writes:
 * the IIO stack's uncore counter (libioca's IIO preset, its events
 * appended to each socket's uncore list after the CHA preset's, read back
 * from the socket's sample), else an NVMe device's block-layer bytes read
 * (host_device_block_bytes), else nothing (DDIO stays on). Counts are kept
 * cumulative across sampler reconfigurations, as host_counters keeps the
 * DDIO counts.
 */
#ifndef IOCAD_HOST_IIO_H
#define IOCAD_HOST_IIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libioca.h>

#include "platform.h"

enum host_iio_source {
	HOST_IIO_COUNTER, /* the IIO stack's counter */
	HOST_IIO_BLOCK,	  /* NVMe block-layer bytes read */
	HOST_IIO_NONE,	  /* not measured: DDIO stays on */
};

struct host_iio_dev {
	char addr[PLATFORM_PCI_ADDR_LEN];
	enum host_iio_source source;
	struct ioca_iio_preset *preset; /* HOST_IIO_COUNTER */
	uint32_t socket;
	bool placed; /* its events are in the sampler's uncore list at @first */
	size_t first;
	bool seen;     /* a count arrived in this epoch */
	uint64_t last; /* the epoch's last count (bytes) */
	uint64_t base; /* bytes of earlier epochs */
};

struct host_iio {
	const char *ev_root;   /* NULL: /sys/bus/event_source/devices */
	const char *pci_root;  /* NULL: /sys/bus/pci/devices */
	ioca_print_fn_t print; /* libioca's messages */
	void *print_ctx;
	unsigned int n;
	struct host_iio_dev d[PLATFORM_MAX_DEVICES];
};

/* @addr's entry, or NULL. */
struct host_iio_dev *host_iio_find(struct host_iio *hi, const char *addr);

/*
 * Choose @addr's source (the IIO counter, else the block layer's bytes
 * when @block_ok, else none) and say which and why in @say. The entry, or
 * NULL when PLATFORM_MAX_DEVICES are known.
 */
struct host_iio_dev *host_iio_add(struct host_iio *hi, const char *addr, bool block_ok, char *say,
				  size_t saylen);

/*
 * @base's @n events followed by every counter device's into @out (at
 * most @max); each device placed records where. A device whose events do
 * not fit is left out (placed false). The number in @out.
 */
size_t host_iio_events(struct host_iio *hi, const struct ioca_event *base, size_t n,
		       struct ioca_event *out, size_t max);

/* The sampler was configured anew: counts restart from zero. */
void host_iio_new_epoch(struct host_iio *hi);

/* Each placed device's count from its socket's entry in @s. */
void host_iio_fold(struct host_iio *hi, const struct ioca_sample *s);

/* @d's bytes since it was added (0 before its first count). */
uint64_t host_iio_bytes(const struct host_iio_dev *d);

/* The sampler refused the IIO events: every counter device falls back to the block layer. */
void host_iio_drop_counters(struct host_iio *hi);

void host_iio_free(struct host_iio *hi);

#endif /* IOCAD_HOST_IIO_H */
