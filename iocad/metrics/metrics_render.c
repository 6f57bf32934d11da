// SPDX-License-Identifier: GPL-2.0
/*
 * Names follow Prometheus' conventions: the ioca_ prefix, base units
 * (seconds, bytes), _total on counters, and labels drawn from bounded sets
 * only (sockets, tenants of the config, FSM states and reasons, LLC ways).
 * A tenant's series carry socket and tenant only, the simulator's too:
 * what may change under a running tenant (its priority) is a label of
 * ioca_tenant_info alone, so a change starts no new counter series and
 * rate() runs through it; queries join the info metric where they need it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_device.h"
#include "metrics/metrics_render.h"

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Label values: only \, " and newline need escaping. */
static void label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n')
			fputs("\\n", f);
		else
			fputc(*v, f);
	}
}

/* The shortest of %.15g and %.17g that reads back as @v: 0.1, not 0.10000000000000001. */
static const char *shortest(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, len, "%.17g", v);
	return buf;
}

static void value(FILE *f, double v)
{
	char buf[32];

	if (isnan(v))
		fputs(" NaN\n", f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", f);
	else
		fprintf(f, " %s\n", shortest(v, buf, sizeof(buf)));
}

static void u64(FILE *f, uint64_t v)
{
	fprintf(f, " %" PRIu64 "\n", v);
}

/* name{socket="N"  -- the caller adds more labels and closes. */
static void open_sample(FILE *f, const char *name, const struct metrics_socket *s)
{
	fprintf(f, "%s{socket=\"%u\"", name, s->socket);
}

static void tenant_labels(FILE *f, const struct metrics_tenant *t)
{
	fputs(",tenant=\"", f);
	label_value(f, t->name);
	fputc('"', f);
}

/* A per-socket family: one sample per socket, read by @get. */
/* @latest: a figure of the latest interval, absent until one was recorded. */
static void per_socket_of(FILE *f, const struct metrics_snapshot *ss, const char *name,
			  const char *type, const char *help,
			  double (*get)(const struct metrics_socket *), bool latest)
{
	family(f, name, type, help);
	for (unsigned int i = 0; i < ss->nsockets; i++) {
		if (latest && !ss->sock[i].intervals_total)
			continue;
		open_sample(f, name, &ss->sock[i]);
		fputc('}', f);
		value(f, get(&ss->sock[i]));
	}
}

static void per_socket(FILE *f, const struct metrics_snapshot *ss, const char *name,
		       const char *type, const char *help,
		       double (*get)(const struct metrics_socket *))
{
	per_socket_of(f, ss, name, type, help, get, false);
}

#define GETTER(field)                                             \
	static double get_##field(const struct metrics_socket *s) \
	{                                                         \
		return (double)s->field;                          \
	}
GETTER(intervals_total)
GETTER(last_index)
GETTER(platform_time_s)
GETTER(llc_ways)
GETTER(ddio_ways)
GETTER(ddio_mask)
GETTER(ddio_hits_total)
GETTER(ddio_misses_total)
GETTER(lost_samples_total)
GETTER(apply_errors_total)
GETTER(ddio_outside_total)

static void interval_lag(FILE *f, const struct metrics_snapshot *ss)
{
	family(f, "ioca_interval_duration_seconds", "gauge",
	       "Length of the latest interval in platform time (from the previous one's end).");
	for (unsigned int i = 0; i < ss->nsockets; i++) {
		if (!ss->sock[i].have_duration)
			continue;
		open_sample(f, "ioca_interval_duration_seconds", &ss->sock[i]);
		fputc('}', f);
		value(f, ss->sock[i].interval_duration_s);
	}
	family(f, "ioca_interval_lag_seconds", "gauge",
	       "How much longer the latest interval was than interval_ms (late wake-ups, lost "
	       "samples).");
	for (unsigned int i = 0; i < ss->nsockets; i++) {
		const struct metrics_socket *s = &ss->sock[i];

		if (!s->have_duration)
			continue;
		open_sample(f, "ioca_interval_lag_seconds", s);
		fputc('}', f);
		value(f, s->interval_duration_s - (double)s->interval_ns / 1e9);
	}
}

static void fsm(FILE *f, const struct metrics_snapshot *ss)
{
	family(f, "ioca_fsm_state", "gauge",
	       "1 for the FSM state the socket is in after the latest interval, else 0.");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (int st = 0; st < FSM_NSTATES; st++) {
			open_sample(f, "ioca_fsm_state", &ss->sock[i]);
			fprintf(f, ",state=\"%s\"}", fsm_state_name(st));
			u64(f, ss->sock[i].state == (enum fsm_state_id)st);
		}
	family(f, "ioca_fsm_decisions_total", "counter",
	       "Intervals decided, by the decision's reason (decide_reason_name).");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int r = 0; r < METRICS_NREASONS; r++) {
			open_sample(f, "ioca_fsm_decisions_total", &ss->sock[i]);
			fprintf(f, ",reason=\"%s\"}", metrics_reason_name(r));
			u64(f, ss->sock[i].decisions[r]);
		}
	family(f, "ioca_fsm_transitions_total", "counter",
	       "FSM state changes, by from, to and the reason of the interval.");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (int a = 0; a < FSM_NSTATES; a++)
			for (int b = 0; b < FSM_NSTATES; b++)
				for (unsigned int r = 0; r < METRICS_NREASONS; r++) {
					uint64_t n = ss->sock[i].transitions[a][b][r];

					if (!n)
						continue;
					open_sample(f, "ioca_fsm_transitions_total", &ss->sock[i]);
					fprintf(f, ",from=\"%s\",to=\"%s\",reason=\"%s\"}",
						fsm_state_name(a), fsm_state_name(b),
						metrics_reason_name(r));
					u64(f, n);
				}
}

