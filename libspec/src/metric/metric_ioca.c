// SPDX-License-Identifier: GPL-2.0
#ifdef LIBSPEC_HAVE_IOCA
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libioca.h>

#include "log.h"
#include "metric/metric_ioca.h"

/* The kinds behind counters_reading.v[], in that order. */
static const uint32_t kinds[COUNTERS_EVENTS] = {
	IOCA_EVENT_KIND_INSTRUCTIONS,
	IOCA_EVENT_KIND_CYCLES,
	IOCA_EVENT_KIND_LLC_MISSES,
};

struct spec_counters {
	enum spec_counter_metric what;
	struct libspec_log log; /* also the libioca objects' (ioca_log) */
	struct ioca_client *client;
	struct ioca_subscription *sub;
	struct ioca_sample *sample; /* ~100 KiB: on the heap */
	int index[COUNTERS_EVENTS]; /* position of each kind in the samples */
	bool cpu_wanted[COUNTERS_MAX_CPUS];
	bool all_cpus, negate;
	const _Atomic uint64_t *ops;
	int timeout_ms;
	bool stop_on_close; /* configured without ownership: stop it ourselves */
	uint64_t last_seq, samples;
	struct counters_window win;
	struct counters_reading readings[COUNTERS_MAX_CPUS];
};

/* libioca's messages of this handle, to its callback: same levels, same shape. */
static void ioca_log(enum ioca_print_level level, void *ctx, const char *fmt, va_list ap)
{
	static const enum libspec_print_level to[] = {
		[IOCA_PRINT_WARN] = LIBSPEC_PRINT_WARN,
		[IOCA_PRINT_INFO] = LIBSPEC_PRINT_INFO,
		[IOCA_PRINT_DEBUG] = LIBSPEC_PRINT_DEBUG,
	};
	char msg[512];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	libspec__print(ctx,
		       (unsigned int)level < sizeof(to) / sizeof(to[0]) ? to[level]
									: LIBSPEC_PRINT_DEBUG,
		       "libioca: %s", msg);
}

static int configure(struct spec_counters *c, const struct spec_counters_opts *opts)
{
	static const struct ioca_event ev[COUNTERS_EVENTS] = {
		{.kind = IOCA_EVENT_KIND_INSTRUCTIONS},
		{.kind = IOCA_EVENT_KIND_CYCLES},
		{.kind = IOCA_EVENT_KIND_LLC_MISSES},
	};
	struct ioca_sampler_config cfg = {
		.interval_us = OPTS_GET(opts, interval_us, 0) ? opts->interval_us : 10000,
		.cpus = OPTS_GET(opts, cpus, NULL),
		.ncpus = OPTS_GET(opts, ncpus, 0),
		.events = ev,
		.nevents = COUNTERS_EVENTS,
	};
	struct ioca_sampler_opts own;
	int ret, k;

	/* Zeroed padding too: libioca refuses unknown non-zero bytes. */
	memset(&own, 0, sizeof(own));
	own.sz = sizeof(own);
	own.owner = true;
	ret = ioca_client__sampler_set(c->client, &cfg, &own);
	if (ret == -EINVAL && strstr(ioca_client__last_extack(c->client), "attribute")) {
		/* A module without sampler ownership: configure, stop at close. */
		pr_debug(&c->log, "counters: ioca.ko has no sampler owner attribute");
		ret = ioca_client__sampler_set(c->client, &cfg, NULL);
		c->stop_on_close = !ret;
	}
	if (!ret)
		ret = ioca_client__sampler_start(c->client);
	if (ret) {
		pr_warn(&c->log, "counters: configuring the sampler failed: %s (%s)",
			strerror(-ret), ioca_client__last_extack(c->client));
		return ret;
	}
	for (k = 0; k < COUNTERS_EVENTS; k++)
		c->index[k] = k;
	c->timeout_ms = 3 * (int)(cfg.interval_us / 1000) + 10;
	return 0;
}

/* Whether metric @what needs the event in slot @k of kinds[]. */
static bool needs(enum spec_counter_metric what, int k)
{
	switch (what) {
	case SPEC_COUNTERS_IPC:
		return k != 2;
	case SPEC_COUNTERS_LLC_MISSES_PER_INSN:
		return k != 1;
	case SPEC_COUNTERS_LLC_MISSES_PER_OP:
		return k == 2;
	}
	return true;
}

/* Use a sampler someone else configured: find our kinds in its events. */
static int adopt(struct spec_counters *c)
{
	struct ioca_info *in = calloc(1, sizeof(*in));
	uint32_t i;
	int ret, k;

	if (!in)
		return -ENOMEM;
	ret = ioca_client__info(c->client, in);
	if (!ret && in->sampler.state != IOCA_SAMPLER_STATE_RUNNING) {
		pr_warn(&c->log,
			"counters: the module's sampler is not running (set opts.configure, or "
			"start it with iocactl/iocad)");
		ret = -EINVAL;
	}
	for (k = 0; !ret && k < COUNTERS_EVENTS; k++) {
		c->index[k] = -1;
		for (i = 0; i < in->sampler.nevents; i++) {
			if (in->sampler.events[i].kind == kinds[k])
				c->index[k] = (int)in->sampler.events[i].index;
		}
		if (c->index[k] < 0 && needs(c->what, k)) {
			pr_warn(&c->log,
				"counters: the sampler does not count event kind %u, which the "
				"metric needs (configure it, or set opts.configure)",
				kinds[k]);
			ret = -EINVAL;
		}
	}
	if (!ret)
		c->timeout_ms = 3 * (int)(in->sampler.interval_us / 1000) + 10;
	free(in);
	return ret;
}

