// SPDX-License-Identifier: GPL-2.0
/*
 * INI config parsing with libinih. inih of Debian 12 is built without
 * INI_HANDLER_LINENO, so line numbers come from our own reader, which
 * inih calls once per line; it also notes [section] lines itself, so an
 * empty section is still seen.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "decide/antagonist.h"
#include "config/cgroup_cpus.h"
#include "config/config.h"
#include "config/config_check.h"
#include "config/config_device.h"
#include "config/config_value.h"
#include "ways.h"

struct parse_ctx {
	struct config *cfg;
	const char *name;
	const struct config *base; /* a drop-in tenant file adds to this one */
	/* line source: a FILE or a string */
	FILE *f;
	const char *text;
	unsigned int lineno;
	bool overlong;
	/* section state */
	int tenant; /* index of the current [tenant], -1 otherwise */
	bool in_platform;
	bool in_metrics;
	int sock;   /* id of the current [socket N], -1 otherwise */
	int device; /* index of the current [device ADDR], -1 otherwise */
	unsigned int platform_line;
	unsigned int seen; /* bitmask of keys seen in the current section */
	char *err;
	size_t errlen;
	int rc;
};

static void ctx_error(struct parse_ctx *c, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->rc)
		return;
	c->rc = -EINVAL;
	n = snprintf(c->err, c->errlen, "%s:%u: ", c->name, line);
	if (n < 0 || (size_t)n >= c->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - n, fmt, ap);
	va_end(ap);
}

static char *next_line(struct parse_ctx *c, char *buf, int num)
{
	char *r;
	size_t n;

	if (c->f) {
		r = fgets(buf, num, c->f);
	} else {
		const char *nl;

		if (!*c->text)
			return NULL;
		nl = strchr(c->text, '\n');
		n = nl ? (size_t)(nl - c->text) + 1 : strlen(c->text);
		if (n > (size_t)num - 1)
			n = num - 1;
		memcpy(buf, c->text, n);
		buf[n] = '\0';
		c->text += n;
		r = buf;
	}
	if (!r)
		return NULL;
	c->lineno++;
	n = strlen(buf);
	/* A chunk without its newline that fills the buffer is a cut line. */
	if (n == (size_t)num - 1 && buf[n - 1] != '\n' && !c->overlong) {
		c->overlong = true;
		ctx_error(c, c->lineno, "line longer than %d characters", num - 2);
	}
	return r;
}

enum key_bit {
	K_MODEL = 1u << 0,
	K_INTERVAL = 1u << 1,
	K_SOCKET = 1u << 2,
	K_LLC = 1u << 3,
	K_DDIO = 1u << 4,
	K_DDIO_MIN = 1u << 5,
	K_DDIO_MAX = 1u << 6,
	K_STABLE = 1u << 7,
	K_MISS_LOW = 1u << 8,
	K_MIN_RATE = 1u << 9,
	K_CPUS = 1u << 10,
	K_WAYS = 1u << 11,
	K_PRIO = 1u << 12,
	K_NET = 1u << 13,
	K_VSWITCH = 1u << 14,
	K_GROUP = 1u << 15,
	K_DDIO_MODE = 1u << 16,
	K_DDIO_GROWTH = 1u << 17,
	K_DDIO_COUNTERS = 1u << 20,
	K_CGROUP = 1u << 21,
	K_RDT_CLASS = 1u << 22,
	K_CGROUP_ROOT = 1u << 23,
	K_INCLUSIVE = 1u << 24,
	K_IO_CONTROL = 1u << 27,
	K_ANTAGONISTS = 1u << 28,
	K_ANTAGONIST_WAYS = 1u << 29,
};

