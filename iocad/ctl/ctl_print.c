// SPDX-License-Identifier: GPL-2.0
/*
 * Every attribute is checked before use: an older or newer module may
 * leave some out, and a missing one prints as "-" rather than as 0.
 */
#include "ctl_print.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

static const char *const kind_names[] = {
	[IOCA_EVENT_KIND_INSTRUCTIONS] = "instructions",
	[IOCA_EVENT_KIND_CYCLES] = "cycles",
	[IOCA_EVENT_KIND_LLC_REFERENCES] = "llc-references",
	[IOCA_EVENT_KIND_LLC_MISSES] = "llc-misses",
	[IOCA_EVENT_KIND_RAW] = "raw",
	[IOCA_EVENT_KIND_CPU_CLOCK] = "cpu-clock",
	[IOCA_EVENT_KIND_TASK_CLOCK] = "task-clock",
};

static const char *const state_names[] = {
	[IOCA_SAMPLER_STATE_UNCONFIGURED] = "unconfigured",
	[IOCA_SAMPLER_STATE_CONFIGURED] = "configured",
	[IOCA_SAMPLER_STATE_RUNNING] = "running",
};

const char *ctl_print_kind(uint32_t kind, char *buf, size_t len)
{
	if (kind < sizeof(kind_names) / sizeof(kind_names[0]) && kind_names[kind])
		return kind_names[kind];
	snprintf(buf, len, "kind-%" PRIu32, kind);
	return buf;
}

static void put_u32(FILE *f, const char *key, const struct nlattr *a, bool hex)
{
	const char *sep = *key ? " " : "";

	if (!a)
		fprintf(f, "%s%s-", key, sep);
	else if (hex)
		fprintf(f, "%s%s0x%" PRIx32, key, sep, nla_get_u32(a));
	else
		fprintf(f, "%s%s%" PRIu32, key, sep, nla_get_u32(a));
}

static uint64_t u64_or(const struct nlattr *a, uint64_t dflt)
{
	return a ? nla_get_u64(a) : dflt;
}

static void print_socket(FILE *f, const struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_SOCKET_MAX + 1];

	if (nla_parse_nested(tb, IOCA_A_SOCKET_MAX, (struct nlattr *)nest, NULL))
		return;
	fprintf(f, "socket ");
	put_u32(f, "", tb[IOCA_A_SOCKET_ID], false);
	fprintf(f, ":\n  ");
	put_u32(f, "llc-ways", tb[IOCA_A_SOCKET_LLC_WAYS], false);
	fprintf(f, "\n  ");
	put_u32(f, "ddio-mask", tb[IOCA_A_SOCKET_DDIO_MASK], true);
	put_u32(f, " ways", tb[IOCA_A_SOCKET_DDIO_WAYS], false);
	fprintf(f, "\n  ");
	put_u32(f, "boot-mask", tb[IOCA_A_SOCKET_DDIO_BOOT_MASK], true);
	fprintf(f, "\n  ");
	put_u32(f, "valid-mask", tb[IOCA_A_SOCKET_DDIO_VALID_MASK], true);
	fprintf(f, "\n  ");
	put_u32(f, "cpus", tb[IOCA_A_SOCKET_CPU_COUNT], false);
	fprintf(f, "\n");
}

static void print_event(FILE *f, const char *what, const struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_EVENT_MAX + 1];
	char b1[24], b2[24];

	if (nla_parse_nested(tb, IOCA_A_EVENT_MAX, (struct nlattr *)nest, NULL))
		return;
	fprintf(f, "  %s ", what);
	put_u32(f, "", tb[IOCA_A_EVENT_INDEX], false);
	fprintf(f, ": %s",
		tb[IOCA_A_EVENT_KIND]
			? ctl_print_kind(nla_get_u32(tb[IOCA_A_EVENT_KIND]), b1, sizeof(b1))
			: "-");
	if (tb[IOCA_A_EVENT_TYPE])
		fprintf(f, " type %" PRIu32, nla_get_u32(tb[IOCA_A_EVENT_TYPE]));
	if (tb[IOCA_A_EVENT_CONFIG])
		fprintf(f, " config 0x%" PRIx64, nla_get_u64(tb[IOCA_A_EVENT_CONFIG]));
	if (tb[IOCA_A_EVENT_CONFIG1])
		fprintf(f, " config1 0x%" PRIx64, nla_get_u64(tb[IOCA_A_EVENT_CONFIG1]));
	if (tb[IOCA_A_EVENT_EFFECTIVE_KIND])
		fprintf(f, " (counted as %s)",
			ctl_print_kind(nla_get_u32(tb[IOCA_A_EVENT_EFFECTIVE_KIND]), b2,
				       sizeof(b2)));
	fprintf(f, "\n");
}

