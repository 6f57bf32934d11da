// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's per-interval ops. The module's sampler is the clock:
 * wait() sleeps until a sample is readable (or a stop), poll() folds every
 * sample that arrived and reads the DDIO masks back. A late sample is
 * waited for (said once until one comes), in slices short enough that a
 * stop or a reload is seen within 100 ms, and a poll without a sample
 * returns -EAGAIN after a second so the loop answers reloads and feeds
 * its watchdog; a sampler that will not start is retried with backoff,
 * the allocation in force kept. Only the module going away ends iocad.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "host_device.h"
#include "host_io_alloc.h"
#include "host_ops.h"
#include "host_topo.h"
#include "rdt_watch.h"

/* How often a wait looks at the stop and reload flags (SA_RESTART restarts recvmsg). */
#define STOP_SLICE_MS 50
/*
 * wait()'s slice. poll(2) is never restarted after a signal handler, so a
 * stop or a reload ends it at once; the slice only bounds one that came
 * between the look at the flags and the poll. Not shorter than the
 * 100 ms interval, whose sample ends the wait first: a shorter one woke
 * iocad once more per interval for nothing (docs/bench.md).
 */
#define WAIT_SLICE_MS 100
/* The longest a poll or a wait keeps the loop from its watchdog. */
#define POLL_MAX_MS 1000

static unsigned int late_ms(const struct host *h)
{
	/* two intervals and some slack for a busy machine */
	return (unsigned int)(h->plan.interval_ns / 1000000u) * 2 + 2000;
}

/*
 * A reload places tenants by their CPUs' sockets: as they are now, not as
 * they were at start (a CPU gone offline since is refused, -EAGAIN; one
 * come online is placed). The topology is read again only when the online
 * CPUs changed; if that fails, what was known stays.
 */
static void refresh_cpus(struct host *h)
{
	struct platform_cpuset on;
	struct host_topo *t;
	char err[256];

	if (host_topo_online_fd(&h->online_fd, h->cpu_root, &on, err, sizeof(err)) ||
	    !memcmp(&on, &h->pi_online, sizeof(on)))
		return;
	t = malloc(sizeof(*t));
	if (!t)
		return;
	if (!host_topo_read(h->cpu_root, t, err, sizeof(err))) {
		host_topo_info(t, &h->pi);
		h->pi_online = on;
	}
	free(t);
}

static int info(void *ctx, struct platform_info *out)
{
	struct host *h = ctx;

	refresh_cpus(h);
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

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/*
 * What the polls wait for, said when it changes (not at every retry):
 * @what "" when a sample came.
 */
static void wait_for(struct host *h, const char *what)
{
	if (!strcmp(h->waiting, what))
		return;
	if (what[0])
		host_say(h, "waiting for %s; the allocation in force stays", what);
	else if (h->waiting[0])
		host_say(h, "samples come again (was waiting for %s)", h->waiting);
	snprintf(h->waiting, sizeof(h->waiting), "%s", what);
}

/* The sampler of the plan in force is down: try it again when due, backing off to a minute. */
static void sampler_retry(struct host *h)
{
	char what[sizeof(h->waiting)];
	uint64_t now = now_ms();
	unsigned int tries;

	if (now < h->retry_at_ms)
		return;
	tries = ++h->sampler_tries;
	if (!host_apply_sampler(h)) {
		host_say(h, "ioca.ko's sampler started again (try %u)", tries);
		h->sampler_tries = 0;
		h->retry_ms = 0;
		h->waited_ms = 0;
		return;
	}
	h->sampler_down = true;
	h->retry_ms = h->retry_ms ? h->retry_ms * 2 : 1000;
	if (h->retry_ms > 60000)
		h->retry_ms = 60000;
	h->retry_at_ms = now + h->retry_ms;
	snprintf(what, sizeof(what), "the sampler to start (retried, backing off to 60 s): %.*s",
		 (int)(sizeof(what) - 64), h->last_err);
	wait_for(h, what);
}

/* No sample for a while: the module is gone (-ENODEV), or keep waiting (0). */
static int late(struct host *h)
{
	const struct ioca_sampler_info *si = &h->info->sampler;
	char what[sizeof(h->waiting)];
	int r;

	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	if (h->sampler_down)
		return 0; /* sampler_retry() says what is awaited */
	if (si->state != IOCA_SAMPLER_STATE_RUNNING &&
	    (!si->owner_pid || si->owner_pid == (uint32_t)getpid())) {
		/* stopped under iocad (a sampler failure, iocactl stop): start it again */
		h->sampler_running = false;
		h->sampler_down = h->have_plan;
		h->retry_at_ms = 0;
	}
	if (si->state != IOCA_SAMPLER_STATE_RUNNING || si->owner_pid != (uint32_t)getpid())
		snprintf(what, sizeof(what),
			 "samples: ioca.ko's sampler was stopped or taken over (state %u, owner "
			 "pid %u)",
			 si->state, si->owner_pid);
	else
		snprintf(what, sizeof(what), "a sample from ioca.ko (none for %u ms or more)",
			 late_ms(h));
	wait_for(h, what);
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
		for (uint32_t i = 0; i < s->nsockets; i++) {
			uint32_t id = s->sockets[i].id;
			uint32_t w = id < PLATFORM_MAX_SOCKETS ? h->sock[id].ddio_epoch : 0;
			uint32_t m = host_counters_seen_mask(&s->sockets[i], w);

			/* 0: collected before iocad's last write, says nothing new */
			if (m)
				seen_mask(h, out, id, m);
		}
		return 0;
	}
	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	for (uint32_t i = 0; i < h->info->nsockets; i++)
		seen_mask(h, out, h->info->sockets[i].id, h->info->sockets[i].ddio_mask);
	return 0;
}