/* inclusive_ways: none, a contiguous mask (0x003) or a count of the lowest ways (2). */
static int inclusive_value(const char *val, unsigned int line, struct config_inclusive *inc,
			   char *why, size_t len)
{
	uint64_t m;
	unsigned int n;

	inc->line = line;
	if (!strcmp(val, "none")) {
		inc->kind = CONFIG_INCL_NONE;
		inc->value = 0;
		return 0;
	}
	if (val[0] == '0' && (val[1] == 'x' || val[1] == 'X')) {
		if (config_value_u64(val, UINT32_MAX, &m, why, len))
			return -EINVAL;
		if (!m)
			return snprintf(why, len,
					"an empty mask: write none for no inclusive ways");
		if (!ways_contiguous((uint32_t)m))
			return snprintf(why, len,
					"not one contiguous range of ways: the inclusive ways are "
					"one range, e.g. 0x003");
		inc->kind = CONFIG_INCL_MASK;
		inc->value = (uint32_t)m;
		return 0;
	}
	if (config_value_uint(val, 1, 32, &n, why, len)) {
		snprintf(why, len, "expected none, a mask like 0x003 or a number of ways 1..32");
		return -EINVAL;
	}
	inc->kind = CONFIG_INCL_COUNT;
	inc->value = n;
	return 0;
}

/* [socket N]: settings of socket N that differ from [platform]'s. */
static int enter_socket(struct parse_ctx *c, const char *id)
{
	unsigned int line = c->lineno, n;
	char why[128] = "";

	while (*id == ' ')
		id++;
	if (config_value_uint(id, 0, PLATFORM_MAX_SOCKETS - 1, &n, why, sizeof(why))) {
		ctx_error(c, line, "[socket %s]: bad socket id: %s", id, why);
		return -1;
	}
	if (c->cfg->sock[n].line) {
		ctx_error(c, line, "[socket %u] given twice (first at line %u)", n,
			  c->cfg->sock[n].line);
		return -1;
	}
	c->cfg->sock[n].line = line;
	c->sock = (int)n;
	return 0;
}

static int socket_key(struct parse_ctx *c, const char *key, const char *val, unsigned int *bit)
{
	struct config_socket *s = &c->cfg->sock[c->sock];
	unsigned int line = c->lineno;
	char why[128] = "";
	int r = 0;

	if (!strcmp(key, "llc_ways")) {
		*bit = CONFIG_SOCK_LLC;
		s->llc_ways_line = line;
		if (strcmp(val, "detect"))
			r = config_value_uint(val, 2, 32, &s->llc_ways, why, sizeof(why));
	} else if (!strcmp(key, "ddio_ways")) {
		*bit = CONFIG_SOCK_DDIO;
		if (strcmp(val, "keep"))
			r = config_value_uint(val, 1, 32, &s->ddio_ways, why, sizeof(why));
	} else if (!strcmp(key, "ddio_ways_min")) {
		*bit = CONFIG_SOCK_DDIO_MIN;
		r = config_value_uint(val, 1, 32, &s->ddio_ways_min, why, sizeof(why));
	} else if (!strcmp(key, "ddio_ways_max")) {
		*bit = CONFIG_SOCK_DDIO_MAX;
		r = config_value_uint(val, 1, 32, &s->ddio_ways_max, why, sizeof(why));
	} else if (!strcmp(key, "inclusive_ways")) {
		*bit = CONFIG_SOCK_INCLUSIVE;
		r = inclusive_value(val, line, &s->inclusive, why, sizeof(why));
	} else if (!strcmp(key, "model")) {
		*bit = CONFIG_SOCK_MODEL;
		s->model_line = line;
		if (!strcmp(val, "aggregation") || !strcmp(val, "slicing"))
			s->model = val[0] == 'a' ? CONFIG_MODEL_AGGREGATION : CONFIG_MODEL_SLICING;
		else
			r = snprintf(why, sizeof(why), "expected aggregation or slicing");
	} else if (!strcmp(key, "ddio")) {
		*bit = CONFIG_SOCK_DDIO_MODE;
		if (!strcmp(val, "manage") || !strcmp(val, "observe"))
			s->ddio_observe = val[0] == 'o';
		else
			r = snprintf(why, sizeof(why), "expected manage or observe");
	} else {
		ctx_error(c, line,
			  "[socket %d] %s: unknown key (model, llc_ways, ddio_ways, "
			  "ddio_ways_min, ddio_ways_max, ddio, inclusive_ways)",
			  c->sock, key);
		return -1;
	}
	if (*bit & (CONFIG_SOCK_DDIO | CONFIG_SOCK_DDIO_MIN | CONFIG_SOCK_DDIO_MAX) &&
	    !s->ddio_line)
		s->ddio_line = line;
	if (r) {
		ctx_error(c, line, "[socket %d] %s: bad value '%s': %s", c->sock, key, val, why);
		return -1;
	}
	s->keys |= *bit;
	return 0;
}

