// SPDX-License-Identifier: GPL-2.0
/*
 * The host platform's per-interval ops. The module's sampler is the clock:
 * wait() sleeps until a sample is readable (or a stop), poll() folds every
 * sample that arrived and reads the DDIO mask back. apply() writes CAT
 * first, then DDIO, and puts CAT back if the DDIO write is refused, so a
 * plan lands whole or not at all.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "host_ops.h"

static unsigned int timeout_ms(const struct host *h)
{
	/* two intervals and some slack for a busy machine */
	return (unsigned int)(h->cfg.interval_ns / 1000000u) * 2 + 2000;
}

static const struct ioca_socket_info *socket_info(const struct host *h)
{
	for (uint32_t i = 0; i < h->info->nsockets; i++)
		if (h->info->sockets[i].id == h->sock_id)
			return &h->info->sockets[i];
	return NULL;
}

int host_sampler_start(struct host *h, char *err, size_t errlen)
{
	IOCA_OPTS(ioca_sampler_opts, so, .owner = true);
	struct ioca_event ev[HOST_NR_CPU_EVENTS] = {{0}};
	const struct ioca_event *uncore = NULL;
	uint32_t cpus[PLATFORM_MAX_CPUS];
	struct ioca_sampler_config sc = {0};
	size_t nuncore = 0;
	int r;

	for (unsigned int k = 0; k < HOST_NR_CPU_EVENTS; k++)
		ev[k].kind = host_cpu_event_kinds[k];
	if (h->preset)
		uncore = ioca_cha_preset__events(h->preset, &nuncore);
	sc.interval_us = (uint32_t)(h->cfg.interval_ns / 1000u);
	sc.cpus = cpus;
	sc.ncpus = host_cat_cpus(&h->tab, cpus);
	sc.events = ev;
	sc.nevents = HOST_NR_CPU_EVENTS;
	sc.uncore = uncore;
	sc.nuncore = nuncore;
	/* the module reconfigures only a stopped sampler (SIGHUP's new CPUs) */
	if (h->sampler_running) {
		r = ioca_client__sampler_stop(h->client);
		if (r) {
			snprintf(err, errlen, "ioca.ko: stopping the sampler: %s", strerror(-r));
			return r;
		}
		h->sampler_running = false;
	}
	r = ioca_client__sampler_set(h->client, &sc, &so);
	if (r == -EBUSY) {
		snprintf(err, errlen,
			 "ioca.ko's sampler belongs to another process ('iocactl info' shows its "
			 "pid); iocad needs it to itself");
		return r;
	}
	if (!r)
		r = ioca_client__sampler_start(h->client);
	if (r) {
		snprintf(err, errlen, "ioca.ko: sampler for %zu CPUs: %s%s%s", sc.ncpus,
			 strerror(-r), *ioca_client__last_extack(h->client) ? ": " : "",
			 ioca_client__last_extack(h->client));
		return r;
	}
	h->sampler_running = true;
	host_counters_new_epoch(&h->hc);
	return 0;
}

static int info(void *ctx, struct platform_info *out)
{
	struct host *h = ctx;
	const struct ioca_socket_info *s = socket_info(h);

	memset(out, 0, sizeof(*out));
	out->llc_ways = h->llc_ways;
	out->ncpus = h->ncpus;
	out->ddio_mask = h->start_mask;
	out->ddio_boot_mask = s ? s->boot_mask : h->start_mask;
	out->ddio_counters = h->preset != NULL;
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

static int no_sample(struct host *h)
{
	const struct ioca_sampler_info *si = &h->info->sampler;
	int r;

	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	if (si->state != IOCA_SAMPLER_STATE_RUNNING || si->owner_pid != (uint32_t)getpid()) {
		host_say(h, "ioca.ko's sampler was stopped or taken over (state %u, owner pid %u)",
			 si->state, si->owner_pid);
		return -EIO;
	}
	host_say(h, "no sample from ioca.ko for %u ms", timeout_ms(h));
	return -ETIMEDOUT;
}

/*
 * Fold the received sample into @out. A sample without the socket's DDIO
 * counters is not folded: taken with stale DDIO values it would show an
 * interval without DDIO traffic. It counts as lost instead, so the next
 * sample covers the longer interval. false when skipped.
 */
static bool fold(struct host *h, struct platform_sample *out)
{
	struct ioca_sample *s = h->sample;
	uint64_t hit = 0, miss = 0;
	bool have = false;

	if (h->preset)
		for (uint32_t i = 0; i < s->nsockets; i++)
			if (s->sockets[i].id == h->sock_id)
				have = !ioca_cha_preset__sum(h->preset, &s->sockets[i], 0, &hit,
							     &miss);
	if (h->preset && !have) {
		h->skipped++;
		return false;
	}
	s->lost += h->skipped;
	h->skipped = 0;
	host_counters_fold(&h->hc, s, have, hit, miss, out);
	return true;
}

static int poll_op(void *ctx, struct platform_sample *out)
{
	struct host *h = ctx;
	const struct ioca_socket_info *s;
	bool got = false;
	int r;

	for (;;) {
		r = ioca_subscription__recv(h->sub, h->sample, got ? 0 : (int)timeout_ms(h));
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
			return no_sample(h);
		}
		if (fold(h, out)) {
			got = true;
		} else if (h->skipped >= 3) {
			host_say(h, "%u samples in a row without socket %u's DDIO counters",
				 h->skipped, h->sock_id);
			return -EIO;
		}
	}
	/* DDIO read back every interval: someone else's change is seen */
	r = ioca_client__info(h->client, h->info);
	if (r)
		return lost_module(h, r);
	s = socket_info(h);
	if (!s)
		return lost_module(h, -ENODEV);
	/* an outside change is the loop's to log and adopt */
	out->ddio_mask = s->ddio_mask;
	h->ddio_cur = s->ddio_mask;
	return 0;
}

