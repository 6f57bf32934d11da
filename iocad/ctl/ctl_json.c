// SPDX-License-Identifier: GPL-2.0
/*
 * Strings from the kernel (backend and CPU model names) are escaped; every
 * other value is a number or a boolean, so no general encoder is needed.
 */
#include "ctl_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <linux/ioca.h>
#include <netlink/attr.h>
#include <netlink/genl/genl.h>

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

/* Writes ,"key":value for each attribute present; @first tracks the comma. */
static void key(FILE *f, bool *first, const char *k)
{
	fprintf(f, "%s\"%s\":", *first ? "" : ",", k);
	*first = false;
}

static void u32_field(FILE *f, bool *first, const char *k, const struct nlattr *a)
{
	if (a) {
		key(f, first, k);
		fprintf(f, "%" PRIu32, nla_get_u32(a));
	}
}

static void u64_field(FILE *f, bool *first, const char *k, const struct nlattr *a)
{
	if (a) {
		key(f, first, k);
		fprintf(f, "%" PRIu64, nla_get_u64(a));
	}
}

static void bool_field(FILE *f, bool *first, const char *k, const struct nlattr *a)
{
	if (a) {
		key(f, first, k);
		fprintf(f, "%s", nla_get_u8(a) ? "true" : "false");
	}
}

static void kind_field(FILE *f, bool *first, const char *k, const struct nlattr *a)
{
	char buf[24];

	if (a) {
		key(f, first, k);
		put_str(f, ctl_print_kind(nla_get_u32(a), buf, sizeof(buf)));
	}
}

static void socket_obj(FILE *f, struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_SOCKET_MAX + 1];
	bool first = true;

	if (nla_parse_nested(tb, IOCA_A_SOCKET_MAX, nest, NULL))
		return;
	fputc('{', f);
	u32_field(f, &first, "id", tb[IOCA_A_SOCKET_ID]);
	u32_field(f, &first, "llc_ways", tb[IOCA_A_SOCKET_LLC_WAYS]);
	u32_field(f, &first, "ddio_mask", tb[IOCA_A_SOCKET_DDIO_MASK]);
	u32_field(f, &first, "ddio_ways", tb[IOCA_A_SOCKET_DDIO_WAYS]);
	u32_field(f, &first, "boot_mask", tb[IOCA_A_SOCKET_DDIO_BOOT_MASK]);
	u32_field(f, &first, "valid_mask", tb[IOCA_A_SOCKET_DDIO_VALID_MASK]);
	u32_field(f, &first, "cpus", tb[IOCA_A_SOCKET_CPU_COUNT]);
	fputc('}', f);
}

static void event_obj(FILE *f, struct nlattr *nest)
{
	struct nlattr *tb[IOCA_A_EVENT_MAX + 1];
	bool first = true;

	if (nla_parse_nested(tb, IOCA_A_EVENT_MAX, nest, NULL))
		return;
	fputc('{', f);
	u32_field(f, &first, "index", tb[IOCA_A_EVENT_INDEX]);
	kind_field(f, &first, "kind", tb[IOCA_A_EVENT_KIND]);
	u32_field(f, &first, "type", tb[IOCA_A_EVENT_TYPE]);
	u64_field(f, &first, "config", tb[IOCA_A_EVENT_CONFIG]);
	u64_field(f, &first, "config1", tb[IOCA_A_EVENT_CONFIG1]);
	kind_field(f, &first, "effective_kind", tb[IOCA_A_EVENT_EFFECTIVE_KIND]);
	fputc('}', f);
}

/*
 * A JSON array of the @type attributes in @head..@len, each written by @fn
 * (a u32 when @fn is NULL).
 */
static void array(FILE *f, bool *first, const char *k, struct nlattr *head, int len, int type,
		  void (*fn)(FILE *, struct nlattr *))
{
	struct nlattr *a;
	const char *sep = "";
	int rem;

	key(f, first, k);
	fputc('[', f);
	nla_for_each_attr(a, head, len, rem)
	{
		if (nla_type(a) != type)
			continue;
		fputs(sep, f);
		sep = ",";
		if (fn)
			fn(f, a);
		else
			fprintf(f, "%" PRIu32, nla_get_u32(a));
	}
	fputc(']', f);
}