/* Start a section on a new "[...]" header; inih gives us its name. */
static int enter_section(struct parse_ctx *c, const char *section)
{
	struct config *cfg = c->cfg;
	unsigned int line = c->lineno;
	struct config_tenant *t;
	const char *name;
	int i;

	c->seen = 0;
	c->tenant = -1;
	c->sock = -1;
	c->device = -1;
	c->in_platform = false;
	c->in_metrics = false;
	if (c->base && strncmp(section, "tenant ", 7)) {
		ctx_error(c, line,
			  "[%s]: a tenant file (tenants_dir) holds only [tenant NAME] sections; "
			  "[platform], [socket N], [device ADDR] and [metrics] belong in %s",
			  section, c->base->path);
		return -1;
	}
	if (!strncmp(section, "socket ", 7))
		return enter_socket(c, section + 7);
	if (!strncmp(section, "device ", 7)) {
		char msg[192];
		unsigned int d;

		if (config_device_section(cfg, section + 7, line, &d, msg, sizeof(msg))) {
			ctx_error(c, line, "%s", msg);
			return -1;
		}
		c->device = (int)d;
		return 0;
	}
	c->in_metrics = !strcmp(section, "metrics");
	if (c->in_metrics) {
		char msg[128];

		if (config_metrics_section(&cfg->metrics, line, msg, sizeof(msg)))
			ctx_error(c, line, "%s", msg);
		return c->rc ? -1 : 0;
	}
	if (!strcmp(section, "platform")) {
		if (c->platform_line) {
			ctx_error(c, line, "[platform] given twice (first at line %u)",
				  c->platform_line);
			return -1;
		}
		c->platform_line = line;
		c->in_platform = true;
		return 0;
	}
	if (strncmp(section, "tenant ", 7)) {
		ctx_error(c, line,
			  "unknown section [%s] (expected [platform], [socket N], [tenant NAME], "
			  "[device ADDR] or [metrics])",
			  section);
		return -1;
	}
	name = section + 7;
	while (*name == ' ')
		name++;
	if (config_check_name(name)) {
		ctx_error(c, line, "[%s]: tenant name must be 1-%d characters of A-Z a-z 0-9 _ -",
			  section, PLATFORM_NAME_LEN - 1);
		return -1;
	}
	i = config_tenant_index(cfg, name);
	if (i >= 0) {
		ctx_error(c, line, "[tenant %s] given twice (first at line %u)", name,
			  cfg->tenant[i].line);
		return -1;
	}
	if (cfg->ntenants == PLATFORM_MAX_TENANTS) {
		ctx_error(c, line, "[tenant %s]: more than %d tenants", name, PLATFORM_MAX_TENANTS);
		return -1;
	}
	c->tenant = cfg->ntenants++;
	t = &cfg->tenant[c->tenant];
	memset(t, 0, sizeof(*t));
	memcpy(t->name, name, strlen(name) + 1);
	t->line = line;
	t->prio = CONFIG_PRIO_BE;
	return 0;
}

