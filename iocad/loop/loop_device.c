// SPDX-License-Identifier: GPL-2.0
#include "loop/loop_device.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_device.h"
#include "loop/loop_state.h"

/* What the config's setting asks of the platform now. */
static int wanted(const struct loop_dev *d)
{
	if (d->cfg.ddio != CONFIG_DEV_DDIO_AUTO)
		return d->cfg.ddio;
	return d->st.off ? PLATFORM_DEV_DDIO_OFF : PLATFORM_DEV_DDIO_ON;
}

static const char *mode_name(int mode)
{
	return config_device_ddio_name(mode);
}

/* Set @d to @mode on the platform; the reason, if any, goes into the log line. */
static void set(struct loop *l, struct loop_dev *d, int mode, const char *why)
{
	const struct platform_ops *ops = l->pf->ops;
	int r;

	if (l->o->dry_run) {
		loop_say(l, LOOP_LOG_INFO, "device %s: would set DDIO %s%s (dry-run)", d->cfg.addr,
			 mode_name(mode), why);
		d->mode = mode;
		return;
	}
	r = ops->device_ddio ? ops->device_ddio(l->pf->ctx, d->cfg.addr, mode) : -EOPNOTSUPP;
	if (r) {
		const char *w = ops->last_error ? ops->last_error(l->pf->ctx) : "";

		if (!ops->device_ddio)
			w = "this platform has no per-device DDIO";
		loop_say(l, LOOP_LOG_ERROR,
			 "device %s: DDIO %s refused: %s%s%s; the device is left as it is, the "
			 "tenants are managed as before",
			 d->cfg.addr, mode_name(mode), strerror(-r), w && w[0] ? ": " : "",
			 w ? w : "");
		d->refused = true;
		return;
	}
	l->changed_platform = true;
	d->mode = mode;
	loop_say(l, LOOP_LOG_INFO, "device %s (%s%s%s): DDIO %s%s", d->cfg.addr,
		 config_device_kind_name(d->cfg.kind), d->cfg.tenant[0] ? ", tenant " : "",
		 d->cfg.tenant, mode_name(mode), why);
}

static bool same_setting(const struct config_device *a, const struct config_device *b)
{
	return a->ddio == b->ddio && a->kind == b->kind && !strcmp(a->tenant, b->tenant) &&
	       a->socket_set == b->socket_set && a->socket == b->socket;
}

static struct loop_dev *find(struct loop_devices *dv, const char *addr)
{
	for (unsigned int i = 0; i < dv->n; i++)
		if (!strcmp(dv->d[i].cfg.addr, addr))
			return &dv->d[i];
	return NULL;
}

void loop_device_sync(struct loop *l)
{
	struct loop_devices *dv = &l->dev;
	struct loop_devices *next = calloc(1, sizeof(*next));

	if (!next) {
		loop_say(l, LOOP_LOG_ERROR, "devices: out of memory; their DDIO stays as it is");
		return;
	}
	/* removed devices go back as found */
	for (unsigned int i = 0; i < dv->n; i++) {
		struct loop_dev *d = &dv->d[i];
		bool kept = false;

		for (unsigned int j = 0; j < l->cfg.ndevices; j++)
			kept |= !strcmp(l->cfg.device[j].addr, d->cfg.addr);
		if (!kept && d->mode)
			set(l, d, PLATFORM_DEV_DDIO_FOUND, " (no longer in the config: as found)");
	}
	for (unsigned int j = 0; j < l->cfg.ndevices; j++) {
		const struct config_device *c = &l->cfg.device[j];
		struct loop_dev *old = find(dv, c->addr), *d = &next->d[next->n++];

		if (old && same_setting(&old->cfg, c)) {
			*d = *old;
			d->cfg = *c; /* lines may have moved */
			continue;
		}
		memset(d, 0, sizeof(*d));
		d->cfg = *c;
		d->live = true;
		if (old) {
			d->mode = old->mode;
			/* an auto device that stays auto keeps what the rule decided */
			if (old->cfg.ddio == CONFIG_DEV_DDIO_AUTO &&
			    c->ddio == CONFIG_DEV_DDIO_AUTO)
				d->st = old->st;
		}
		if (wanted(d) != d->mode)
			set(l, d, wanted(d),
			    c->ddio == CONFIG_DEV_DDIO_AUTO ? " (auto: starts on)" : "");
	}
	next->prev = dv->prev;
	next->have_prev = dv->have_prev;
	memcpy(dv, next, sizeof(*dv));
	free(next);
}

bool loop_device_take(struct loop *l, const struct config *next)
{
	bool differ = l->cfg.ndevices != next->ndevices;

	for (unsigned int i = 0; !differ && i < next->ndevices; i++)
		differ = strcmp(l->cfg.device[i].addr, next->device[i].addr) ||
			 !same_setting(&l->cfg.device[i], &next->device[i]);
	l->cfg.ndevices = next->ndevices;
	memcpy(l->cfg.device, next->device, sizeof(l->cfg.device));
	return differ;
}

/* The socket whose DDIO counters stand for the device's. */
static unsigned int socket_of(const struct loop *l, const struct config_device *c, int owner)
{
	if (c->socket_set)
		return c->socket;
	return owner >= 0 ? l->cfg.tenant[owner].socket : 0;
}

