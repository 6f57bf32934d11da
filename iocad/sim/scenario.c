// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_value.h"
#include "sim_event.h"
#include "sim_keys.h"
#include "ways.h"

#define LINE_MAX_LEN 1024
#define MSG_LEN 200

struct parser {
	struct scenario *s;
	unsigned int line;
	char *err;
	size_t errlen;
	enum { SEC_NONE, SEC_PLATFORM, SEC_TENANT, SEC_EVENTS, SEC_DEVICE } sec;
	unsigned int device; /* the current [device ADDR] */
	struct scenario_tenant *cur;
	unsigned int cap_events;
};

static int fail(struct parser *p, const char *fmt, ...)
{
	size_t n;
	va_list ap;

	if (!p->errlen)
		return -EINVAL;
	if (p->line)
		n = (size_t)snprintf(p->err, p->errlen, "%s:%u: ", p->s->path, p->line);
	else
		n = (size_t)snprintf(p->err, p->errlen, "%s: ", p->s->path);
	if (n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int tenant_value(struct parser *p, const char *key, const char *val, int group,
			struct scenario_set *out)
{
	char msg[MSG_LEN];

	if (sim_keys_tenant(key, val, group, out, msg, sizeof(msg)))
		return fail(p, "%s", msg);
	return 0;
}

static int platform_key(struct parser *p, const char *key, const char *val)
{
	char msg[MSG_LEN];

	if (sim_keys_platform(p->s, key, val, msg, sizeof(msg)))
		return fail(p, "%s", msg);
	if (!strcmp(key, "ddio_mask"))
		p->s->ddio_line = p->line;
	if (!strcmp(key, "inclusive_mask"))
		p->s->incl_line = p->line;
	return 0;
}

static int tenant_key(struct parser *p, const char *key, const char *val)
{
	struct scenario_tenant *t = p->cur;
	struct scenario_set set;
	int rc;

	if (!strcmp(key, "cpus")) {
		char why[80];

		if (config_value_cpus(val, t->cpus, &t->ncpus, why, sizeof(why)))
			return fail(p, "cpus: bad CPU list '%s': %s", val, why);
		return 0;
	}
	rc = tenant_value(p, key, val, 0, &set);
	if (rc)
		return rc;
	sim_keys_apply(&t->w, &set);
	if (!strcmp(key, "rate") && set.value > 0 && !t->rate_line)
		t->rate_line = p->line;
	return 0;
}

static int section(struct parser *p, char *hdr)
{
	char *close = strchr(hdr, ']');
	char *name;

	if (!close || close[1])
		return fail(p, "section header '%s' lacks its closing ']'", hdr);
	*close = '\0';
	hdr++;
	if (!strcmp(hdr, "platform")) {
		p->sec = SEC_PLATFORM;
		return 0;
	}
	if (!strcmp(hdr, "events")) {
		p->sec = SEC_EVENTS;
		return 0;
	}
	if (!strncmp(hdr, "device ", 7)) {
		char msg[MSG_LEN];

		if (sim_device_section(&p->s->dev, hdr + 7, p->line, &p->device, msg, sizeof(msg)))
			return fail(p, "%s", msg);
		p->sec = SEC_DEVICE;
		return 0;
	}
	if (strncmp(hdr, "tenant ", 7))
		return fail(p,
			    "unknown section [%s] (expected platform, tenant NAME, device ADDR or "
			    "events)",
			    hdr);
	name = hdr + 7;
	while (*name == ' ')
		name++;
	if (!sim_keys_valid_name(name))
		return fail(p, "tenant name '%s' must be 1-%d characters of [A-Za-z0-9_.-]", name,
			    PLATFORM_NAME_LEN - 1);
	if (scenario_tenant_index(p->s, name) >= 0)
		return fail(p, "tenant '%s' is defined twice", name);
	if (p->s->ntenants == PLATFORM_MAX_TENANTS)
		return fail(p, "more than %d tenants", PLATFORM_MAX_TENANTS);
	p->cur = &p->s->tenant[p->s->ntenants++];
	snprintf(p->cur->name, sizeof(p->cur->name), "%s", name);
	sim_workload_defaults(&p->cur->w);
	p->cur->line = p->line;
	p->sec = SEC_TENANT;
	return 0;
}

static struct scenario_event *new_event(struct parser *p)
{
	struct scenario *s = p->s;
	struct scenario_event *ev;

	if (s->nevents == p->cap_events) {
		unsigned int cap = p->cap_events ? 2 * p->cap_events : 32;

		ev = realloc(s->events, cap * sizeof(*ev));
		if (!ev)
			return NULL;
		s->events = ev;
		p->cap_events = cap;
	}
	ev = &s->events[s->nevents++];
	memset(ev, 0, sizeof(*ev));
	ev->line = p->line;
	return ev;
}

static int event(struct parser *p, char *text)
{
	struct scenario_event *ev = new_event(p);
	char msg[MSG_LEN];

	if (!ev)
		return -ENOMEM;
	if (sim_event_parse(text, ev, msg, sizeof(msg)))
		return fail(p, "%s", msg);
	return 0;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static int line(struct parser *p, char *raw)
{
	char *s, *eq, *c;

	/* Comments start with # or ; at the line start or after a blank. */
	for (c = raw; *c; c++)
		if ((*c == '#' || *c == ';') && (c == raw || isspace((unsigned char)c[-1]))) {
			*c = '\0';
			break;
		}
	s = trim(raw);
	if (!*s)
		return 0;
	if (*s == '[')
		return section(p, s);
	if (p->sec == SEC_EVENTS)
		return event(p, s);
	eq = strchr(s, '=');
	if (!eq)
		return fail(p, "expected key = value, got '%s'", s);
	*eq = '\0';
	s = trim(s);
	eq = trim(eq + 1);
	if (!*s || !*eq)
		return fail(p, "empty key or value");
	if (p->sec == SEC_PLATFORM)
		return platform_key(p, s, eq);
	if (p->sec == SEC_TENANT)
		return tenant_key(p, s, eq);
	if (p->sec == SEC_DEVICE) {
		char msg[MSG_LEN];

		if (sim_device_key(&p->s->dev, p->device, s, eq, msg, sizeof(msg)))
			return fail(p, "%s", msg);
		return 0;
	}
	return fail(p, "key '%s' outside any section", s);
}

static int by_time(const void *a, const void *b)
{
	const struct scenario_event *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int tenant_of(const void *arg, const char *name)
{
	return scenario_tenant_index(arg, name);
}

static int finish(struct parser *p)
{
	struct scenario *s = p->s;
	uint32_t all = ways_all(s->params.ways);
	unsigned int i;

	if (!s->ntenants) {
		p->line = 0;
		return fail(p, "no [tenant NAME] section");
	}
	if (!s->ddio_line)
		s->ddio_mask = (all & ~(all >> 2));
	p->line = s->ddio_line;
	if (!ways_fits(s->ddio_mask, s->params.ways))
		return fail(p, "ddio_mask: 0x%x is not a contiguous mask within %u ways",
			    s->ddio_mask, s->params.ways);
	p->line = s->incl_line;
	if (s->params.incl_mask && !ways_fits(s->params.incl_mask, s->params.ways))
		return fail(
			p, "inclusive_mask: 0x%x is not a contiguous mask within %u ways (0: none)",
			s->params.incl_mask, s->params.ways);
	p->line = 0;
	if (s->nsockets > 1 && !s->cpus_per_socket)
		return fail(p, "sockets = %u needs cpus_per_socket in [platform]", s->nsockets);
	{
		char msg[MSG_LEN];

		if (sim_device_finish(&s->dev, tenant_of, s, &p->line, msg, sizeof(msg)))
			return fail(p, "%s", msg);
	}
	for (i = 0; i < s->nevents; i++) {
		struct scenario_event *ev = &s->events[i];
		int t;

		p->line = ev->line;
		if (ev->kind == SCN_EV_DDIO && ev->socket >= s->nsockets)
			return fail(p, "ddio: socket %u, but the platform has %u socket(s)",
				    ev->socket, s->nsockets);
		if (ev->t_ns >= s->duration_ns)
			return fail(p, "event at %.3fs is not before the end of the run (%.3fs)",
				    ev->t_ns / 1e9, s->duration_ns / 1e9);
		if (ev->kind == SCN_EV_DDIO) {
			if (!ways_fits(ev->mask, s->params.ways))
				return fail(p, "ddio: 0x%x is not a contiguous mask within %u ways",
					    ev->mask, s->params.ways);
			continue;
		}
		if (ev->kind == SCN_EV_RELOAD)
			continue;
		t = scenario_tenant_index(s, ev->name);
		if (t < 0)
			return fail(p, "no tenant '%s' in this scenario", ev->name);
		ev->tenant = (unsigned int)t;
	}
	if (s->nevents)
		qsort(s->events, s->nevents, sizeof(*s->events), by_time);
	return 0;
}

static void defaults(struct scenario *s, const char *name)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", name);
	/* A Skylake-SP Xeon Gold 6140 socket: 11 ways of 2.25 MiB. */
	s->params.ways = 11;
	s->params.way_bytes = 2.25 * 1024 * 1024;
	s->params.miss_penalty = 200;
	s->params.ghz = 2.3;
	s->params.incl_mask = 0x3; /* A4: the two lowest ways of the 11 */
	s->params.leak_cycles = 0; /* no source for a value (SIMULATOR.md) */
	s->params.llc_latency = 50;
	s->params.l2_latency = 14;
	/* 6 channels of DDR4-2666, 8 B each: 128 GB/s peak (SIMULATOR.md). */
	s->params.mem_bw = 6 * 2666e6 * 8;
	s->params.mem_slope = 0.2;
	/* a polling core's longest stall in a trial; DPDK's burst (SIMULATOR.md) */
	s->params.stall = 50e-6;
	s->params.rx_burst = 32;
	s->seed = 1;
	s->noise = 0.0;
	s->duration_ns = 60ULL * 1000000000ULL;
	s->nsockets = 1;
}

struct scenario *scenario_parse_string(const char *text, const char *name, char *err, size_t errlen)
{
	struct parser p = {.err = err, .errlen = errlen};
	char buf[LINE_MAX_LEN];
	const char *at = text;
	int rc = 0;

	if (errlen)
		err[0] = '\0';
	p.s = malloc(sizeof(*p.s));
	if (!p.s) {
		errno = ENOMEM;
		return NULL;
	}
	defaults(p.s, name);
	while (*at && !rc) {
		const char *nl = strchr(at, '\n');
		size_t len = nl ? (size_t)(nl - at) : strlen(at);

		p.line++;
		if (len >= sizeof(buf)) {
			rc = fail(&p, "line longer than %d characters", LINE_MAX_LEN - 1);
			break;
		}
		memcpy(buf, at, len);
		buf[len] = '\0';
		rc = line(&p, buf);
		at += len + (nl ? 1 : 0);
	}
	if (!rc)
		rc = finish(&p);
	if (rc) {
		if (rc == -ENOMEM && errlen)
			snprintf(err, errlen, "%s: out of memory", name);
		scenario_free(p.s);
		errno = -rc;
		return NULL;
	}
	return p.s;
}

struct scenario *scenario_load(const char *path, char *err, size_t errlen)
{
	struct scenario *s;
	char *text;
	long size;
	FILE *f = fopen(path, "r");
	int saved;

	if (!f) {
		saved = errno;
		if (errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    size > (1L << 24)) {
		fclose(f);
		if (errlen)
			snprintf(err, errlen, "%s: cannot read (or larger than 16 MiB)", path);
		errno = EINVAL;
		return NULL;
	}
	text = malloc((size_t)size + 1);
	if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
		free(text);
		fclose(f);
		if (errlen)
			snprintf(err, errlen, "%s: read failed", path);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	text[size] = '\0';
	s = scenario_parse_string(text, path, err, errlen);
	saved = errno;
	free(text);
	errno = saved;
	return s;
}

void scenario_free(struct scenario *s)
{
	if (!s)
		return;
	free(s->events);
	free(s);
}

int scenario_tenant_index(const struct scenario *s, const char *name)
{
	unsigned int i;

	for (i = 0; i < s->ntenants; i++)
		if (!strcmp(s->tenant[i].name, name))
			return (int)i;
	return -1;
}