/* Returns 0, or -1 after recording the error. */
static int platform_key(struct parse_ctx *c, const char *key, const char *val, unsigned int *bit)
{
	struct config *cfg = c->cfg;
	unsigned int line = c->lineno;
	char why[128] = "";
	int r = 0;

	if (!strcmp(key, "model")) {
		*bit = K_MODEL;
		cfg->model_line = line;
		if (!strcmp(val, "aggregation"))
			cfg->model = CONFIG_MODEL_AGGREGATION;
		else if (!strcmp(val, "slicing"))
			cfg->model = CONFIG_MODEL_SLICING;
		else
			r = snprintf(why, sizeof(why), "expected aggregation or slicing");
	} else if (!strcmp(key, "interval_ms")) {
		unsigned int ms;

		*bit = K_INTERVAL;
		r = config_value_uint(val, 1, 60000, &ms, why, sizeof(why));
		cfg->interval_ns = (uint64_t)ms * 1000000u;
	} else if (!strcmp(key, "socket")) {
		*bit = K_SOCKET;
		cfg->socket_set = true;
		cfg->socket_line = line;
		r = config_value_uint(val, 0, PLATFORM_MAX_SOCKETS - 1, &cfg->socket, why,
				      sizeof(why));
	} else if (!strcmp(key, "llc_ways")) {
		*bit = K_LLC;
		cfg->llc_ways_line = line;
		if (!strcmp(val, "detect"))
			cfg->llc_ways = 0;
		else
			r = config_value_uint(val, 2, 32, &cfg->llc_ways, why, sizeof(why));
	} else if (!strcmp(key, "ddio_ways")) {
		*bit = K_DDIO;
		if (!strcmp(val, "keep"))
			cfg->ddio_ways = 0;
		else
			r = config_value_uint(val, 1, 32, &cfg->ddio_ways, why, sizeof(why));
	} else if (!strcmp(key, "ddio")) {
		*bit = K_DDIO_MODE;
		if (!strcmp(val, "manage") || !strcmp(val, "observe"))
			cfg->ddio_observe = val[0] == 'o';
		else
			r = snprintf(why, sizeof(why), "expected manage or observe");
	} else if (!strcmp(key, "inclusive_ways")) {
		*bit = K_INCLUSIVE;
		r = inclusive_value(val, line, &cfg->inclusive, why, sizeof(why));
	} else if (!strcmp(key, "ddio_growth")) {
		*bit = K_DDIO_GROWTH;
		if (!strcmp(val, "paying") || !strcmp(val, "paper"))
			cfg->ddio_grow_to_max = val[1] == 'a' && val[2] == 'p';
		else
			r = snprintf(why, sizeof(why), "expected paying or paper");
	} else if (!strcmp(key, "ddio_ways_min")) {
		*bit = K_DDIO_MIN;
		r = config_value_uint(val, 1, 32, &cfg->ddio_ways_min, why, sizeof(why));
	} else if (!strcmp(key, "ddio_ways_max")) {
		*bit = K_DDIO_MAX;
		r = config_value_uint(val, 1, 32, &cfg->ddio_ways_max, why, sizeof(why));
	} else if (!strcmp(key, "threshold_stable")) {
		*bit = K_STABLE;
		r = config_value_double(val, 0.001, 10.0, &cfg->threshold_stable, why, sizeof(why));
	} else if (!strcmp(key, "threshold_miss_low")) {
		*bit = K_MISS_LOW;
		r = config_value_double(val, 0, 1e15, &cfg->threshold_miss_low, why, sizeof(why));
	} else if (!strcmp(key, "threshold_min_rate")) {
		*bit = K_MIN_RATE;
		r = config_value_double(val, 0, 1e15, &cfg->threshold_min_rate, why, sizeof(why));
	} else if (!strcmp(key, "ddio_counters")) {
		*bit = K_DDIO_COUNTERS;
		if (!strcmp(val, "required") || !strcmp(val, "optional"))
			cfg->ddio_counters_optional = val[0] == 'o';
		else
			r = snprintf(why, sizeof(why), "expected required or optional");
	} else if (!strcmp(key, "tenants_dir")) {
		*bit = 0; /* repeatable */
		if (cfg->ntenants_dirs == CONFIG_MAX_TENANTS_DIRS)
			r = snprintf(why, sizeof(why), "more than %d tenants_dir lines",
				     CONFIG_MAX_TENANTS_DIRS);
		else if (val[0] != '/' || strlen(val) >= CONFIG_PATH_LEN - 64)
			r = snprintf(why, sizeof(why),
				     "expected an absolute path of < %d characters",
				     CONFIG_PATH_LEN - 64);
		else
			snprintf(cfg->tenants_dir[cfg->ntenants_dirs++], CONFIG_PATH_LEN, "%s",
				 val);
	} else if (!strcmp(key, "cgroup_root")) {
		*bit = K_CGROUP_ROOT;
		if (val[0] != '/' || strlen(val) >= CONFIG_PATH_LEN - 64)
			r = snprintf(why, sizeof(why),
				     "expected an absolute path of < %d characters",
				     CONFIG_PATH_LEN - 64);
		else
			snprintf(cfg->cgroup_root, sizeof(cfg->cgroup_root), "%s", val);
	} else if (!strcmp(key, "io_control")) {
		*bit = K_IO_CONTROL;
		if (!strcmp(val, "auto"))
			cfg->io_control = CONFIG_IO_CONTROL_AUTO;
		else if (!strcmp(val, "ddio"))
			cfg->io_control = CONFIG_IO_CONTROL_DDIO;
		else if (!strcmp(val, "io_alloc"))
			cfg->io_control = CONFIG_IO_CONTROL_IO_ALLOC;
		else
			r = snprintf(why, sizeof(why), "expected auto, ddio or io_alloc");
	} else if (!strcmp(key, "antagonists")) {
		*bit = K_ANTAGONISTS;
		if (!strcmp(val, "confine"))
			cfg->antagonists = ANTAGONIST_CONFINE;
		else if (!strcmp(val, "observe"))
			cfg->antagonists = ANTAGONIST_OBSERVE;
		else if (!strcmp(val, "off"))
			cfg->antagonists = ANTAGONIST_OFF;
		else
			r = snprintf(why, sizeof(why), "expected confine, observe or off");
	} else if (!strcmp(key, "antagonist_ways")) {
		*bit = K_ANTAGONIST_WAYS;
		r = config_value_uint(val, 1, 32, &cfg->antagonist_ways, why, sizeof(why));
	} else {
		r = config_thr_key(&cfg->thr, key, val, line, false, why, sizeof(why));
		if (r > 0 || r == -EEXIST) {
			ctx_error(c, line, "[platform] %s: %s", key, r > 0 ? "unknown key" : why);
			return -1;
		}
	}
	if (*bit & (K_DDIO | K_DDIO_MIN | K_DDIO_MAX) && !cfg->ddio_line)
		cfg->ddio_line = line;
	if (r) {
		ctx_error(c, line, "[platform] %s: bad value '%s': %s", key, val, why);
		return -1;
	}
	return 0;
}