/* One sample per way set in @mask: the way map. */
static void way_samples(FILE *f, const char *name, const struct metrics_socket *s,
			const struct metrics_tenant *t, uint32_t mask)
{
	for (unsigned int w = 0; w < 32; w++) {
		if (!(mask & (1u << w)))
			continue;
		open_sample(f, name, s);
		if (t)
			tenant_labels(f, t);
		fprintf(f, ",way=\"%u\"}", w);
		u64(f, 1);
	}
}

static void ddio(FILE *f, const struct metrics_snapshot *ss)
{
	per_socket(f, ss, "ioca_ddio_llc_ways", "gauge", "LLC ways DDIO writes into.",
		   get_ddio_ways);
	per_socket(f, ss, "ioca_ddio_way_mask", "gauge", "DDIO's LLC way mask, as a number.",
		   get_ddio_mask);
	family(f, "ioca_ddio_llc_way", "gauge", "1 for each LLC way in DDIO's mask (the way map).");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		way_samples(f, "ioca_ddio_llc_way", &ss->sock[i], NULL, ss->sock[i].ddio_mask);
	per_socket(f, ss, "ioca_ddio_hits_total", "counter",
		   "DDIO write hits (write updates) on the socket.", get_ddio_hits_total);
	per_socket(f, ss, "ioca_ddio_misses_total", "counter",
		   "DDIO write misses (write allocates) on the socket.", get_ddio_misses_total);
	per_socket(f, ss, "ioca_ddio_outside_changes_total", "counter",
		   "Intervals in which DDIO's mask had been changed by someone else.",
		   get_ddio_outside_total);
}

typedef double (*tenant_get)(const struct metrics_tenant *);

static double t_ways(const struct metrics_tenant *t)
{
	return t->ways;
}
static double t_mask(const struct metrics_tenant *t)
{
	return t->mask;
}
static double t_ipc(const struct metrics_tenant *t)
{
	return t->ipc;
}
static double t_refs(const struct metrics_tenant *t)
{
	return (double)t->llc_refs_total;
}
static double t_misses(const struct metrics_tenant *t)
{
	return (double)t->llc_misses_total;
}

static void per_tenant(FILE *f, const struct metrics_snapshot *ss, const char *name,
		       const char *type, const char *help, tenant_get get)
{
	family(f, name, type, help);
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int k = 0; k < ss->sock[i].ntenants; k++) {
			const struct metrics_tenant *t = &ss->sock[i].tenant[k];

			if (!t->present)
				continue;
			open_sample(f, name, &ss->sock[i]);
			tenant_labels(f, t);
			fputc('}', f);
			value(f, get(t));
		}
}