static void print_sampler(FILE *f, const struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_SAMPLER_MAX + 1];
	struct nlattr *a;
	uint32_t st;
	int rem;
	const char *sep = "";

	if (nla_parse_nested(tb, IOCA_A_SAMPLER_MAX, (struct nlattr *)nest, NULL))
		return;
	st = tb[IOCA_A_SAMPLER_STATE] ? nla_get_u32(tb[IOCA_A_SAMPLER_STATE]) : UINT32_MAX;
	fprintf(f, "sampler: %s\n", st <= IOCA_SAMPLER_STATE_RUNNING ? state_names[st] : "?");
	if (tb[IOCA_A_SAMPLER_INTERVAL_US])
		fprintf(f, "  interval %" PRIu32 " us\n",
			nla_get_u32(tb[IOCA_A_SAMPLER_INTERVAL_US]));
	fprintf(f, "  cpus ");
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_SAMPLER_CPU) {
			fprintf(f, "%s%" PRIu32, sep, nla_get_u32(a));
			sep = ",";
		}
	}
	fprintf(f, "%s\n", sep[0] ? "" : "-");
	nla_for_each_nested(a, nest, rem)
	{
		if (nla_type(a) == IOCA_A_SAMPLER_EVENT)
			print_event(f, "event", a);
		else if (nla_type(a) == IOCA_A_SAMPLER_UNCORE_EVENT)
			print_event(f, "uncore", a);
	}
	fprintf(f,
		"  seq %" PRIu64 " intervals %" PRIu64 " no-listener %" PRIu64
		" send-errors %" PRIu64 "\n",
		u64_or(tb[IOCA_A_SAMPLER_SEQ], 0), u64_or(tb[IOCA_A_SAMPLER_INTERVALS], 0),
		u64_or(tb[IOCA_A_SAMPLER_NO_LISTENER], 0),
		u64_or(tb[IOCA_A_SAMPLER_SEND_ERRORS], 0));
	fprintf(f, "  collect-ns last %" PRIu64 " mean %" PRIu64 "\n",
		u64_or(tb[IOCA_A_SAMPLER_LAST_COLLECT_NS], 0),
		u64_or(tb[IOCA_A_SAMPLER_MEAN_COLLECT_NS], 0));
}

int ctl_print_info(struct nlmsghdr *nlh, void *arg)
{
	FILE *f = arg;
	struct nlattr *tb[IOCA_A_INFO_MAX + 1];
	struct nlattr *a;
	char buf[24];
	int rem;

	if (genlmsg_parse(nlh, 0, tb, IOCA_A_INFO_MAX, NULL))
		return -EBADMSG;
	fprintf(f, "backend: %s\n",
		tb[IOCA_A_INFO_BACKEND_NAME] ? nla_get_string(tb[IOCA_A_INFO_BACKEND_NAME]) : "-");
	fprintf(f, "cpu: ");
	put_u32(f, "family", tb[IOCA_A_INFO_CPU_FAMILY], false);
	put_u32(f, " model", tb[IOCA_A_INFO_CPU_MODEL], true);
	fprintf(f, " (%s)\n",
		tb[IOCA_A_INFO_CPU_MODEL_NAME] ? nla_get_string(tb[IOCA_A_INFO_CPU_MODEL_NAME])
					       : "-");
	fprintf(f, "ddio-verified: %s\n",
		tb[IOCA_A_INFO_DDIO_VERIFIED] && nla_get_u8(tb[IOCA_A_INFO_DDIO_VERIFIED]) ? "yes"
											   : "no");
	fprintf(f, "locked-down: %s\n",
		tb[IOCA_A_INFO_LOCKED_DOWN] && nla_get_u8(tb[IOCA_A_INFO_LOCKED_DOWN]) ? "yes"
										       : "no");
	put_u32(f, "min-ways:", tb[IOCA_A_INFO_MIN_WAYS], false);
	fprintf(f, "\n");
	nla_for_each_attr(a, genlmsg_attrdata(genlmsg_hdr(nlh), 0),
			  genlmsg_attrlen(genlmsg_hdr(nlh), 0), rem)
	{
		if (nla_type(a) == IOCA_A_INFO_SOCKET)
			print_socket(f, a);
	}
	if (tb[IOCA_A_INFO_HW_COUNTERS] && nla_get_u8(tb[IOCA_A_INFO_HW_COUNTERS]))
		fprintf(f, "counters: hardware\n");
	else
		fprintf(f, "counters: fallback to %s\n",
			tb[IOCA_A_INFO_FALLBACK_KIND]
				? ctl_print_kind(nla_get_u32(tb[IOCA_A_INFO_FALLBACK_KIND]), buf,
						 sizeof(buf))
				: "-");
	if (tb[IOCA_A_INFO_SAMPLER])
		print_sampler(f, tb[IOCA_A_INFO_SAMPLER]);
	return 0;
}