static int tenant_key(struct parse_ctx *c, const char *key, const char *val, unsigned int *bit)
{
	struct config_tenant *t = &c->cfg->tenant[c->tenant];
	unsigned int line = c->lineno;
	char why[128] = "";
	int r = 0;

	if (!strcmp(key, "cpus")) {
		*bit = K_CPUS;
		t->cpus_line = line;
		r = config_value_cpus(val, t->cpus, &t->ncpus, why, sizeof(why));
	} else if (!strcmp(key, "ways")) {
		*bit = K_WAYS;
		t->ways_line = line;
		r = config_value_uint(val, 1, 32, &t->ways, why, sizeof(why));
	} else if (!strcmp(key, "priority")) {
		*bit = K_PRIO;
		t->prio_line = line;
		if (!strcmp(val, "PS") || !strcmp(val, "ps"))
			t->prio = CONFIG_PRIO_PS;
		else if (!strcmp(val, "BE") || !strcmp(val, "be"))
			t->prio = CONFIG_PRIO_BE;
		else
			r = snprintf(why, sizeof(why), "expected PS or BE");
	} else if (!strcmp(key, "networking")) {
		*bit = K_NET;
		r = config_value_bool(val, &t->networking, why, sizeof(why));
	} else if (!strcmp(key, "vswitch")) {
		*bit = K_VSWITCH;
		t->vswitch_line = line;
		r = config_value_bool(val, &t->vswitch, why, sizeof(why));
	} else if (!strcmp(key, "group")) {
		*bit = K_GROUP;
		t->group_line = line;
		if (config_check_name(val))
			r = snprintf(why, sizeof(why),
				     "a group name is 1-%d characters of A-Z a-z "
				     "0-9 _ -",
				     PLATFORM_NAME_LEN - 1);
		else
			memcpy(t->group, val, strlen(val) + 1);
	} else if (!strcmp(key, "cgroup")) {
		*bit = K_CGROUP;
		t->cgroup_line = line;
		if (strlen(val) >= sizeof(t->cgroup))
			r = snprintf(why, sizeof(why), "longer than %zu characters",
				     sizeof(t->cgroup) - 1);
		else if (!cgroup_cpus_check_path(val, why, sizeof(why)))
			memcpy(t->cgroup, val, strlen(val) + 1);
		else
			r = 1;
	} else if (!strcmp(key, "rdt_class")) {
		*bit = K_RDT_CLASS;
		t->rdt_class_line = line;
		if (config_check_name(val) || !strcmp(val, "info") || !strncmp(val, "mon_", 4))
			r = snprintf(why, sizeof(why),
				     "a resctrl group name is 1-%d characters of A-Z a-z 0-9 _ - "
				     "(not info or mon_*)",
				     PLATFORM_NAME_LEN - 1);
		else if (!strncmp(val, "iocad-", 6))
			r = snprintf(why, sizeof(why),
				     "groups named iocad-* are iocad's own (removed at start as "
				     "stale): give the runtime's class another name");
		else
			memcpy(t->rdt_class, val, strlen(val) + 1);
	} else {
		ctx_error(c, line, "[tenant %s] %s: unknown key", t->name, key);
		return -1;
	}
	if (r) {
		ctx_error(c, line, "[tenant %s] %s: bad value '%s': %s", t->name, key, val, why);
		return -1;
	}
	return 0;
}

