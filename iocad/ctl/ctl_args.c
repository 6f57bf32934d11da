// SPDX-License-Identifier: GPL-2.0
#include "ctl_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_value.h"

static int fail(char *why, size_t len, const char *msg)
{
	snprintf(why, len, "%s", msg);
	return -EINVAL;
}

/* The number at *@p up to a ':' or the end; *@p then points past it. */
static int field_u64(const char **p, uint64_t max, uint64_t *out, char *why, size_t len)
{
	const char *colon = strchr(*p, ':');
	size_t n = colon ? (size_t)(colon - *p) : strlen(*p);
	char buf[32];

	if (n >= sizeof(buf))
		return fail(why, len, "number out of range");
	memcpy(buf, *p, n);
	buf[n] = '\0';
	if (config_value_u64(buf, max, out, why, len))
		return -EINVAL;
	*p += n;
	return 0;
}

int ctl_args_interval(const char *s, uint32_t *us, char *why, size_t len)
{
	uint64_t ns;

	if (config_value_duration(s, &ns, why, len))
		return -EINVAL;
	if (ns % 1000)
		return fail(why, len, "the module counts whole microseconds");
	if (ns / 1000 > UINT32_MAX)
		return fail(why, len, "duration out of range");
	*us = (uint32_t)(ns / 1000);
	return 0;
}

static int raw_fields(const char *p, struct ioca_event *e, char *why, size_t len)
{
	uint64_t type;
	int err;

	e->kind = IOCA_EVENT_KIND_RAW;
	err = field_u64(&p, UINT32_MAX, &type, why, len);
	if (err)
		return err;
	e->type = (uint32_t)type;
	e->has_type = true;
	if (*p != ':')
		return fail(why, len, "expected TYPE:CONFIG[:CONFIG1]");
	p++;
	err = field_u64(&p, UINT64_MAX, &e->config, why, len);
	if (err)
		return err;
	if (*p == ':') {
		p++;
		err = field_u64(&p, UINT64_MAX, &e->config1, why, len);
		if (err)
			return err;
	}
	if (*p)
		return fail(why, len, "expected TYPE:CONFIG[:CONFIG1]");
	return 0;
}

int ctl_args_event(const char *s, struct ioca_event *e, char *why, size_t len)
{
	static const struct {
		const char *name;
		uint32_t kind;
	} names[] = {
		{"instructions", IOCA_EVENT_KIND_INSTRUCTIONS},
		{"cycles", IOCA_EVENT_KIND_CYCLES},
		{"llc-references", IOCA_EVENT_KIND_LLC_REFERENCES},
		{"llc-misses", IOCA_EVENT_KIND_LLC_MISSES},
		{"cpu-clock", IOCA_EVENT_KIND_CPU_CLOCK},
		{"task-clock", IOCA_EVENT_KIND_TASK_CLOCK},
	};
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!strncmp(s, "raw:", 4))
		return raw_fields(s + 4, e, why, len);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i].name)) {
			e->kind = names[i].kind;
			return 0;
		}
	}
	return fail(why, len,
		    "unknown event (instructions, cycles, llc-references, llc-misses, cpu-clock, "
		    "task-clock or raw:TYPE:CONFIG[:CONFIG1])");
}

int ctl_args_uncore(const char *s, struct ioca_event *e, char *why, size_t len)
{
	memset(e, 0, sizeof(*e));
	return raw_fields(s, e, why, len);
}
