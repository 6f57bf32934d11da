// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/metrics.h"
#include "metrics/metrics_exporter.h"
#include "metrics/metrics_http.h"
#include "metrics/metrics_textfile.h"
#include "metrics/metrics_web.h"
#include "config/config_metrics.h"

struct metrics_exporter {
	struct metrics m;
	/* slot of each socket id, -1 until its first record */
	int slot[PLATFORM_MAX_SOCKETS];
	struct config sock_cfg; /* scratch: what metrics_add_socket reads */
	struct platform *pf;
	struct metrics_http *http;
	char textfile[CONFIG_METRICS_PATH_LEN];
	bool textfile_failing; /* logged once until it works again */
	loop_log_fn log;
	void *log_arg;
	struct metrics_snapshot snap; /* the textfile's copy */
};

static void say(struct metrics_exporter *e, enum loop_log_level lvl, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!e->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	e->log(e->log_arg, lvl, buf);
}

static bool opts_valid(const struct metrics_exporter_opts *o)
{
	size_t known = offsetof(struct metrics_exporter_opts, log_arg) + sizeof(o->log_arg);

	if (!o || o->sz < known || !o->cfg)
		return false;
	for (size_t i = sizeof(*o); i < o->sz; i++)
		if (((const unsigned char *)o)[i])
			return false;
	return true;
}

static int write_textfile(struct metrics_exporter *e, char *err, size_t len)
{
	metrics_copy(&e->m, &e->snap);
	return metrics_textfile_write(&e->snap, e->textfile, err, len);
}

/* /healthz: stuck after healthz_intervals intervals, never sooner than the floor. */
static void set_stall(struct metrics_exporter *e, const struct config *cfg)
{
	unsigned int n = cfg->metrics.healthz_intervals ? cfg->metrics.healthz_intervals
							: CONFIG_METRICS_HEALTHZ_INTERVALS;
	uint64_t stall = n * cfg->interval_ns;

	if (stall < CONFIG_METRICS_HEALTHZ_MIN_S * 1000000000ull)
		stall = CONFIG_METRICS_HEALTHZ_MIN_S * 1000000000ull;
	metrics_set_stall(&e->m, stall);
}

struct metrics_exporter *metrics_exporter_start(const struct metrics_exporter_opts *o, char *err,
						size_t len)
{
	const struct config_metrics *mc;
	struct metrics_exporter *e;
	int r;

	if (!opts_valid(o)) {
		snprintf(err, len, "metrics: bad options");
		errno = EINVAL;
		return NULL;
	}
	mc = &o->cfg->metrics;
	if (!mc->listen[0] && !mc->textfile[0]) {
		errno = 0;
		return NULL;
	}
	e = calloc(1, sizeof(*e));
	if (!e || metrics_init(&e->m)) {
		free(e);
		snprintf(err, len, "metrics: out of memory");
		errno = ENOMEM;
		return NULL;
	}
	e->log = o->log;
	e->log_arg = o->log_arg;
	/*
	 * Sockets are registered at their first record: which ones have
	 * tenants is known only once the loop placed them (and a reload
	 * may add one).
	 */
	for (unsigned int i = 0; i < PLATFORM_MAX_SOCKETS; i++)
		e->slot[i] = -1;
	e->sock_cfg.interval_ns = o->cfg->interval_ns;
	e->pf = o->pf;
	memcpy(e->textfile, mc->textfile, sizeof(e->textfile));
	/* an unwritable textfile is found now, not an interval later */
	r = e->textfile[0] ? write_textfile(e, err, len) : 0;
	if (!r && mc->listen[0]) {
		struct metrics_web web = {0};

		set_stall(e, o->cfg);
		r = mc->web_config[0] ? metrics_web_load(&web, mc->web_config, err, len) : 0;
		if (!r) {
			e->http = metrics_http_start(&e->m, mc->listen, &web, err, len);
			r = e->http ? 0 : -errno;
		}
	}
	if (r) {
		metrics_destroy(&e->m);
		free(e);
		errno = -r;
		return NULL;
	}
	if (e->http)
		say(e, LOOP_LOG_INFO, "metrics: serving %s://%s/metrics%s",
		    metrics_http_tls(e->http) ? "https" : "http", metrics_http_addr(e->http),
		    metrics_http_auth(e->http) ? " (basic auth)" : "");
	if (e->textfile[0])
		say(e, LOOP_LOG_INFO, "metrics: writing %s every interval", e->textfile);
	return e;
}

void metrics_exporter_record(void *arg, const struct loop_record *r)
{
	struct metrics_exporter *e = arg;
	char err[512];

	if (r->socket >= PLATFORM_MAX_SOCKETS)
		return;
	if (e->slot[r->socket] < 0) {
		e->sock_cfg.socket = r->socket;
		e->sock_cfg.llc_ways = r->llc_ways;
		e->slot[r->socket] = metrics_add_socket(&e->m, &e->sock_cfg, e->pf);
		if (e->slot[r->socket] < 0)
			return;
	}
	metrics_record(&e->m, (unsigned int)e->slot[r->socket], r);
	if (!e->textfile[0])
		return;
	if (write_textfile(e, err, sizeof(err))) {
		if (!e->textfile_failing)
			say(e, LOOP_LOG_ERROR, "%s (retried every interval)", err);
		e->textfile_failing = true;
	} else if (e->textfile_failing) {
		say(e, LOOP_LOG_INFO, "metrics: textfile %s written again", e->textfile);
		e->textfile_failing = false;
	}
}

void metrics_exporter_status(void *arg, const struct loop_status *st)
{
	struct metrics_exporter *e = arg;
	bool was = e->m.snap.waiting, now = st->waiting && st->waiting[0];
	char err[512];

	metrics_status(&e->m, st);
	/* the textfile follows a change of state; intervals write it anyway */
	if (e->textfile[0] && was != now && write_textfile(e, err, sizeof(err)) &&
	    !e->textfile_failing) {
		say(e, LOOP_LOG_ERROR, "%s (retried every interval)", err);
		e->textfile_failing = true;
	}
}

void metrics_exporter_stop(struct metrics_exporter *e)
{
	if (!e)
		return;
	metrics_http_stop(e->http);
	metrics_destroy(&e->m);
	free(e);
}