static int handler(void *user, const char *section, const char *key, const char *val)
{
	struct parse_ctx *c = user;
	unsigned int bit = 0;
	int r;

	(void)section; /* tracked by section_reader, which sees empty ones too */
	if (c->rc)
		return 1; /* keep only the first error */
	if (c->tenant < 0 && !c->in_platform && !c->in_metrics && c->sock < 0 && c->device < 0) {
		ctx_error(c, c->lineno, "%s: key outside of a known section", key);
		return 1;
	}
	if (c->in_metrics) {
		char msg[256];

		r = config_metrics_key(&c->cfg->metrics, key, val, c->lineno, &bit, msg,
				       sizeof(msg));
		if (r)
			ctx_error(c, c->lineno, "%s", msg);
	} else if (c->sock >= 0) {
		r = socket_key(c, key, val, &bit);
	} else if (c->device >= 0) {
		char msg[256];

		r = config_device_key(c->cfg, (unsigned int)c->device, key, val, c->lineno, &bit,
				      msg, sizeof(msg));
		if (r)
			ctx_error(c, c->lineno, "%s", msg);
	} else {
		r = c->in_platform ? platform_key(c, key, val, &bit)
				   : tenant_key(c, key, val, &bit);
	}
	if (r)
		return 1;
	if (c->seen & bit) {
		ctx_error(c, c->lineno, "%s: given twice in this section", key);
		return 1;
	}
	c->seen |= bit;
	return 1;
}

/*
 * inih reports a section only with its first key; we see the header line
 * ourselves in the reader, so sections are entered in order, empty or not.
 */
static char *section_reader(char *str, int num, void *stream)
{
	struct parse_ctx *c = stream;
	char *line = next_line(c, str, num);
	char name[PLATFORM_NAME_LEN + 16];
	const char *s, *e;
	size_t n;

	if (!line || c->rc)
		return line;
	s = line;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s != '[')
		return line;
	e = strchr(s, ']');
	if (!e)
		return line; /* inih reports the syntax error */
	n = (size_t)(e - s - 1);
	if (n >= sizeof(name)) {
		ctx_error(c, c->lineno, "section name too long");
		return line;
	}
	memcpy(name, s + 1, n);
	name[n] = '\0';
	enter_section(c, name);
	return line;
}

/*
 * The tenants this parse added that are cgroups get their CPUs now, at
 * their cgroup line (so later CPU errors point there).
 */
static void read_cgroups(struct parse_ctx *c, unsigned int first)
{
	struct config *cfg = c->cfg;
	const char *root = cfg->cgroup_root[0] ? cfg->cgroup_root : CONFIG_CGROUP_ROOT_DEFAULT;

	for (unsigned int i = first; i < cfg->ntenants && !c->rc; i++) {
		struct config_tenant *t = &cfg->tenant[i];
		char why[768];

		if (!t->cgroup[0])
			continue;
		if (t->cpus_line) {
			ctx_error(c, t->cgroup_line,
				  "[tenant %s] cgroup: cpus is given too (line %u): give one of "
				  "them",
				  t->name, t->cpus_line);
			return;
		}
		if (cgroup_cpus_read(root, t->cgroup, t->cpus, &t->ncpus, why, sizeof(why)))
			ctx_error(c, t->cgroup_line, "[tenant %s] cgroup: %s", t->name, why);
		t->cpus_line = t->cgroup_line;
	}
}