static void sampler_obj(FILE *f, struct nlattr *nest)
{
	static const char *const states[] = {"unconfigured", "configured", "running"};
	struct nlattr *tb[IOCA_A_SAMPLER_MAX + 1];
	bool first = true;
	uint32_t st;

	if (nla_parse_nested(tb, IOCA_A_SAMPLER_MAX, nest, NULL))
		return;
	fputc('{', f);
	if (tb[IOCA_A_SAMPLER_STATE]) {
		st = nla_get_u32(tb[IOCA_A_SAMPLER_STATE]);
		key(f, &first, "state");
		put_str(f, st < 3 ? states[st] : "unknown");
	}
	u32_field(f, &first, "interval_us", tb[IOCA_A_SAMPLER_INTERVAL_US]);
	array(f, &first, "cpus", nla_data(nest), nla_len(nest), IOCA_A_SAMPLER_CPU, NULL);
	array(f, &first, "events", nla_data(nest), nla_len(nest), IOCA_A_SAMPLER_EVENT, event_obj);
	array(f, &first, "uncore_events", nla_data(nest), nla_len(nest),
	      IOCA_A_SAMPLER_UNCORE_EVENT, event_obj);
	u64_field(f, &first, "seq", tb[IOCA_A_SAMPLER_SEQ]);
	u64_field(f, &first, "intervals", tb[IOCA_A_SAMPLER_INTERVALS]);
	u64_field(f, &first, "no_listener", tb[IOCA_A_SAMPLER_NO_LISTENER]);
	u64_field(f, &first, "send_errors", tb[IOCA_A_SAMPLER_SEND_ERRORS]);
	u64_field(f, &first, "last_collect_ns", tb[IOCA_A_SAMPLER_LAST_COLLECT_NS]);
	u64_field(f, &first, "mean_collect_ns", tb[IOCA_A_SAMPLER_MEAN_COLLECT_NS]);
	fputc('}', f);
}

int ctl_json_info(struct nlmsghdr *nlh, void *arg)
{
	FILE *f = arg;
	struct nlattr *tb[IOCA_A_INFO_MAX + 1];
	struct genlmsghdr *g = genlmsg_hdr(nlh);
	bool first = true;

	if (genlmsg_parse(nlh, 0, tb, IOCA_A_INFO_MAX, NULL))
		return -EBADMSG;
	fputc('{', f);
	if (tb[IOCA_A_INFO_BACKEND_NAME]) {
		key(f, &first, "backend");
		put_str(f, nla_get_string(tb[IOCA_A_INFO_BACKEND_NAME]));
	}
	u32_field(f, &first, "cpu_family", tb[IOCA_A_INFO_CPU_FAMILY]);
	u32_field(f, &first, "cpu_model", tb[IOCA_A_INFO_CPU_MODEL]);
	if (tb[IOCA_A_INFO_CPU_MODEL_NAME]) {
		key(f, &first, "cpu_model_name");
		put_str(f, nla_get_string(tb[IOCA_A_INFO_CPU_MODEL_NAME]));
	}
	bool_field(f, &first, "ddio_verified", tb[IOCA_A_INFO_DDIO_VERIFIED]);
	bool_field(f, &first, "locked_down", tb[IOCA_A_INFO_LOCKED_DOWN]);
	u32_field(f, &first, "min_ways", tb[IOCA_A_INFO_MIN_WAYS]);
	array(f, &first, "sockets", genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0),
	      IOCA_A_INFO_SOCKET, socket_obj);
	bool_field(f, &first, "hw_counters", tb[IOCA_A_INFO_HW_COUNTERS]);
	kind_field(f, &first, "fallback_kind", tb[IOCA_A_INFO_FALLBACK_KIND]);
	if (tb[IOCA_A_INFO_SAMPLER]) {
		key(f, &first, "sampler");
		sampler_obj(f, tb[IOCA_A_INFO_SAMPLER]);
	}
	fputs("}\n", f);
	return 0;
}