static void tenant_info(FILE *f, const struct metrics_snapshot *ss)
{
	family(f, "ioca_tenant_info", "gauge",
	       "1 per tenant of the latest interval; its labels are the tenant's settings "
	       "(join on socket, tenant).");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int k = 0; k < ss->sock[i].ntenants; k++) {
			const struct metrics_tenant *t = &ss->sock[i].tenant[k];

			if (!t->present)
				continue;
			open_sample(f, "ioca_tenant_info", &ss->sock[i]);
			tenant_labels(f, t);
			fprintf(f, ",priority=\"%s\"}", t->prio == CONFIG_PRIO_PS ? "PS" : "BE");
			u64(f, 1);
		}
}

static void tenants(FILE *f, const struct metrics_snapshot *ss)
{
	tenant_info(f, ss);
	per_tenant(f, ss, "ioca_tenant_llc_ways", "gauge", "LLC ways in the tenant's CAT mask.",
		   t_ways);
	per_tenant(f, ss, "ioca_tenant_way_mask", "gauge",
		   "The tenant's CAT way mask, as a number.", t_mask);
	family(f, "ioca_tenant_llc_way", "gauge",
	       "1 for each LLC way in the tenant's CAT mask (the way map).");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int k = 0; k < ss->sock[i].ntenants; k++)
			if (ss->sock[i].tenant[k].present)
				way_samples(f, "ioca_tenant_llc_way", &ss->sock[i],
					    &ss->sock[i].tenant[k], ss->sock[i].tenant[k].mask);
	per_tenant(f, ss, "ioca_tenant_ipc", "gauge",
		   "The tenant's instructions per cycle in the latest interval.", t_ipc);
	per_tenant(f, ss, "ioca_tenant_llc_references_total", "counter",
		   "LLC references of the tenant's CPUs.", t_refs);
	per_tenant(f, ss, "ioca_tenant_llc_misses_total", "counter",
		   "LLC misses of the tenant's CPUs.", t_misses);
}

static double get_sim_mem(const struct metrics_socket *s)
{
	return s->sim_mem_bytes_s;
}

/* The simulator's figures: only when a socket runs on it. */
static void sim(FILE *f, const struct metrics_snapshot *ss)
{
	unsigned int i, any = 0;

	for (i = 0; i < ss->nsockets; i++)
		any |= ss->sock[i].sim;
	if (!any)
		return;
	family(f, "ioca_sim_memory_traffic_bytes_per_second", "gauge",
	       "Simulated DRAM traffic in the latest interval (64 B per LLC and DDIO miss).");
	for (i = 0; i < ss->nsockets; i++)
		if (ss->sock[i].sim) {
			open_sample(f, "ioca_sim_memory_traffic_bytes_per_second", &ss->sock[i]);
			fputc('}', f);
			value(f, get_sim_mem(&ss->sock[i]));
		}
	for (unsigned int g = 0; g < METRICS_NSIM; g++) {
		const struct metrics_sim_figure *fig = &metrics_sim_figures[g];

		family(f, fig->name, "gauge", fig->help);
		for (i = 0; i < ss->nsockets; i++)
			for (unsigned int k = 0; k < ss->sock[i].nsim; k++) {
				struct metrics_tenant t = {0};

				/* the host's tenant labels, so one query joins both */
				memcpy(t.name, ss->sock[i].sim_tenant[k].name, sizeof(t.name));
				open_sample(f, fig->name, &ss->sock[i]);
				tenant_labels(f, &t);
				fputc('}', f);
				value(f, ss->sock[i].sim_tenant[k].v[g]);
			}
	}
}

/* The label of a device's mode in force: iocad's word, "untouched" before it set one. */
static const char *const dev_modes[] = {
	[PLATFORM_DEV_DDIO_FOUND] = "untouched",
	[PLATFORM_DEV_DDIO_ON] = "on",
	[PLATFORM_DEV_DDIO_OFF] = "off",
	[PLATFORM_DEV_DDIO_FULL_OFF] = "full-off",
};

/* name{socket="N",device="ADDR",setting="S"  -- the caller closes. */
static void open_device(FILE *f, const char *name, const struct metrics_socket *s,
			const struct metrics_device *d)
{
	open_sample(f, name, s);
	fputs(",device=\"", f);
	label_value(f, d->addr);
	fprintf(f, "\",setting=\"%s\"", config_device_ddio_name(d->setting));
}

