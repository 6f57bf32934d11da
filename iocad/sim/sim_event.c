// SPDX-License-Identifier: GPL-2.0
#include "sim_event.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config_value.h"
#include "sim_keys.h"

#define MAX_WORDS (SCENARIO_MAX_SETS + 8)

struct out {
	char *msg;
	size_t len;
};

static int say(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->msg, o->len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int tenant(struct out *o, struct scenario_event *ev, const char *name)
{
	if (!name)
		return say(o, "event lacks its tenant name");
	if (!sim_keys_valid_name(name))
		return say(o, "bad tenant name '%s'", name);
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	return 0;
}

static int sets(struct out *o, struct scenario_event *ev, char **tok, int ntok, int group)
{
	int i;

	if (!ntok)
		return say(o, "event changes nothing (expected key=value after the tenant)");
	if (ntok > SCENARIO_MAX_SETS)
		return say(o, "more than %d changes in one event", SCENARIO_MAX_SETS);
	for (i = 0; i < ntok; i++) {
		char *eq = strchr(tok[i], '=');

		if (!eq || eq == tok[i] || !eq[1])
			return say(o, "'%s' is not key=value", tok[i]);
		*eq = '\0';
		if (sim_keys_tenant(tok[i], eq + 1, group, &ev->set[ev->nset++], o->msg, o->len))
			return -EINVAL;
	}
	return 0;
}

/* Split on blanks in place; -1 if there are more than @max words. */
static int words(char *w, char **tok, int max)
{
	int n = 0;

	while (*w) {
		while (*w == ' ' || *w == '\t')
			*w++ = '\0';
		if (!*w)
			break;
		if (n == max)
			return -1;
		tok[n++] = w;
		while (*w && *w != ' ' && *w != '\t')
			w++;
	}
	return n;
}

static int verb(struct out *o, struct scenario_event *ev, char **tok, int ntok)
{
	const char *v = tok[2];

	if (!strcmp(v, "set") || !strcmp(v, "traffic") || !strcmp(v, "workload")) {
		int group = v[0] == 't' ? SIM_KEYS_TRAFFIC : v[0] == 'w' ? SIM_KEYS_WORKLOAD : 0;

		ev->kind = SCN_EV_SET;
		if (tenant(o, ev, ntok > 3 ? tok[3] : NULL))
			return -EINVAL;
		return sets(o, ev, tok + 4, ntok > 4 ? ntok - 4 : 0, group);
	}
	if (!strcmp(v, "flows")) {
		char kv[64];
		char *one = kv;

		ev->kind = SCN_EV_SET;
		if (ntok != 5)
			return say(o, "expected 'at TIME flows TENANT COUNT'");
		snprintf(kv, sizeof(kv), "flows=%s", tok[4]);
		if (tenant(o, ev, tok[3]))
			return -EINVAL;
		return sets(o, ev, &one, 1, 0);
	}
	if (!strcmp(v, "join") || !strcmp(v, "leave")) {
		ev->kind = v[0] == 'j' ? SCN_EV_JOIN : SCN_EV_LEAVE;
		if (ntok != 4)
			return say(o, "expected 'at TIME %s TENANT'", v);
		return tenant(o, ev, tok[3]);
	}
	if (!strcmp(v, "ddio")) {
		char why[80];
		uint64_t mask;

		ev->kind = SCN_EV_DDIO;
		if ((ntok != 4 && ntok != 6) ||
		    config_value_u64(tok[3], UINT32_MAX, &mask, why, sizeof(why)))
			return say(
				o,
				"expected 'at TIME ddio MASK [socket N]' with a mask like 0x780");
		ev->mask = (uint32_t)mask;
		if (ntok == 6 && (strcmp(tok[4], "socket") ||
				  config_value_uint(tok[5], 0, PLATFORM_MAX_SOCKETS - 1,
						    &ev->socket, why, sizeof(why))))
			return say(o, "ddio: expected 'socket N' after the mask, N < %d",
				   PLATFORM_MAX_SOCKETS);
		return 0;
	}
	if (!strcmp(v, "reload")) {
		ev->kind = SCN_EV_RELOAD;
		if (ntok != 4)
			return say(o, "expected 'at TIME reload CONFIG'");
		if (strlen(tok[3]) >= sizeof(ev->path))
			return say(o, "reload: config path longer than %zu characters",
				   sizeof(ev->path) - 1);
		snprintf(ev->path, sizeof(ev->path), "%s", tok[3]);
		return 0;
	}
	return say(o,
		   "unknown event '%s' (expected set, traffic, workload, flows, join, leave, "
		   "ddio or reload)",
		   v);
}

int sim_event_parse(char *text, struct scenario_event *ev, char *msg, size_t len)
{
	struct out o = {.msg = msg, .len = len};
	char *tok[MAX_WORDS], why[120];
	unsigned int line = ev->line;
	int ntok;

	memset(ev, 0, sizeof(*ev));
	ev->line = line;
	ntok = words(text, tok, MAX_WORDS);
	if (ntok < 0)
		return say(&o, "event has more than %d words", MAX_WORDS);
	if (ntok < 3 || strcmp(tok[0], "at"))
		return say(&o, "expected 'at TIME VERB ...' in [events]");
	if (config_value_duration(tok[1], &ev->t_ns, why, sizeof(why)))
		return say(&o, "bad event time '%s': %s", tok[1], why);
	return verb(&o, ev, tok, ntok);
}
