// SPDX-License-Identifier: GPL-2.0
#include "host_iio.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct host_iio_dev *host_iio_find(struct host_iio *hi, const char *addr)
{
	for (unsigned int i = 0; i < hi->n; i++)
		if (!strcmp(hi->d[i].addr, addr))
			return &hi->d[i];
	return NULL;
}

/* libioca's reason, kept for the one line said at the device's start. */
struct why {
	ioca_print_fn_t fn;
	void *ctx;
	char text[384];
};

static void keep_why(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	struct why *w = ctx;

	if (level == IOCA_PRINT_WARN)
		vsnprintf(w->text, sizeof(w->text), fmt, ap);
	else if (w->fn) {
		va_list aq;

		va_copy(aq, ap);
		w->fn(level, w->ctx, fmt, aq);
		va_end(aq);
	}
}

struct host_iio_dev *host_iio_add(struct host_iio *hi, const char *addr, bool block_ok, char *say,
				  size_t saylen)
{
	struct why w = {.fn = hi->print, .ctx = hi->print_ctx};
	IOCA_OPTS(ioca_iio_opts, o, .sysfs_root = hi->ev_root, .pci_root = hi->pci_root,
		  .print = keep_why, .print_ctx = &w);
	struct host_iio_dev *d;

	if (hi->n == PLATFORM_MAX_DEVICES)
		return NULL;
	d = &hi->d[hi->n++];
	memset(d, 0, sizeof(*d));
	snprintf(d->addr, sizeof(d->addr), "%s", addr);
	d->preset = ioca_iio_preset__new(addr, &o);
	if (d->preset) {
		d->source = HOST_IIO_COUNTER;
		d->socket = ioca_iio_preset__socket(d->preset);
		snprintf(say, saylen,
			 "device %s: ddio = auto measures its DMA writes by the IIO stack's "
			 "counter %s (socket %u)",
			 addr, ioca_iio_preset__source(d->preset), d->socket);
		return d;
	}
	if (!w.text[0])
		snprintf(w.text, sizeof(w.text), "%s", strerror(errno));
	d->source = block_ok ? HOST_IIO_BLOCK : HOST_IIO_NONE;
	snprintf(say, saylen,
		 block_ok ? "device %s: ddio = auto measures its DMA writes by the NVMe block "
			    "layer's bytes read (no IIO counter: %s)"
			  : "device %s: ddio = auto cannot measure its DMA writes (no IIO "
			    "counter: %s; not NVMe): DDIO stays on",
		 addr, w.text);
	return d;
}

size_t host_iio_events(struct host_iio *hi, const struct ioca_event *base, size_t n,
		       struct ioca_event *out, size_t max)
{
	size_t k = 0;

	for (; k < n && k < max; k++)
		out[k] = base[k];
	for (unsigned int i = 0; i < hi->n; i++) {
		struct host_iio_dev *d = &hi->d[i];
		const struct ioca_event *ev;
		size_t m;

		d->placed = false;
		if (d->source != HOST_IIO_COUNTER)
			continue;
		ev = ioca_iio_preset__events(d->preset, &m);
		if (k + m > max)
			continue;
		d->first = k;
		d->placed = true;
		for (size_t j = 0; j < m; j++)
			out[k++] = ev[j];
	}
	return k;
}

void host_iio_new_epoch(struct host_iio *hi)
{
	for (unsigned int i = 0; i < hi->n; i++) {
		hi->d[i].base += hi->d[i].last;
		hi->d[i].last = 0;
		hi->d[i].seen = false;
	}
}

void host_iio_fold(struct host_iio *hi, const struct ioca_sample *s)
{
	for (unsigned int i = 0; i < hi->n; i++) {
		struct host_iio_dev *d = &hi->d[i];

		if (!d->placed)
			continue;
		for (uint32_t k = 0; k < s->nsockets; k++) {
			uint64_t b;

			if (s->sockets[k].id != d->socket ||
			    ioca_iio_preset__bytes(d->preset, &s->sockets[k], d->first, &b))
				continue;
			/* a count that went back (the module restarted it): a new epoch */
			if (b < d->last)
				d->base += d->last;
			d->last = b;
			d->seen = true;
		}
	}
}

uint64_t host_iio_bytes(const struct host_iio_dev *d)
{
	return d->base + d->last;
}

void host_iio_drop_counters(struct host_iio *hi)
{
	for (unsigned int i = 0; i < hi->n; i++)
		if (hi->d[i].source == HOST_IIO_COUNTER) {
			hi->d[i].source = HOST_IIO_BLOCK;
			hi->d[i].placed = false;
		}
}

void host_iio_free(struct host_iio *hi)
{
	for (unsigned int i = 0; i < hi->n; i++)
		ioca_iio_preset__free(hi->d[i].preset);
	hi->n = 0;
}