/* A stop (-EINTR) or a reload (-EAGAIN) to answer before any sample came. */
static int asked(const struct host *h)
{
	if (h->stop && *h->stop)
		return -EINTR;
	if (h->reload && *h->reload)
		return -EAGAIN;
	return 0;
}

static int poll_op(void *ctx, struct platform_sample *out)
{
	struct host *h = ctx;
	struct host_ddio_counts d[PLATFORM_MAX_SOCKETS];
	unsigned int slices = 0;
	uint64_t lost = 0;
	bool got = false;
	int r;

	if (h->sampler_down)
		sampler_retry(h);
	for (;;) {
		r = got ? 0 : asked(h);
		if (r)
			return r;
		/* no subscription yet (no slot before iocad owned the sampler): no sample */
		r = h->sub ? ioca_subscription__recv(h->sub, h->sample, got ? 0 : STOP_SLICE_MS)
			   : poll(NULL, 0, got ? 0 : STOP_SLICE_MS);
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
			h->waited_ms += STOP_SLICE_MS;
			if (h->waited_ms % late_ms(h) < STOP_SLICE_MS &&
			    h->waited_ms >= late_ms(h)) {
				r = late(h);
				if (r)
					return r;
			}
			/* the loop comes back at least once a second (its watchdog, its flags) */
			if (++slices * STOP_SLICE_MS >= POLL_MAX_MS)
				return -EAGAIN;
			continue;
		}
		/* queued before the sampler's restart: counts of the old run */
		if (host_counters_stale(&h->hc, h->sample))
			continue;
		h->waited_ms = 0;
		wait_for(h, "");
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
	struct pollfd pfd = {.fd = h->sub ? ioca_subscription__fd(h->sub) : -1, .events = POLLIN};

	(void)interval_ns; /* the module's sampler keeps the time */
	/* at most POLL_MAX_MS: a poll then waits on, returning to the loop as often */
	for (unsigned int waited = 0; waited < POLL_MAX_MS; waited += WAIT_SLICE_MS) {
		int r = asked(h);

		if (r)
			return r == -EAGAIN ? 0 : r;
		r = poll(&pfd, 1, WAIT_SLICE_MS);
		if (r < 0 && errno != EINTR)
			return -errno;
		if (r > 0)
			break;
	}
	return 0;
}

static const char *waiting(void *ctx)
{
	const struct host *h = ctx;

	return h->waiting;
}

/* What CAT waits for while samples come: resctrl back (said), runtimes' classes to appear. */
static unsigned int cat_waiting(void *ctx, char *buf, size_t len)
{
	const struct host *h = ctx;
	char names[PLATFORM_WHY_LEN] = "";
	unsigned int w = 0, n = 0;
	size_t off;

	buf[0] = '\0';
	if (h->cat_said) {
		snprintf(buf, len, "%s", h->cat_why);
		w |= PLATFORM_CAT_WAIT_RESCTRL;
	}
	for (unsigned int id = 0; id < PLATFORM_MAX_SOCKETS && !h->cat_said; id++)
		if (h->sock[id].rdt)
			n += rdt_missing_classes(h->sock[id].rdt, names, sizeof(names));
	if (n) {
		off = strlen(buf);
		snprintf(buf + off, len - off,
			 "rdt_class %s to be made (%s tenant's mask is written when it appears)",
			 names, n > 1 ? "each" : "its");
		w |= PLATFORM_CAT_WAIT_CLASS;
	}
	return w;
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
	.waiting = waiting,
	.cat_waiting = cat_waiting,
	.device_ddio = host_device_ddio,
	/* the block layer's bytes read: ioca.ko samples no IIO stack counter (FSM.md) */
	.device_writes = host_device_writes,
};
