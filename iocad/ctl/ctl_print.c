// SPDX-License-Identifier: GPL-2.0
#include "ctl_print.h"

#include <inttypes.h>
#include <string.h>

static const char *const state_names[] = {
	[IOCA_SAMPLER_STATE_UNCONFIGURED] = "unconfigured",
	[IOCA_SAMPLER_STATE_CONFIGURED] = "configured",
	[IOCA_SAMPLER_STATE_RUNNING] = "running",
};

const char *ctl_print_kind(uint32_t kind, char *buf, size_t len)
{
	const char *name = libioca_event_kind_name(kind);

	if (name)
		return name;
	snprintf(buf, len, "kind-%" PRIu32, kind);
	return buf;
}

static const char *yes_no(bool b)
{
	return b ? "yes" : "no";
}

/* Nothing from a module that does not report DDIO control. */
static void print_ddio_control(FILE *f, const struct ioca_ddio_control *dc)
{
	const char *why = ioca_ddio_control__why_not(dc);

	if (!dc->reported)
		return;
	fprintf(f, "  ddio-field 0x%" PRIx32 "\n", dc->field);
	fprintf(f, "  ddio-control available %s writable %s verified %s\n", yes_no(dc->available),
		yes_no(dc->writable), yes_no(dc->verified));
	if (why)
		fprintf(f, "  ddio-not-controllable: %s\n", why);
}

static const char *device_mode(uint32_t mode)
{
	switch (mode) {
	case IOCA_DDIO_DEVICE_MODE_ON:
		return "on";
	case IOCA_DDIO_DEVICE_MODE_OFF:
		return "off";
	case IOCA_DDIO_DEVICE_MODE_FULL_OFF:
		return "full-off";
	default:
		return "?";
	}
}

/* One line per root port whose DDIO setting the module changed. */
static void print_device(FILE *f, const struct ioca_device_info *d)
{
	fprintf(f, "device %s: root-port %s ddio %s perfctrlsts 0x%" PRIx32 " 0x%" PRIx32 "%s",
		d->addr[0] ? d->addr : "-", d->root_port, device_mode(d->mode), d->perfctrlsts0,
		d->perfctrlsts1, d->emulated ? " emulated" : "");
	if (d->owner_pid)
		fprintf(f, " owner-pid %" PRIu32, d->owner_pid);
	fputc('\n', f);
}

static void print_socket(FILE *f, const struct ioca_socket_info *s)
{
	fprintf(f, "socket %" PRIu32 ":\n", s->id);
	fprintf(f, "  llc-ways %" PRIu32 "\n", s->llc_ways);
	fprintf(f, "  ddio-mask 0x%" PRIx32 " ways %" PRIu32 "\n", s->ddio_mask, s->ddio_ways);
	fprintf(f, "  boot-mask 0x%" PRIx32 "\n", s->boot_mask);
	fprintf(f, "  valid-mask 0x%" PRIx32 "\n", s->valid_mask);
	fprintf(f, "  cpus %" PRIu32 "\n", s->cpu_count);
	if (s->owner_pid)
		fprintf(f, "  owner-pid %" PRIu32 "\n", s->owner_pid);
}

static void print_event(FILE *f, const char *what, const struct ioca_event_info *e)
{
	char b1[24], b2[24];

	fprintf(f, "  %s %" PRIu32 ": %s", what, e->index, ctl_print_kind(e->kind, b1, sizeof(b1)));
	if (e->type)
		fprintf(f, " type %" PRIu32, e->type);
	if (e->config)
		fprintf(f, " config 0x%" PRIx64, e->config);
	if (e->config1)
		fprintf(f, " config1 0x%" PRIx64, e->config1);
	if (e->effective_kind && e->effective_kind != e->kind)
		fprintf(f, " (counted as %s)", ctl_print_kind(e->effective_kind, b2, sizeof(b2)));
	fprintf(f, "\n");
}

static void print_sampler(FILE *f, const struct ioca_sampler_info *s)
{
	uint32_t i;

	fprintf(f, "sampler: %s\n",
		s->state <= IOCA_SAMPLER_STATE_RUNNING ? state_names[s->state] : "?");
	if (s->interval_us)
		fprintf(f, "  interval %" PRIu32 " us\n", s->interval_us);
	fprintf(f, "  cpus ");
	for (i = 0; i < s->ncpus; i++)
		fprintf(f, "%s%" PRIu32, i ? "," : "", s->cpus[i]);
	fprintf(f, "%s\n", s->ncpus ? "" : "-");
	for (i = 0; i < s->nevents; i++)
		print_event(f, "event", &s->events[i]);
	for (i = 0; i < s->nuncore; i++)
		print_event(f, "uncore", &s->uncore[i]);
	if (s->owner_pid)
		fprintf(f, "  owner-pid %" PRIu32 "\n", s->owner_pid);
	if (s->parts)
		fprintf(f, "  parts %" PRIu32 "\n", s->parts);
	fprintf(f,
		"  seq %" PRIu64 " intervals %" PRIu64 " no-listener %" PRIu64
		" send-errors %" PRIu64 "\n",
		s->seq, s->intervals, s->no_listener, s->send_errors);
	fprintf(f, "  collect-ns last %" PRIu64 " mean %" PRIu64 "\n", s->last_collect_ns,
		s->mean_collect_ns);
}