/* Calls @fn for each counter nest of type @type inside @nest. */
static void for_each_counter(const struct nlattr *nest, int type,
			     void (*fn)(const struct nlattr **tb, void *ctx), void *ctx)
{
	struct nlattr *a, *tb[IOCA_A_COUNTER_MAX + 1];
	int rem;

	nla_for_each_nested(a, (struct nlattr *)nest, rem)
	{
		if (nla_type(a) != type || nla_parse_nested(tb, IOCA_A_COUNTER_MAX, a, NULL))
			continue;
		if (tb[IOCA_A_COUNTER_INDEX] && tb[IOCA_A_COUNTER_VALUE])
			fn((const struct nlattr **)tb, ctx);
	}
}

static void print_counter(const struct nlattr **tb, void *ctx)
{
	fprintf(ctx, " [%" PRIu32 "] %" PRIu64 " (enabled %" PRIu64 " running %" PRIu64 " ns)",
		nla_get_u32(tb[IOCA_A_COUNTER_INDEX]), nla_get_u64(tb[IOCA_A_COUNTER_VALUE]),
		u64_or(tb[IOCA_A_COUNTER_ENABLED_NS], 0), u64_or(tb[IOCA_A_COUNTER_RUNNING_NS], 0));
}

static int parse_sample(struct nlmsghdr *nlh, struct nlattr **tb)
{
	if (genlmsg_parse(nlh, 0, tb, IOCA_A_SAMPLE_MAX, NULL) || !tb[IOCA_A_SAMPLE_SEQ] ||
	    !tb[IOCA_A_SAMPLE_TIME_NS])
		return -EBADMSG;
	return 0;
}

#define for_each_sample_attr(a, nlh, rem)                           \
	nla_for_each_attr(a, genlmsg_attrdata(genlmsg_hdr(nlh), 0), \
			  genlmsg_attrlen(genlmsg_hdr(nlh), 0), rem)

int ctl_print_sample(struct nlmsghdr *nlh, void *arg)
{
	FILE *f = arg;
	struct nlattr *tb[IOCA_A_SAMPLE_MAX + 1], *ct[IOCA_A_CPU_MAX + 1], *a;
	int rem;

	if (parse_sample(nlh, tb))
		return -EBADMSG;
	fprintf(f,
		"seq %" PRIu64 " time-ns %" PRIu64 " realtime-ns %" PRIu64 " collect-ns %" PRIu64
		" interval-us %" PRIu32 "%s\n",
		nla_get_u64(tb[IOCA_A_SAMPLE_SEQ]), nla_get_u64(tb[IOCA_A_SAMPLE_TIME_NS]),
		u64_or(tb[IOCA_A_SAMPLE_REALTIME_NS], 0), u64_or(tb[IOCA_A_SAMPLE_COLLECT_NS], 0),
		tb[IOCA_A_SAMPLE_INTERVAL_US] ? nla_get_u32(tb[IOCA_A_SAMPLE_INTERVAL_US]) : 0,
		tb[IOCA_A_SAMPLE_ON_DEMAND] ? " on-demand" : "");
	for_each_sample_attr(a, nlh, rem)
	{
		if (nla_type(a) == IOCA_A_SAMPLE_CPU) {
			if (nla_parse_nested(ct, IOCA_A_CPU_MAX, a, NULL) || !ct[IOCA_A_CPU_ID])
				return -EBADMSG;
			fprintf(f, "cpu %" PRIu32, nla_get_u32(ct[IOCA_A_CPU_ID]));
			put_u32(f, " socket", ct[IOCA_A_CPU_SOCKET], false);
			if (ct[IOCA_A_CPU_ONLINE] && !nla_get_u8(ct[IOCA_A_CPU_ONLINE]))
				fprintf(f, " offline");
			for_each_counter(a, IOCA_A_CPU_COUNTER, print_counter, f);
			fprintf(f, "\n");
		} else if (nla_type(a) == IOCA_A_SAMPLE_SOCKET) {
			struct nlattr *st[IOCA_A_SOCKET_MAX + 1];

			if (nla_parse_nested(st, IOCA_A_SOCKET_MAX, a, NULL))
				return -EBADMSG;
			put_u32(f, "uncore socket", st[IOCA_A_SOCKET_ID], false);
			for_each_counter(a, IOCA_A_SOCKET_COUNTER, print_counter, f);
			fprintf(f, "\n");
		}
	}
	return 0;
}