/* Per [device ADDR] (at most 16, the config's): its DDIO mode and whether it was refused. */
static void devices(FILE *f, const struct metrics_snapshot *ss)
{
	family(f, "ioca_device_ddio_mode", "gauge",
	       "1 for the DDIO mode iocad holds the device's root port in (as set; auto's current "
	       "decision; untouched: not set by iocad), else 0.");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int k = 0; k < ss->sock[i].ndev; k++)
			for (int m = 0; m < (int)(sizeof(dev_modes) / sizeof(dev_modes[0])); m++) {
				open_device(f, "ioca_device_ddio_mode", &ss->sock[i],
					    &ss->sock[i].dev[k]);
				fprintf(f, ",mode=\"%s\"}", dev_modes[m]);
				u64(f, ss->sock[i].dev[k].mode == m);
			}
	family(f, "ioca_device_ddio_refused", "gauge",
	       "1 when the platform refused the device's setting (left as it is), else 0.");
	for (unsigned int i = 0; i < ss->nsockets; i++)
		for (unsigned int k = 0; k < ss->sock[i].ndev; k++) {
			open_device(f, "ioca_device_ddio_refused", &ss->sock[i],
				    &ss->sock[i].dev[k]);
			fputc('}', f);
			u64(f, ss->sock[i].dev[k].refused);
		}
}

/* The loop's own state, not a socket's: whether it waits, and that it turns. */
static void status(FILE *f, const struct metrics_snapshot *s)
{
	if (!s->have_status)
		return;
	family(f, "ioca_waiting", "gauge",
	       "1 while iocad waits (for the sampler to start, for a sample): no interval is "
	       "decided, the allocation in force stays; the log and systemctl status say what "
	       "for.");
	fputs("ioca_waiting", f);
	value(f, s->waiting);
	family(f, "ioca_waiting_seconds", "gauge", "How long iocad has been waiting (0: not).");
	fputs("ioca_waiting_seconds", f);
	value(f, s->waiting_s);
	family(f, "ioca_cat_waiting", "gauge",
	       "1 while CAT waits, samples coming and DDIO managed: what=\"resctrl\" for resctrl "
	       "to be mounted again (iocad's groups are made again then), what=\"rdt_class\" for "
	       "a runtime's rdt_class group to be made (its tenant's mask is written then); the "
	       "log and systemctl status say which.");
	fprintf(f, "ioca_cat_waiting{what=\"resctrl\"}");
	u64(f, !!(s->cat_waits & PLATFORM_CAT_WAIT_RESCTRL));
	fprintf(f, "ioca_cat_waiting{what=\"rdt_class\"}");
	u64(f, !!(s->cat_waits & PLATFORM_CAT_WAIT_CLASS));
	family(f, "ioca_loop_turns_total", "counter",
	       "Turns of iocad's loop: an interval, or a poll without a sample (at least one a "
	       "second while it waits).");
	fputs("ioca_loop_turns_total", f);
	u64(f, s->loop_turns_total);
}

#ifndef IOCA_VERSION
#define IOCA_VERSION "unknown"
#endif

int metrics_render(const struct metrics_snapshot *s, FILE *f)
{
	family(f, "ioca_build_info", "gauge", "1, labelled with the version iocad was built from.");
	fputs("ioca_build_info{version=\"", f);
	label_value(f, IOCA_VERSION);
	fputs("\"} 1\n", f);
	per_socket(f, s, "ioca_intervals_total", "counter", "Intervals iocad has decided.",
		   get_intervals_total);
	/*
	 * Before the first interval there is no latest one: a scrape then
	 * must not claim row 0 of the trace, whose tenants are not yet known.
	 */
	per_socket_of(f, s, "ioca_interval_index", "gauge",
		      "Index of the latest interval (the trace's interval column).", get_last_index,
		      true);
	per_socket_of(f, s, "ioca_platform_time_seconds", "gauge",
		      "Platform time at the end of the latest interval (the trace's t_s).",
		      get_platform_time_s, true);
	interval_lag(f, s);
	per_socket(f, s, "ioca_lost_samples_total", "counter",
		   "Counter samples lost between polls (they lengthen an interval).",
		   get_lost_samples_total);
	per_socket(f, s, "ioca_apply_errors_total", "counter",
		   "Plans the platform refused (the allocation before stays in force).",
		   get_apply_errors_total);
	fsm(f, s);
	per_socket(f, s, "ioca_llc_ways", "gauge", "Ways of the socket's LLC.", get_llc_ways);
	ddio(f, s);
	devices(f, s);
	tenants(f, s);
	sim(f, s);
	status(f, s);
	return fflush(f) || ferror(f) ? -EIO : 0;
}