void ctl_print_info(FILE *f, const struct ioca_info *info)
{
	char buf[24];
	uint32_t i;

	fprintf(f, "backend: %s\n", info->backend_name[0] ? info->backend_name : "-");
	fprintf(f, "cpu: family %" PRIu32 " model 0x%" PRIx32 " (%s)\n", info->cpu_family,
		info->cpu_model, info->cpu_model_name[0] ? info->cpu_model_name : "-");
	fprintf(f, "ddio-verified: %s\n", info->ddio_verified ? "yes" : "no");
	fprintf(f, "locked-down: %s\n", info->locked_down ? "yes" : "no");
	fprintf(f, "min-ways: %" PRIu32 "\n", info->min_ways);
	for (i = 0; i < info->nsockets; i++) {
		print_socket(f, &info->sockets[i]);
		print_ddio_control(f, &info->ddio[i]);
	}
	for (i = 0; i < info->ndevices; i++)
		print_device(f, &info->devices[i]);
	if (info->hw_counters)
		fprintf(f, "counters: hardware\n");
	else
		fprintf(f, "counters: fallback to %s\n",
			ctl_print_kind(info->fallback_kind, buf, sizeof(buf)));
	if (info->has_sampler)
		print_sampler(f, &info->sampler);
}

static void print_counters(FILE *f, const struct ioca_counter *c, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		fprintf(f,
			" [%" PRIu32 "] %" PRIu64 " (enabled %" PRIu64 " running %" PRIu64 " ns)",
			c[i].index, c[i].value, c[i].enabled_ns, c[i].running_ns);
}

void ctl_print_sample(FILE *f, const struct ioca_sample *s)
{
	uint32_t i;

	fprintf(f,
		"seq %" PRIu64 " time-ns %" PRIu64 " realtime-ns %" PRIu64 " collect-ns %" PRIu64
		" interval-us %" PRIu32 "%s\n",
		s->seq, s->time_ns, s->realtime_ns, s->collect_ns, s->interval_us,
		s->on_demand ? " on-demand" : "");
	for (i = 0; i < s->ncpus; i++) {
		const struct ioca_cpu_sample *c = &s->cpus[i];

		fprintf(f, "cpu %" PRIu32 " socket %" PRIu32, c->id, c->socket);
		if (!c->online)
			fprintf(f, " offline");
		print_counters(f, c->counters, c->ncounters);
		/* Last, so lines keep starting "cpu N socket S [0]" for scripts. */
		if (c->generation)
			fprintf(f, " generation %" PRIu32, c->generation);
		fprintf(f, "\n");
	}
	for (i = 0; i < s->nsockets; i++) {
		fprintf(f, "uncore socket %" PRIu32, s->sockets[i].id);
		print_counters(f, s->sockets[i].counters, s->sockets[i].ncounters);
		fprintf(f, "\n");
	}
}

static void print_cpu_deltas(struct ctl_monitor *m, const struct ioca_cpu_sample *c)
{
	uint32_t id = c->id, i;

	fprintf(m->out, " | cpu%" PRIu32, id);
	if (!c->online) {
		fprintf(m->out, " offline");
		memset(m->prev_valid[id], 0, sizeof(m->prev_valid[id]));
		return;
	}
	/* Counters re-created after hotplug restart: no delta across them. */
	if (c->generation != m->prev_gen[id]) {
		memset(m->prev_valid[id], 0, sizeof(m->prev_valid[id]));
		m->prev_gen[id] = c->generation;
	}
	for (i = 0; i < c->ncounters; i++) {
		uint32_t k = c->counters[i].index;
		uint64_t v = c->counters[i].value;

		if (k >= IOCA_MAX_CPU_EVENTS)
			continue;
		if (m->prev_valid[id][k] && v >= m->prev[id][k])
			fprintf(m->out, " %" PRIu64, v - m->prev[id][k]);
		else
			fprintf(m->out, " -");
		m->prev[id][k] = v;
		m->prev_valid[id][k] = true;
	}
}

void ctl_print_monitor(struct ctl_monitor *m, const struct ioca_sample *s)
{
	uint32_t i;

	if (s->lost) {
		fprintf(m->out, "gap: %" PRIu64 " sample(s) lost (seq %" PRIu64 "..%" PRIu64 ")\n",
			s->lost, s->seq - s->lost, s->seq - 1);
		m->lost += s->lost;
	}
	fprintf(m->out, "seq %" PRIu64 " time %" PRIu64 ".%06" PRIu64 " collect-ns %" PRIu64,
		s->seq, s->time_ns / 1000000000u, s->time_ns % 1000000000u / 1000u, s->collect_ns);
	for (i = 0; i < s->ncpus; i++)
		if (s->cpus[i].id < IOCA_MAX_CPUS)
			print_cpu_deltas(m, &s->cpus[i]);
	fprintf(m->out, "\n");
	fflush(m->out);
	m->seen++;
}