struct spec_counters *spec_counters__open(enum spec_counter_metric what,
					  const struct spec_counters_opts *opts)
{
	struct libspec_log log = LIBSPEC_LOG_OPTS(opts);
	struct ioca_client_opts co;
	struct ioca_subscription_opts so;
	struct spec_counters *c;
	size_t i, ncpus;
	int ret;

	if (what < SPEC_COUNTERS_IPC || what > SPEC_COUNTERS_LLC_MISSES_PER_OP ||
	    !OPTS_VALID(&log, opts, spec_counters_opts) ||
	    (what == SPEC_COUNTERS_LLC_MISSES_PER_OP && !OPTS_GET(opts, ops, NULL))) {
		pr_warn(&log, "counters: bad metric %d or options (per-op needs opts.ops)",
			(int)what);
		return libspec_err_ptr(-EINVAL);
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return libspec_err_ptr(-ENOMEM);
	c->log = log;
	memset(&co, 0, sizeof(co));
	co.sz = sizeof(co);
	co.print = ioca_log;
	co.print_ctx = &c->log;
	memset(&so, 0, sizeof(so));
	so.sz = sizeof(so);
	so.print = ioca_log;
	so.print_ctx = &c->log;
	c->what = what;
	c->ops = OPTS_GET(opts, ops, NULL);
	c->negate = OPTS_GET(opts, negate, false);
	ncpus = OPTS_GET(opts, ncpus, 0);
	c->all_cpus = !ncpus;
	for (i = 0; i < ncpus; i++) {
		if (opts->cpus[i] < COUNTERS_MAX_CPUS)
			c->cpu_wanted[opts->cpus[i]] = true;
	}
	c->sample = malloc(sizeof(*c->sample));
	c->client = ioca_client__open(&co);
	if (!c->sample || !c->client) {
		ret = -errno;
		pr_warn(&c->log, "counters: cannot reach ioca.ko: %s", strerror(errno));
		goto fail;
	}
	ret = OPTS_GET(opts, configure, false) ? configure(c, opts) : adopt(c);
	if (ret)
		goto fail;
	if (OPTS_GET(opts, timeout_ms, 0))
		c->timeout_ms = opts->timeout_ms;
	c->sub = ioca_subscription__open(&so);
	if (!c->sub) {
		ret = -errno;
		pr_warn(&c->log, "counters: cannot join the samples group: %s", strerror(errno));
		goto fail;
	}
	return c;
fail:
	spec_counters__close(c);
	return libspec_err_ptr(ret ? ret : -EINVAL);
}

/* The service's CPUs' readings of the sample in c->sample. */
static size_t readings(struct spec_counters *c)
{
	const struct ioca_sample *s = c->sample;
	size_t n = 0, k;
	uint32_t i, j;

	for (i = 0; i < s->ncpus && n < COUNTERS_MAX_CPUS; i++) {
		const struct ioca_cpu_sample *cs = &s->cpus[i];
		struct counters_reading *r = &c->readings[n];

		if (!cs->online || cs->id >= COUNTERS_MAX_CPUS ||
		    (!c->all_cpus && !c->cpu_wanted[cs->id]))
			continue;
		memset(r, 0, sizeof(*r));
		r->cpu = cs->id;
		r->generation = cs->generation;
		for (k = 0; k < COUNTERS_EVENTS; k++) {
			for (j = 0; c->index[k] >= 0 && j < cs->ncounters; j++) {
				if (cs->counters[j].index == (uint32_t)c->index[k])
					r->v[k] = cs->counters[j].value;
			}
		}
		n++;
	}
	return n;
}

double spec_counters__read(void *counters)
{
	struct spec_counters *c = counters;
	bool fresh = false;
	size_t n = 0;
	int ret, wait = c ? c->timeout_ms : 0;

	if (!c)
		return NAN;
	/* Drain what is queued, waiting only until one sample is newer. */
	for (;;) {
		ret = ioca_subscription__recv(c->sub, c->sample, fresh ? 0 : wait);
		if (ret != 1)
			break;
		if (c->sample->seq > c->last_seq || !c->samples) {
			c->last_seq = c->sample->seq;
			c->samples++;
			fresh = true;
			n = readings(c);
		}
	}
	if (!fresh)
		return NAN;
	return counters_window_close(&c->win, c->what, c->readings, n,
				     c->ops ? atomic_load(c->ops) : 0, c->negate);
}

uint64_t spec_counters__samples(const struct spec_counters *c)
{
	return c ? c->samples : 0;
}

void spec_counters__close(struct spec_counters *c)
{
	if (!c)
		return;
	ioca_subscription__close(c->sub);
	if (c->stop_on_close)
		ioca_client__sampler_stop(c->client);
	/* An owned sampler stops when its socket closes. */
	ioca_client__close(c->client);
	free(c->sample);
	free(c);
}
#endif