/* [platform]'s storage_* and antagonist_* pairs agree. */
static int check_thresholds(const struct config *cfg, char *err, size_t len)
{
	char why[160];
	unsigned int line;

	if (!config_thr_check(&cfg->thr, &line, why, sizeof(why)))
		return 0;
	return config_err_at(cfg, line, err, len, "[platform] %s", why);
}

static int parse(struct parse_ctx *c, struct config *out)
{
	unsigned int first = 0;
	int r;

	if (c->base) {
		memcpy(c->cfg, c->base, sizeof(*c->cfg));
		first = c->cfg->ntenants;
	} else {
		config_defaults(c->cfg);
	}
	snprintf(c->cfg->path, sizeof(c->cfg->path), "%s", c->name);
	c->tenant = -1;
	c->sock = -1;
	c->device = -1;
	r = ini_parse_stream(section_reader, c, handler, c);
	if (r > 0 && !c->rc)
		ctx_error(c, (unsigned int)r, "syntax error (expected [section] or key = value)");
	else if (r < 0 && !c->rc) {
		snprintf(c->err, c->errlen, "%s: cannot parse (inih error %d)", c->name, r);
		c->rc = r == -2 ? -ENOMEM : -EIO;
	}
	if (!c->rc)
		read_cgroups(c, first);
	if (!c->rc)
		c->rc = config_check(c->cfg, c->err, c->errlen);
	if (!c->rc && !c->base)
		c->rc = check_thresholds(c->cfg, c->err, c->errlen);
	if (!c->rc && !c->base)
		c->rc = config_device_thresholds(c->cfg, c->err, c->errlen);
	if (!c->rc && !c->base)
		c->rc = config_device_check(c->cfg, c->err, c->errlen);
	if (c->rc)
		return c->rc;
	/* a drop-in's tenants join the main file's config, named by it */
	if (c->base)
		memcpy(c->cfg->path, c->base->path, sizeof(c->cfg->path));
	memcpy(out, c->cfg, sizeof(*out));
	return c->rc;
}

int config_parse_file(const char *path, struct config *out, char *err, size_t errlen)
{
	struct parse_ctx c = {.name = path, .err = err, .errlen = errlen};
	int r;

	c.f = fopen(path, "r");
	if (!c.f) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	c.cfg = malloc(sizeof(*c.cfg));
	if (!c.cfg) {
		fclose(c.f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r = parse(&c, out);
	free(c.cfg);
	fclose(c.f);
	return r;
}

int config_parse_tenants_file(const char *path, const struct config *base, struct config *out,
			      char *err, size_t errlen)
{
	struct parse_ctx c = {.name = path, .base = base, .err = err, .errlen = errlen};
	int r;

	c.f = fopen(path, "r");
	if (!c.f) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	c.cfg = malloc(sizeof(*c.cfg));
	if (!c.cfg) {
		fclose(c.f);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r = parse(&c, out);
	free(c.cfg);
	fclose(c.f);
	return r;
}

int config_parse_string(const char *text, const char *name, struct config *out, char *err,
			size_t errlen)
{
	struct parse_ctx c = {.name = name, .text = text, .err = err, .errlen = errlen};
	int r;

	c.cfg = malloc(sizeof(*c.cfg));
	if (!c.cfg) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -ENOMEM;
	}
	r = parse(&c, out);
	free(c.cfg);
	return r;
}

void config_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->model = CONFIG_MODEL_SLICING;
	cfg->interval_ns = 1000000000u;
	cfg->llc_ways = 0;
	cfg->ddio_ways = 0;
	cfg->ddio_ways_min = 2;
	cfg->ddio_ways_max = 6;
	cfg->threshold_stable = 0.10;
	cfg->threshold_miss_low = 1e6;
	cfg->threshold_min_rate = 1e4;
	cfg->antagonists = ANTAGONIST_CONFINE;
	cfg->antagonist_ways = 1;
	config_thr_defaults(&cfg->thr);
}
