// SPDX-License-Identifier: GPL-2.0
/*
 * Strings from the kernel (backend and CPU model names) are escaped; every
 * other value is a number or a boolean, so no general encoder is needed.
 */
#include "ctl_json.h"

#include <inttypes.h>
#include <stdbool.h>

#include "ctl_print.h"

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void kind(FILE *f, uint32_t k)
{
	char buf[24];

	put_str(f, ctl_print_kind(k, buf, sizeof(buf)));
}

static const char *jbool(bool b)
{
	return b ? "true" : "false";
}

/* The DDIO control keys only when the module reports them. */
static void socket_obj(FILE *f, const struct ioca_socket_info *s,
		       const struct ioca_ddio_control *dc)
{
	fprintf(f,
		"{\"id\":%" PRIu32 ",\"llc_ways\":%" PRIu32 ",\"ddio_mask\":%" PRIu32
		",\"ddio_ways\":%" PRIu32 ",\"boot_mask\":%" PRIu32 ",\"valid_mask\":%" PRIu32
		",\"cpus\":%" PRIu32 ",\"owner_pid\":%" PRIu32,
		s->id, s->llc_ways, s->ddio_mask, s->ddio_ways, s->boot_mask, s->valid_mask,
		s->cpu_count, s->owner_pid);
	if (dc->reported)
		fprintf(f,
			",\"ddio_field\":%" PRIu32 ",\"ddio_available\":%s,\"ddio_writable\":%s"
			",\"ddio_verified\":%s",
			dc->field, jbool(dc->available), jbool(dc->writable), jbool(dc->verified));
	fputc('}', f);
}

static void device_obj(FILE *f, const struct ioca_device_info *d, uint32_t i)
{
	static const char *const modes[] = {"?", "on", "off", "full-off"};

	fprintf(f, "%s{\"addr\":", i ? "," : "");
	put_str(f, d->addr);
	fputs(",\"root_port\":", f);
	put_str(f, d->root_port);
	fprintf(f,
		",\"ddio\":\"%s\",\"perfctrlsts0\":%" PRIu32 ",\"perfctrlsts1\":%" PRIu32
		",\"owner_pid\":%" PRIu32 ",\"emulated\":%s}",
		modes[d->mode <= IOCA_DDIO_DEVICE_MODE_MAX ? d->mode : 0], d->perfctrlsts0,
		d->perfctrlsts1, d->owner_pid, jbool(d->emulated));
}

static void event_obj(FILE *f, const struct ioca_event_info *e)
{
	fprintf(f, "{\"index\":%" PRIu32 ",\"kind\":", e->index);
	kind(f, e->kind);
	fprintf(f, ",\"type\":%" PRIu32 ",\"config\":%" PRIu64 ",\"config1\":%" PRIu64, e->type,
		e->config, e->config1);
	fprintf(f, ",\"effective_kind\":");
	kind(f, e->effective_kind ? e->effective_kind : e->kind);
	fputc('}', f);
}

static void events(FILE *f, const char *key, const struct ioca_event_info *e, uint32_t n)
{
	uint32_t i;

	fprintf(f, ",\"%s\":[", key);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		event_obj(f, &e[i]);
	}
	fputc(']', f);
}

static void sampler_obj(FILE *f, const struct ioca_sampler_info *s)
{
	static const char *const states[] = {"unconfigured", "configured", "running"};
	uint32_t i;

	fprintf(f, "{\"state\":");
	put_str(f, s->state < 3 ? states[s->state] : "unknown");
	fprintf(f, ",\"interval_us\":%" PRIu32 ",\"cpus\":[", s->interval_us);
	for (i = 0; i < s->ncpus; i++)
		fprintf(f, "%s%" PRIu32, i ? "," : "", s->cpus[i]);
	fputc(']', f);
	events(f, "events", s->events, s->nevents);
	events(f, "uncore_events", s->uncore, s->nuncore);
	fprintf(f,
		",\"seq\":%" PRIu64 ",\"intervals\":%" PRIu64 ",\"no_listener\":%" PRIu64
		",\"send_errors\":%" PRIu64 ",\"last_collect_ns\":%" PRIu64
		",\"mean_collect_ns\":%" PRIu64 ",\"owner_pid\":%" PRIu32 ",\"parts\":%" PRIu32 "}",
		s->seq, s->intervals, s->no_listener, s->send_errors, s->last_collect_ns,
		s->mean_collect_ns, s->owner_pid, s->parts);
}

void ctl_json_info(FILE *f, const struct ioca_info *info, const struct ctl_irdt *irdt)
{
	uint32_t i;

	fprintf(f, "{\"backend\":");
	put_str(f, info->backend_name);
	fprintf(f, ",\"cpu_family\":%" PRIu32 ",\"cpu_model\":%" PRIu32 ",\"cpu_model_name\":",
		info->cpu_family, info->cpu_model);
	put_str(f, info->cpu_model_name);
	fprintf(f,
		",\"ddio_verified\":%s,\"locked_down\":%s,\"min_ways\":%" PRIu32 ",\"sockets\":[",
		info->ddio_verified ? "true" : "false", info->locked_down ? "true" : "false",
		info->min_ways);
	for (i = 0; i < info->nsockets; i++) {
		if (i)
			fputc(',', f);
		socket_obj(f, &info->sockets[i], &info->ddio[i]);
	}
	fprintf(f, "],\"hw_counters\":%s,\"fallback_kind\":", info->hw_counters ? "true" : "false");
	kind(f, info->fallback_kind);
	fputs(",\"devices\":[", f);
	for (i = 0; i < info->ndevices; i++)
		device_obj(f, &info->devices[i], i);
	fputc(']', f);
	if (info->has_sampler) {
		fprintf(f, ",\"sampler\":");
		sampler_obj(f, &info->sampler);
	}
	if (irdt)
		ctl_irdt_json(f, irdt);
	fputs("}\n", f);
}