/* This interval's rates for @d; false if the device's writes were not read. */
static bool inputs(struct loop *l, struct loop_dev *d, double dt, struct decide_device_in *in)
{
	const struct platform_ops *ops = l->pf->ops;
	int owner = d->cfg.tenant[0] ? config_tenant_index(&l->cfg, d->cfg.tenant) : -1;
	unsigned int s = socket_of(l, &d->cfg, owner);
	const struct platform_socket_sample *a = &l->dev.prev.socket[s], *b = &l->cur.socket[s];
	uint64_t bytes = 0;
	bool had = d->have_bytes;
	uint64_t was = d->bytes;

	memset(in, 0, sizeof(*in));
	if (!ops->device_writes || ops->device_writes(l->pf->ctx, d->cfg.addr, &bytes)) {
		d->have_bytes = false;
		return false;
	}
	d->bytes = bytes;
	d->have_bytes = true;
	if (!had || bytes < was)
		return false;
	in->measured = true;
	in->write_bytes = (double)(bytes - was) / dt;
	in->ddio_measured = !b->ddio_missing && b->ddio_hits >= a->ddio_hits &&
			    b->ddio_misses >= a->ddio_misses;
	if (in->ddio_measured) {
		in->ddio_hits = (double)(b->ddio_hits - a->ddio_hits) / dt;
		in->ddio_misses = (double)(b->ddio_misses - a->ddio_misses) / dt;
	}
	if (owner >= 0) {
		const struct config_tenant *t = &l->cfg.tenant[owner];

		for (unsigned int i = 0; i < t->ncpus; i++) {
			const struct platform_cpu_counters *x = &l->dev.prev.cpu[t->cpus[i]],
							   *y = &l->cur.cpu[t->cpus[i]];

			if (y->llc_refs < x->llc_refs || y->llc_misses < x->llc_misses)
				continue;
			in->owner_refs += (double)(y->llc_refs - x->llc_refs) / dt;
			in->owner_misses += (double)(y->llc_misses - x->llc_misses) / dt;
		}
	}
	return true;
}

static void decide_one(struct loop *l, struct loop_dev *d, double dt)
{
	struct decide_device_in in;
	enum decide_device_reason why;
	char buf[256];

	if (!inputs(l, d, dt, &in) && !d->have_bytes && !d->said_unmeasured) {
		d->said_unmeasured = true;
		loop_say(l, LOOP_LOG_INFO,
			 "device %s: ddio = auto, but %s does not measure the device's DMA "
			 "writes (its IIO stack's inbound write counter): DDIO stays %s",
			 d->cfg.addr, l->pf->ops->name, d->st.off ? "off" : "on");
	}
	why = decide_device(&d->cfg.thr.storage, &d->st, &in);
	if (why != DEV_OFF_POLLUTES && why != DEV_ON_QUIET && why != DEV_ON_REREAD)
		return;
	snprintf(buf, sizeof(buf),
		 " at t=%.0fs (auto: %s: writes %.0f MB/s, DDIO miss ratio %.2f, owner LLC hits "
		 "%.2f and misses %.2f per written line)",
		 (double)l->cur.t_ns / 1e9, decide_device_reason_name(why), in.write_bytes / 1e6,
		 in.ddio_hits + in.ddio_misses > 0
			 ? in.ddio_misses / (in.ddio_hits + in.ddio_misses)
			 : 0.0,
		 in.write_bytes > 0 ? (in.owner_refs - in.owner_misses) * 64 / in.write_bytes : 0.0,
		 in.write_bytes > 0 ? in.owner_misses * 64 / in.write_bytes : 0.0);
	set(l, d, wanted(d), buf);
}

void loop_device_interval(struct loop *l)
{
	struct loop_devices *dv = &l->dev;
	double dt = dv->have_prev && l->cur.t_ns > dv->prev.t_ns
			    ? (double)(l->cur.t_ns - dv->prev.t_ns) / 1e9
			    : 0.0;

	for (unsigned int i = 0; i < dv->n; i++) {
		struct loop_dev *d = &dv->d[i];

		if (d->cfg.ddio != CONFIG_DEV_DDIO_AUTO || d->refused)
			continue;
		if (dt > 0)
			decide_one(l, d, dt);
		else
			(void)inputs(l, d, 1.0, &(struct decide_device_in){0});
	}
	memcpy(&dv->prev, &l->cur, sizeof(dv->prev));
	dv->have_prev = true;
}

void loop_device_record(const struct loop *l, unsigned int socket, struct loop_record *r)
{
	r->ndev = 0;
	for (unsigned int i = 0; i < l->dev.n; i++) {
		const struct loop_dev *d = &l->dev.d[i];
		int owner = d->cfg.tenant[0] ? config_tenant_index(&l->cfg, d->cfg.tenant) : -1;
		struct loop_device_record *o = &r->dev[r->ndev];

		if (socket_of(l, &d->cfg, owner) != socket)
			continue;
		memcpy(o->addr, d->cfg.addr, sizeof(o->addr));
		o->setting = d->cfg.ddio;
		o->mode = d->mode;
		o->refused = d->refused;
		r->ndev++;
	}
}

uint32_t loop_device_off_mask(const struct loop *l)
{
	uint32_t m = 0;

	for (unsigned int i = 0; i < l->dev.n; i++)
		if (l->dev.d[i].mode == PLATFORM_DEV_DDIO_OFF ||
		    l->dev.d[i].mode == PLATFORM_DEV_DDIO_FULL_OFF)
			m |= 1u << i;
	return m;
}
