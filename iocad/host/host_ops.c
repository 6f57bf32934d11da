// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's per-interval ops. The module's sampler is the clock:
 * wait() sleeps until a sample is readable (or a stop), poll() folds every
 * sample that arrived and reads the DDIO masks back. A late sample is
 * waited for (said once until one comes), in slices short enough that a
 * stop is seen within 100 ms; only the module going away ends iocad.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host_device.h"
#include "host_io_alloc.h"
#include "host_ops.h"

/* How often a wait looks at the stop flag (SA_RESTART restarts recvmsg). */
#define STOP_SLICE_MS 50

static unsigned int late_ms(const struct host *h)
{
	/* two intervals and some slack for a busy machine */
	return (unsigned int)(h->plan.interval_ns / 1000000u) * 2 + 2000;
}

static int info(void *ctx, struct platform_info *out)
{
	struct host *h = ctx;

	*out = h->pi;
	return 0;
}

/* The module stopped answering: say why, in words an operator can act on. */
static int lost_module(struct host *h, int r)
{
	host_say(h,
		 "lost ioca.ko (%s): the module was unloaded or its family went away; iocad "
		 "stops (resctrl groups are removed; load ioca.ko and restart iocad)",
		 strerror(-r));
	return -ENODEV;
}

/* No sample for a while: the module is gone (-ENODEV), or keep waiting (0). */
static int late(struct host *h, unsigned int waited_ms)
{
	const struct ioca_sampler_info *si = &h->info->sampler;
	int r;

	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	if (h->late_said)
		return 0;
	h->late_said = true;
	if (si->state != IOCA_SAMPLER_STATE_RUNNING || si->owner_pid != (uint32_t)getpid())
		host_say(h,
			 "ioca.ko's sampler was stopped or taken over (state %u, owner pid %u); "
			 "waiting for samples",
			 si->state, si->owner_pid);
	else
		host_say(h,
			 "no sample from ioca.ko for %u ms; waiting (the next one covers the "
			 "whole time, said again only after one came)",
			 waited_ms);
	return 0;
}

/* Each socket's DDIO counts in the received sample. */
static void ddio_counts(struct host *h, struct host_ddio_counts *d)
{
	const struct ioca_sample *s = h->sample;

	memset(d, 0, PLATFORM_MAX_SOCKETS * sizeof(*d));
	if (!h->preset || !(h->plan.events & PLATFORM_EV_DDIO))
		return;
	for (uint32_t i = 0; i < s->nsockets; i++) {
		uint32_t id = s->sockets[i].id;

		if (id < PLATFORM_MAX_SOCKETS)
			d[id].have = !ioca_cha_preset__sum(h->preset, &s->sockets[i], 0, &d[id].hit,
							   &d[id].miss);
	}
}

/* One socket's DDIO mask as the platform saw it: an outside change is the
 * loop's to log and adopt.
 */
static void seen_mask(struct host *h, struct platform_sample *out, uint32_t id, uint32_t mask)
{
	if (id >= PLATFORM_MAX_SOCKETS)
		return;
	out->socket[id].ddio_mask = mask;
	h->sock[id].ddio_cur = mask;
}

/*
 * Every socket's DDIO mask at the newest sample's collection, so someone
 * else's change is seen. The module puts them in each sample; only when a
 * socket's entry carries none (a module older than SAMPLES_SUBSCRIBE, a
 * package never read) does this cost an INFO request.
 */
static int sample_masks(struct host *h, struct platform_sample *out)
{
	const struct ioca_sample *s = h->sample;
	bool need_info = !s->nsockets;
	int r;

	if (h->ioa) {
		host_io_alloc_seen(h, out);
		return 0;
	}
	for (uint32_t i = 0; i < s->nsockets; i++)
		need_info |= !s->sockets[i].ddio_mask;
	if (!need_info) {
		for (uint32_t i = 0; i < s->nsockets; i++)
			seen_mask(h, out, s->sockets[i].id, s->sockets[i].ddio_mask);
		return 0;
	}
	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	for (uint32_t i = 0; i < h->info->nsockets; i++)
		seen_mask(h, out, h->info->sockets[i].id, h->info->sockets[i].ddio_mask);
	return 0;
}

static int poll_op(void *ctx, struct platform_sample *out)
{
	struct host *h = ctx;
	struct host_ddio_counts d[PLATFORM_MAX_SOCKETS];
	unsigned int waited = 0;
	uint64_t lost = 0;
	bool got = false;
	int r;

	for (;;) {
		if (!got && h->stop && *h->stop)
			return -EINTR;
		r = ioca_subscription__recv(h->sub, h->sample, got ? 0 : STOP_SLICE_MS);
		if (r == -EINTR || r == -EAGAIN)
			continue;
		if (r == -ENODEV)
			return lost_module(h, r); /* libioca saw the family go */
		if (r < 0) {
			host_say(h, "receiving samples: %s", strerror(-r));
			return r;
		}
		if (!r) {
			if (got)
				break;
			waited += STOP_SLICE_MS;
			if (waited % late_ms(h) < STOP_SLICE_MS && waited >= late_ms(h)) {
				r = late(h, waited);
				if (r)
					return r;
			}
			continue;
		}
		h->late_said = false;
		ddio_counts(h, d);
		lost += host_counters_fold(&h->hc, h->sample, d, out);
		host_iio_fold(&h->iio, h->sample);
		got = true;
	}
	/* samples folded together are one longer interval, not lost ones */
	out->seq = host_counters_poll_seq(&h->hc, lost);
	r = sample_masks(h, out);
	if (r)
		return r;
	/* a failure is said there and retried at the next poll; sampling goes on */
	(void)host_apply_hotplug(h);
	return 0;
}

static int wait_op(void *ctx, uint64_t interval_ns)
{
	struct host *h = ctx;
	struct pollfd pfd = {.fd = ioca_subscription__fd(h->sub), .events = POLLIN};

	(void)interval_ns; /* the module's sampler keeps the time */
	for (unsigned int waited = 0; waited < late_ms(h); waited += STOP_SLICE_MS) {
		int r;

		if (h->stop && *h->stop)
			return -EINTR;
		r = poll(&pfd, 1, STOP_SLICE_MS);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0)
			break;
	}
	return 0;
}

static const char *last_error(void *ctx)
{
	const struct host *h = ctx;

	return h->last_err;
}

const struct platform_ops host_platform_ops = {
	.name = "host",
	.info = info,
	.poll = poll_op,
	.check = host_check,
	.apply = host_apply,
	.wait = wait_op,
	.restore = host_restore,
	.destroy = host_destroy,
	.last_error = last_error,
	.device_ddio = host_device_ddio,
	/* the block layer's bytes read: ioca.ko samples no IIO stack counter (FSM.md) */
	.device_writes = host_device_writes,
};