struct delta_ctx {
	struct ctl_monitor *m;
	uint32_t cpu;
};

static void print_delta(const struct nlattr **tb, void *arg)
{
	struct delta_ctx *d = arg;
	struct ctl_monitor *m = d->m;
	uint32_t i = nla_get_u32(tb[IOCA_A_COUNTER_INDEX]);
	uint64_t v = nla_get_u64(tb[IOCA_A_COUNTER_VALUE]);

	if (i >= IOCA_MAX_CPU_EVENTS)
		return;
	/* A counter re-created after hotplug restarts at zero: no delta. */
	if (m->prev_valid[d->cpu][i] && v >= m->prev[d->cpu][i])
		fprintf(m->out, " %" PRIu64, v - m->prev[d->cpu][i]);
	else
		fprintf(m->out, " -");
	m->prev[d->cpu][i] = v;
	m->prev_valid[d->cpu][i] = true;
}

static void print_gap(struct ctl_monitor *m, uint64_t seq)
{
	if (!m->have_prev || seq == m->prev_seq + 1)
		return;
	if (seq > m->prev_seq + 1) {
		fprintf(m->out, "gap: %" PRIu64 " message(s) lost (seq %" PRIu64 "..%" PRIu64 ")\n",
			seq - m->prev_seq - 1, m->prev_seq + 1, seq - 1);
		m->lost += seq - m->prev_seq - 1;
	} else {
		fprintf(m->out, "gap: seq went from %" PRIu64 " back to %" PRIu64 "\n", m->prev_seq,
			seq);
	}
}

int ctl_print_monitor(struct nlmsghdr *nlh, void *arg)
{
	struct ctl_monitor *m = arg;
	struct nlattr *tb[IOCA_A_SAMPLE_MAX + 1], *ct[IOCA_A_CPU_MAX + 1], *a;
	struct delta_ctx d = {.m = m};
	uint64_t seq, t;
	int rem;

	if (genlmsg_hdr(nlh)->cmd != IOCA_CMD_SAMPLE_NTF)
		return 0;
	if (parse_sample(nlh, tb))
		return -EBADMSG;
	seq = nla_get_u64(tb[IOCA_A_SAMPLE_SEQ]);
	t = nla_get_u64(tb[IOCA_A_SAMPLE_TIME_NS]);
	print_gap(m, seq);
	fprintf(m->out, "seq %" PRIu64 " time %" PRIu64 ".%06" PRIu64 " collect-ns %" PRIu64, seq,
		t / 1000000000u, t % 1000000000u / 1000u, u64_or(tb[IOCA_A_SAMPLE_COLLECT_NS], 0));
	for_each_sample_attr(a, nlh, rem)
	{
		if (nla_type(a) != IOCA_A_SAMPLE_CPU)
			continue;
		if (nla_parse_nested(ct, IOCA_A_CPU_MAX, a, NULL) || !ct[IOCA_A_CPU_ID])
			return -EBADMSG;
		d.cpu = nla_get_u32(ct[IOCA_A_CPU_ID]);
		if (d.cpu >= IOCA_MAX_CPUS)
			continue;
		fprintf(m->out, " | cpu%" PRIu32, d.cpu);
		if (ct[IOCA_A_CPU_ONLINE] && !nla_get_u8(ct[IOCA_A_CPU_ONLINE])) {
			fprintf(m->out, " offline");
			memset(m->prev_valid[d.cpu], 0, sizeof(m->prev_valid[d.cpu]));
			continue;
		}
		for_each_counter(a, IOCA_A_CPU_COUNTER, print_delta, &d);
	}
	fprintf(m->out, "\n");
	fflush(m->out);
	m->have_prev = true;
	m->prev_seq = seq;
	m->prev_time_ns = t;
	m->seen++;
	return 0;
}