static int set_ddio(struct host *h, uint32_t mask, bool own)
{
	IOCA_OPTS(ioca_ddio_opts, o, .owner = own);
	struct ioca_ddio_req req = {.socket = h->sock_id, .mask = mask};
	int r;

	r = ioca_client__ddio_set(h->client, &req, 1, &o);
	if (r)
		snprintf(h->last_err, sizeof(h->last_err), "DDIO socket %u mask 0x%x: %s%s%s",
			 h->sock_id, mask, strerror(-r),
			 *ioca_client__last_extack(h->client) ? ": " : "",
			 ioca_client__last_extack(h->client));
	else
		h->ddio_cur = mask;
	return r;
}

static int apply(void *ctx, const struct platform_plan *p)
{
	struct host *h = ctx;
	const struct rdt_group *cur;
	unsigned int n, nprev;
	char err[768] = "";
	int r;

	h->last_err[0] = '\0';
	r = host_cat_groups(&h->tab, p, h->groups, &n, h->last_err, sizeof(h->last_err));
	if (r)
		return r;
	nprev = rdt_groups(h->rdt, &cur);
	memcpy(h->prev, cur, nprev * sizeof(cur[0]));
	r = rdt_apply(h->rdt, h->groups, n, err, sizeof(err));
	if (r) {
		snprintf(h->last_err, sizeof(h->last_err), "%s; every mask left as it was", err);
		return r;
	}
	if (p->ddio_mask == h->ddio_cur)
		return 0;
	r = set_ddio(h, p->ddio_mask, true);
	if (!r)
		h->ddio_changed = true;
	if (r && rdt_apply(h->rdt, h->prev, nprev, err, sizeof(err)))
		host_say(h, "putting CAT back after the DDIO refusal: %s", err);
	return r;
}

static int wait_op(void *ctx, uint64_t interval_ns)
{
	struct host *h = ctx;
	struct pollfd pfd = {.fd = ioca_subscription__fd(h->sub), .events = POLLIN};

	(void)interval_ns; /* the module's sampler keeps the time */
	if (h->stop && *h->stop)
		return -EINTR;
	if (poll(&pfd, 1, (int)timeout_ms(h)) < 0)
		return -errno;
	return 0;
}

static int restore(void *ctx)
{
	struct host *h = ctx;
	int r = 0, e;

	e = ioca_client__sampler_stop(h->client);
	if (e && e != -EBUSY)
		host_say(h, "stopping the sampler: %s", strerror(-e));
	h->sampler_running = false;
	/*
	 * If iocad ever set it, and without the owner flag: that also ends its
	 * ownership, so closing the socket cannot put back an older mask
	 * (the one an outside change left before iocad's next change).
	 */
	if (h->ddio_changed) {
		r = set_ddio(h, h->start_mask, false);
		if (r)
			host_say(h, "restoring %s", h->last_err);
	}
	e = rdt_remove_all(h->rdt);
	return r ? r : e;
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
	.apply = apply,
	.wait = wait_op,
	.restore = restore,
	.destroy = host_destroy,
	.last_error = last_error,
};
